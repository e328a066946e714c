/**
 * The order test files start in. Two workers share the files; the run ends when the last one
 * does, so a long file started last leaves the other worker idle for most of its length. Vitest
 * starts the longest first only when its cache holds the last run's durations; on a fresh clone
 * (CI) it starts the largest files first, which put the doc-run suite, whose test files are a few
 * lines long and which runs longest, at the very end. The files known to be long therefore start
 * first here, in this order; the rest follow in Vitest's own order.
 */
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first (seconds alone on a quiet 2-core machine). The doc-run halves are split by the
 * delivery crash tests so the second half does not wait, idle, while the first installs the
 * package both use (test/helpers/consumer-project.ts, sharedConsumer).
 */
export const SLOW_FILES: readonly string[] = [
  'test/docs/doc-run.test.ts', // ~170 s
  'test/reliability/delivery-crash.test.ts', // ~58 s
  'test/docs/doc-run-2.test.ts', // ~110 s
  'test/reliability/multi-instance.test.ts', // ~51 s
  'test/reliability/fuzz.test.ts', // ~47 s
  'test/package/consumer.test.ts', // ~25 s after the shared install
  'test/cli/bundle.test.ts', // ~27 s
  'test/security/cli.test.ts', // ~22 s
  'test/peers/dotnet-proxies.test.ts', // ~22 s
  'test/contract/diff/execution.test.ts', // ~22 s
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
