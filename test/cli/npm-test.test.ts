/**
 * `npm test` (scripts/test.mjs): the lint, typecheck and generate --check beside vitest, the exit
 * status of them all, and a failing check stopping the tests. Run in a folder of its own whose
 * biome, tsc, vitest and smskit are small scripts that print, wait and exit as each case says
 * (environment variables): what is tested is the orchestration, not the tools.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

let project: string;

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
  chmodSync(join(project, path), mode);
}

/**
 * A tool that prints `<name> ran` and exits FAKE_<NAME>_EXIT, FAKE_<NAME>_MS after it started or,
 * with FAKE_<NAME>_AFTER, after that line is in the log (a start-up on a loaded machine takes
 * longer than any fixed wait).
 */
function fakeTool(name: string): string {
  const variable = `FAKE_${name.toUpperCase()}`;
  return `const fs = require('node:fs');
const log = (line) => fs.appendFileSync(process.env.FAKE_LOG, line + '\\n');
process.on('SIGTERM', () => { log('${name} stopped'); process.exit(143); });
log('${name} started ' + process.argv.slice(2).join(' '));
log('${name} priority ' + require('node:os').getPriority());
const after = process.env.${variable}_AFTER;
const end = () => setTimeout(() => {
  const code = Number(process.env.${variable}_EXIT ?? 0);
  console.log('${name} ran' + (code === 0 ? '' : ': error in src/a.ts(1,1)'));
  log('${name} ended');
  process.exit(code);
}, Number(process.env.${variable}_MS ?? 0));
const poll = () => (fs.readFileSync(process.env.FAKE_LOG, 'utf8').includes(after) ? end() : setTimeout(poll, 20));
after === undefined ? end() : poll();
`;
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'smskit-npm-test-'));
  cpSync(join(repoRoot, 'scripts', 'test.mjs'), join(project, 'scripts', 'test.mjs'));
  write('package.json', '{ "name": "fake", "type": "module" }\n');
  write('node_modules/.bin/biome', '#!/bin/sh\nexec node "$(dirname "$0")/../biome.cjs" "$@"\n', 0o755);
  write('node_modules/biome.cjs', fakeTool('biome'));
  write('node_modules/typescript-7/package.json', '{ "name": "typescript", "version": "0.0.0" }\n');
  write('node_modules/typescript-7/bin/tsc', fakeTool('tsc'));
  write('node_modules/vitest/package.json', '{ "name": "vitest", "version": "0.0.0" }\n');
  write(
    'node_modules/vitest/vitest.mjs',
    `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${fakeTool('vitest')}`,
  );
  write(
    'bin/smskit.js',
    `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${fakeTool('generate')}`,
  );
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

interface Outcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the tools said they did, in order. */
  readonly log: string[];
}

function npmTest(env: Record<string, string>, args: readonly string[] = []): Outcome {
  const log = join(project, `log-${Math.random().toString(36).slice(2)}`);
  writeFileSync(log, '');
  const result = spawnSync(process.execPath, [join(project, 'scripts', 'test.mjs'), ...args], {
    cwd: project,
    env: { PATH: process.env.PATH, FAKE_LOG: log, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    log: readFileSync(log, 'utf8').trim().split('\n'),
  };
}

describe('npm test (scripts/test.mjs)', () => {
  it('runs the checks beside vitest, passes vitest the arguments, and prints a line a check after the tests', () => {
    const result = npmTest({ FAKE_TSC_AFTER: 'vitest started', FAKE_TSC_MS: '300', FAKE_VITEST_MS: '600' }, [
      'test/runtime',
    ]);
    expect(result.status).toBe(0);
    expect(result.log).toContain('vitest started run test/runtime');
    expect(result.log).toContain('tsc started -p tsconfig.json --noEmit');
    expect(result.log).toContain('biome started check .');
    // generate --check first (the tests may rebuild the bundle it runs), then vitest, with tsc still running.
    expect(result.log.indexOf('generate ended')).toBeLessThan(result.log.indexOf('vitest started run test/runtime'));
    expect(result.log.indexOf('vitest started run test/runtime')).toBeLessThan(result.log.indexOf('tsc ended'));
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('vitest ran');
    expect(lines.slice(1).map((line) => line.replace(/in \d+\.\d s$/, 'in N s'))).toEqual([
      'npm test: generate --check passed in N s',
      'npm test: lint (biome check .) passed in N s',
      'npm test: typecheck (tsc --noEmit) passed in N s',
    ]);
  });

  it('runs lint and typecheck at the lowest CPU priority, the tests and generate --check at the usual one', () => {
    const result = npmTest({});
    expect(result.status).toBe(0);
    expect(result.log.filter((line) => line.includes(' priority ')).sort()).toEqual([
      'biome priority 19',
      'generate priority 0',
      'tsc priority 19',
      'vitest priority 0',
    ]);
  });

  it("exits with the tests' status when every check passes", () => {
    expect(npmTest({ FAKE_VITEST_EXIT: '1' }).status).toBe(1);
  });

  it('stops the tests when a check fails, and prints its output', () => {
    const started = performance.now();
    const result = npmTest({ FAKE_TSC_AFTER: 'vitest started', FAKE_TSC_EXIT: '2', FAKE_VITEST_MS: '20000' });
    expect(result.status).toBe(1);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.log).toContain('vitest stopped');
    expect(result.log).not.toContain('vitest ended');
    expect(result.stderr).toMatch(
      /^tsc ran: error in src\/a\.ts\(1,1\)\nnpm test: typecheck \(tsc --noEmit\) FAILED \(exit 2\) in \d+\.\d s\nnpm test: the tests were stopped: fix the check above first\n$/,
    );
  });

  it('says so when a check fails after the tests ended', () => {
    const result = npmTest({ FAKE_BIOME_AFTER: 'vitest ended', FAKE_BIOME_EXIT: '1' });
    expect(result.status).toBe(1);
    expect(result.log).toContain('vitest ended');
    expect(result.stderr).toMatch(/npm test: the tests ended \(exit 0\), but the check above failed\n$/);
  });

  it('starts no test when generate --check fails', () => {
    const result = npmTest({ FAKE_GENERATE_EXIT: '1' });
    expect(result.status).toBe(1);
    expect(result.log.some((line) => line.startsWith('vitest'))).toBe(false);
    expect(result.stderr).toMatch(
      /^generate ran: error in src\/a\.ts\(1,1\)\nnpm test: generate --check FAILED \(exit 1\)/,
    );
  });
});
