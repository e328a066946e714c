/**
 * `smskit fuzz` as users run it (the shipped bundle, real processes): the refusal without
 * --allow-writes or --operations, a planted defect found (exit 1) with all four reporters, the
 * finding replayed alone by the --seed and --path its report printed, the baseline gate, a
 * correct server passing (exit 0), an unreachable target (exit 2) and Ctrl-C (exit 130, the
 * reports of what ran written).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FuzzReport } from '../../fuzz/index.js';
import { repoRoot } from '../helpers/cli.js';
import { runCliAsync } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { type PlantedServer, startPlantedRich } from './planted-rich.js';

const WSDL = 'test/fixtures/asmx/rich.wsdl';
const work = mkdtempSync(join(tmpdir(), 'smskit-fuzz-cli-'));
let planted: PlantedServer;
let correct: PlantedServer;

beforeAll(async () => {
  planted = await startPlantedRich('max-inclusive');
  correct = await startPlantedRich(undefined);
});
afterAll(async () => {
  await Promise.all([planted.close(), correct.close()]);
  rmSync(work, { recursive: true, force: true });
});

const file = (name: string): string => join(work, name);
const fuzz = (args: readonly string[]) =>
  runCliAsync(['fuzz', '--wsdl', WSDL, '--rate', '0', ...args], { timeoutMs: 120_000 });
const readReport = (name: string): FuzzReport => JSON.parse(readFileSync(file(name), 'utf8')) as FuzzReport;

describe('smskit fuzz', () => {
  it('refuses to send anything without --allow-writes or --operations (exit 2)', async () => {
    const result = await fuzz(['--target', correct.url]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('give --allow-writes, or --operations');
  });

  it('finds a planted overflow: exit 1, every reporter, the input and a curl command', async () => {
    const args = ['--target', planted.url, '--operations', 'EchoNullableInt', '--runs', '400', '--seed', '7'];
    const result = await fuzz([
      ...args,
      ...['--reporter', 'pretty', '--reporter', 'json', '--out', file('r.json')],
      ...['--reporter', 'junit', '--out', file('r.xml'), '--reporter', 'html', '--out', file('r.html')],
    ]);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/EchoNullableInt\/soap1[12]\/valid: found after \d+ case/);
    expect(result.stdout).toContain('input: {"value":2147483647}');
    expect(result.stdout).toMatch(/\$ curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/rich\.asmx'/);
    expect(result.stdout).toMatch(/^FAIL: .*finding\(s\); seed 7;/m);
    const report = readReport('r.json');
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => JSON.stringify(f.value) === '{"value":2147483647}')).toBe(true);
    expect(readFileSync(file('r.xml'), 'utf8')).toMatch(
      /<failure message="EchoNullableInt\/soap1[12]\/valid fault\.code"/,
    );
    expect(readFileSync(file('r.html'), 'utf8')).toContain('smskit fuzz — FAIL');

    const finding = report.findings[0]!;
    const replayed = await fuzz([
      ...['--target', planted.url, '--operations', 'EchoNullableInt'],
      ...['--seed', String(finding.seed), '--path', finding.path, '--reporter', 'json', '--out', file('again.json')],
    ]);
    expect(replayed.status, replayed.stderr).toBe(1);
    const again = readReport('again.json');
    expect(again.findings.map((f) => [f.key, f.value])).toEqual([[finding.key, finding.value]]);
    expect(again.summary.cases).toBe(1);
  }, 180_000);

  it('a baseline listing the findings passes (exit 0), and says which are known', async () => {
    const args = ['--target', planted.url, '--operations', 'EchoNullableInt', '--runs', '400', '--seed', '7'];
    const written = await fuzz([...args, '--write-baseline', file('baseline.json')]);
    expect(written.status, written.stderr).toBe(0);
    expect(written.stderr).toMatch(/finding\(s\) written to/);
    const gated = await fuzz([...args, '--baseline', file('baseline.json')]);
    expect(gated.status, gated.stderr).toBe(0);
    expect(gated.stdout).toContain('[known: baseline]');
  }, 180_000);

  it('a correct server passes (exit 0)', async () => {
    const result = await fuzz([
      '--target',
      correct.url,
      '--operations',
      'EchoNullableInt,MakeShape',
      '--runs',
      '400',
      '--seed',
      '7',
    ]);
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^PASS: \d+ properties, \d+ cases .* 0 finding\(s\); seed 7;/m);
  }, 120_000);

  it('a target that never answers is not judged (exit 2)', async () => {
    const result = await fuzz(['--target', 'http://127.0.0.1:9/rich.asmx', '--allow-writes', '--runs', '10']);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('NOT JUDGED (the target never answered)');
  }, 60_000);

  it('Ctrl-C stops the run: exit 130, and the reports of what ran are written', async () => {
    const before = correct.requests();
    const args = ['--target', correct.url, '--allow-writes', '--budget', '60s', '--rate', '20'];
    const child = spawn(
      process.execPath,
      [
        join(repoRoot, 'bin', 'smskit.js'),
        'fuzz',
        '--wsdl',
        WSDL,
        ...args,
        '--reporter',
        'json',
        '--out',
        file('stopped.json'),
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    // Interrupt once the run is under way: the server has seen its requests.
    await waitFor('serving the fuzz run', () => correct.requests() > before + 5);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(existsSync(file('stopped.json'))).toBe(true);
    const report = readReport('stopped.json');
    expect(report.summary.interrupted).toBe(true);
    expect(report.summary.cases).toBeGreaterThan(0);
  }, 60_000);
});
