/**
 * Where a run's time goes (file-costs.ts, tools/test-costs.ts): a vitest of its own runs two
 * small files with SMSKIT_TEST_COSTS set, one that computes and one that waits and starts a
 * child that computes; each file's line must show its own mix, and the report must rank them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCosts, rankFiles } from '../../tools/test-costs.js';
import { repoRoot } from '../helpers/cli.js';
import type { FileCost } from './file-costs.js';

/** Computes for `ms` of the process's own CPU time (not a loop count: a slow machine only takes longer). */
const SPIN = `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const spin = (ms) => { const until = cpu() + ms; while (cpu() < until); };`;
const COMPUTES = `${SPIN}
it('computes', () => { spin(400); expect(1).toBe(1); });
`;
const WAITS = `import { execFileSync } from 'node:child_process';
it('waits, then starts a child that computes', async () => {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  execFileSync(process.execPath, ['-e', ${JSON.stringify(`${SPIN} spin(400);`)}]);
  expect(1).toBe(1);
});
`;

describe('the per-file cost log and its report', () => {
  let dir: string;
  let log: string;
  let lines: FileCost[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'smskit-file-costs-'));
    log = join(dir, 'costs.jsonl');
    writeFileSync(join(dir, 'computes.test.mjs'), COMPUTES);
    writeFileSync(join(dir, 'waits.test.mjs'), WAITS);
    const setup = JSON.stringify(join(repoRoot, 'test', 'setup', 'file-costs.ts'));
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.test.mjs'], globals: true, setupFiles: [${setup}] } };\n`,
    );
    const run = vitest({ SMSKIT_TEST_COSTS: log });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as FileCost);
  }, 90_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A vitest of its own on the two files (or those named), without the run's SMSKIT_TEST_COSTS unless given. */
  function vitest(env: NodeJS.ProcessEnv, ...files: string[]) {
    const { SMSKIT_TEST_COSTS: _ours, ...inherited } = process.env;
    const config = join(dir, 'vitest.config.mjs');
    return spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--config', config, ...files],
      { cwd: dir, env: { ...inherited, ...env }, encoding: 'utf8', timeout: 60_000 },
    );
  }

  const of = (name: string): FileCost => {
    const line = lines.find((l) => l.file.endsWith(name));
    if (line === undefined) throw new Error(`no line for ${name} in ${JSON.stringify(lines)}`);
    return line;
  };

  it('writes one line per file: a computing file is its own CPU', () => {
    expect(lines.map((l) => l.file.split('/').at(-1)).sort()).toEqual(['computes.test.mjs', 'waits.test.mjs']);
    const computes = of('computes.test.mjs');
    expect(computes.own).toBeGreaterThanOrEqual(0.4);
    expect(computes.end - computes.start).toBeGreaterThanOrEqual(0.4);
  });

  it("counts a waiting file's wall time and the CPU of the child it started, not as its own", () => {
    const waits = of('waits.test.mjs');
    expect(waits.end - waits.start).toBeGreaterThanOrEqual(1.4);
    expect(waits.children).toBeGreaterThanOrEqual(0.4);
    expect(waits.own).toBeLessThan(0.4);
  });

  it('ranks the files by wall time and shows what each waited', () => {
    const rows = rankFiles(readFileSync(log, 'utf8'), dir);
    expect(rows.map((r) => r.file)).toEqual(['waits.test.mjs', 'computes.test.mjs']);
    expect(rows[0]!.waiting).toBeGreaterThanOrEqual(0.9);
    const report = formatCosts(rows, 1).split('\n');
    expect(report[0]).toMatch(/wall s +CPU s +waiting +file$/);
    expect(report[1]).toMatch(/ waits\.test\.mjs$/);
    expect(report.at(-1)).toMatch(/ all 2 files$/);
    expect(report).toHaveLength(3);
  });

  it('names the line that is not a record', () => {
    expect(() =>
      rankFiles('{"file":"a.test.ts","start":1,"end":2,"own":0.1,"children":0}\n{"file":"b"}\n', dir),
    ).toThrow("line 2 is not a test file's record");
    expect(() => rankFiles('not json', dir)).toThrow('line 1 is not JSON: not json');
  });

  it('writes nothing without SMSKIT_TEST_COSTS', () => {
    rmSync(log);
    const run = vitest({}, 'computes.test.mjs');
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(existsSync(log)).toBe(false);
  });
});
