/**
 * The last check of every run: counts the tests that skipped. A skip without a reason (no line
 * its file printed, no note, not on the expected list) fails every run, in CI or not: the README
 * promises one line per skipped group in the default reporter. In CI (`CI` set) a skip that is not
 * on the short list in expected-skips.ts also fails the run, naming each test and the line its
 * file said about it, so a peer or folder that went missing cannot pass as green. Otherwise it
 * prints one line: how many skipped, and why, by reason.
 *
 * A run filtered by test name (`-t`) skips every other test on purpose, so it is not audited.
 */
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { inCi } from '../helpers/peers.js';
import { EXPECTED_SKIPS } from './expected-skips.js';

/** The gate's skip lines (test/helpers/peers.ts) and the other files' ones contain this. */
const SKIP_LINE = /skipped/i;

interface Skip {
  readonly file: string;
  readonly name: string;
  readonly why: string;
  /** False when nothing says why: no line printed by the file, no note, not expected. */
  readonly explained: boolean;
}

export default class SkipAudit implements Reporter {
  private root = process.cwd();
  private filtered = false;
  /** What each module printed that says it skipped something, by module id. */
  private readonly said = new Map<string, string[]>();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onUserConsoleLog(log: { content: string; taskId?: string }): void {
    if (log.taskId === undefined || !SKIP_LINE.test(log.content)) return;
    const lines = this.said.get(log.taskId) ?? [];
    lines.push(log.content.trim());
    this.said.set(log.taskId, lines);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (this.filtered) return;
    // A file that failed (a throwing beforeAll, a missing peer in CI) already fails the run; the
    // tests it left unrun are not skips to explain.
    const skips = modules
      .filter((module) => module.state() !== 'failed')
      .flatMap((module) => [...module.children.allTests('skipped')].map((t) => this.skip(module, t)));
    if (skips.length === 0) return;
    const unexplained = skips.filter((s) => !s.explained);
    if (unexplained.length > 0) {
      process.exitCode = 1;
      const list = unexplained.map((s) => `  ${s.file} > ${s.name}`).join('\n');
      console.error(
        `\nskip audit: ${unexplained.length} test(s) skipped without a line saying why (print one, e.g. requirePeer in test/helpers/peers.ts, or ctx.skip(reason)):\n${list}\n`,
      );
    }
    const unexpected = skips.filter((s) => !EXPECTED_SKIPS.some((e) => e.file === s.file && e.name.test(s.name)));
    if (inCi && unexpected.length > 0) {
      process.exitCode = 1;
      const list = unexpected.map((s) => `  ${s.file} > ${s.name}\n      ${s.why}`).join('\n');
      console.error(
        `\nskip audit: ${unexpected.length} test(s) skipped in CI that test/setup/expected-skips.ts does not allow:\n${list}\n`,
      );
      return;
    }
    const byWhy = new Map<string, number>();
    for (const s of skips) byWhy.set(s.why, (byWhy.get(s.why) ?? 0) + 1);
    const reasons = [...byWhy].map(([why, n]) => `${n} × ${why}`).join('; ');
    console.log(
      `skip audit: ${skips.length} skipped (${skips.length - unexpected.length} on the expected list): ${reasons}`,
    );
  }

  private skip(module: TestModule, test: TestCase): Skip {
    const file = relative(this.root, module.moduleId).split('\\').join('/');
    const expected = EXPECTED_SKIPS.find((e) => e.file === file && e.name.test(test.fullName));
    const result = test.result();
    const note = result.state === 'skipped' ? result.note : undefined;
    const said = this.said.get(module.id)?.join(' / ');
    const why = expected?.why ?? note ?? said;
    return { file, name: test.fullName, why: why ?? `${file}: no line says why`, explained: why !== undefined };
  }
}
