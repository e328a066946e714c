/**
 * The order test files start in. The workers share the files; the run ends when the last one
 * does, so a long file started last leaves the other workers idle for most of its length. Vitest
 * starts the longest first only when its cache holds the last run's durations; on a fresh clone
 * (CI) it starts the largest files first, which put the doc-run suite, whose test files are a few
 * lines long and which runs longest, at the very end. The files known to be long therefore start
 * first here, in this order; the rest follow in Vitest's own order.
 */
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The long files (seconds in a full run on the 2-core machine, 2026-11-29), about longest first,
 * except that the doc-run parts are spread among the others so that the parts after the first do
 * not all sit idle together while the first installs the package they share
 * (test/helpers/shared-consumer.ts).
 */
export const SLOW_FILES: readonly string[] = [
  'test/docs/doc-run.test.ts', // ~45 s (each part; the first installs the shared package)
  'test/reliability/callback-guarantee.test.ts', // ~70 s, mostly waiting (three cases side by side)
  'test/docs/doc-run-2.test.ts',
  'test/reliability/multi-instance.test.ts', // ~55 s
  'test/fuzz/peers.test.ts', // ~30-40 s, the stacks side by side (the genuine ASMX ones in CI too)
  'test/docs/doc-run-3.test.ts',
  'test/reliability/fuzz.test.ts', // ~40 s
  'test/docs/doc-run-4.test.ts',
  'test/reliability/delivery-crash.test.ts', // ~35 s
  // Mostly waiting for Mono's WCF host (~11 s, ~3 CPU-seconds) and gSOAP's build (~3 s, ~1):
  // started late, they ran alone at the very end of the run, the other worker idle.
  'test/peers/stacks/wcf.test.ts',
  'test/peers/stacks/gsoap.test.ts',
  'test/cli/bundle.test.ts', // ~30 s
  'test/reliability/delivery-crash-net-smpp.test.ts', // ~30 s
  'test/security/cli.test.ts', // ~30 s
  'test/package/consumer.test.ts', // ~30 s after the shared install
  'test/service/store/postgres.test.ts', // ~25 s
  'test/conformance/hostile-targets.test.ts', // ~25 s
  'test/contract/diff/execution.test.ts', // ~20 s
  'test/reliability/soak.test.ts', // ~7 s at a fixed rate, mostly waiting: not last
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number =>
      SLOW_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).split(sep).join('/'));
    const slow = sorted.filter((spec) => rank(spec) !== -1).sort((a, b) => rank(a) - rank(b));
    return [...slow, ...sorted.filter((spec) => rank(spec) === -1)];
  }
}
