/**
 * The skip audit (skip-audit.ts) fails a run with a test that skipped without a line saying why,
 * and passes one whose skips each printed their reason: run on two small test files by a vitest
 * of its own, outside CI, the way a fresh clone's `npm test` runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const EXPLAINED = `const why = 'fixture: skipped — no such peer (apt-get install it); CI runs it';
console.warn(why);
describe.skipIf(true)('a group that says why', () => it('runs with the peer', () => {}));
it('runs', () => expect(1).toBe(1));
`;
const SILENT = `it.skip('skips without a word', () => {});
it('runs', () => expect(1).toBe(1));
`;

describe('the skip audit', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'smskit-skip-audit-'));
    writeFileSync(join(dir, 'explained.test.mjs'), EXPLAINED);
    writeFileSync(join(dir, 'silent.test.mjs'), SILENT);
    const reporter = JSON.stringify(join(repoRoot, 'test', 'setup', 'skip-audit.ts'));
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.test.mjs'], globals: true, reporters: ['default', ${reporter}] } };\n`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const vitest = (...files: string[]) => {
    const { CI: _ci, GITHUB_ACTIONS: _gh, ...env } = process.env;
    return spawnSync(
      process.execPath,
      [
        join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--root',
        dir,
        '--config',
        join(dir, 'vitest.config.mjs'),
        ...files,
      ],
      { cwd: dir, env, encoding: 'utf8', timeout: 60_000 },
    );
  };

  it('fails a run with a skip nothing explains, naming the test', () => {
    const run = vitest();
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toContain('skip audit: 1 test(s) skipped without a line saying why');
    expect(run.stderr).toContain('silent.test.mjs > skips without a word');
    expect(run.stderr).not.toContain('explained.test.mjs >');
  });

  it('passes a run whose skips each printed their reason, and counts them by reason', () => {
    const run = vitest('explained');
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('skip audit: 1 skipped (0 on the expected list): 1 × fixture: skipped — no such peer');
  });
});
