/**
 * The bench's own machinery, which `npm test` never runs otherwise: a child bundled from the
 * sources (lib/bundle.ts) starts and answers, with the generated code's `smskit/runtime` taken
 * from the sources and the WSDL found beside its own source; the in-process driver
 * (bench/in-process.ts) gets a 200 for every binding; the round order (lib/stats.ts
 * roundOrder) balances who runs first and who runs after whom; and a bad round length is refused
 * before anything runs.
 */
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleFolder, bundleModule } from '../../bench/lib/bundle.js';
import { FIXED_INPUT, sendRequest } from '../../bench/lib/payloads.js';
import { nextMessage } from '../../bench/lib/procs.js';
import { exchange } from '../../bench/lib/servers.js';
import { type Row, targetsVerdict } from '../../bench/lib/report.js';
import { roundOrder } from '../../bench/lib/stats.js';
import { repoRoot } from '../helpers/cli.js';

describe('bench children as bundles', () => {
  const folder = bundleFolder(repoRoot, 'bench-test');
  afterAll(() => folder.remove());

  it.each(['generated', 'node-soap'])(
    'the %s server child, bundled, answers SMSSend over SOAP 1.1',
    async (kind) => {
      const bundle = await bundleModule(`${repoRoot}/bench/children/server.ts`, { root: repoRoot, outDir: folder.dir });
      // Plain node, no loader and no export conditions: what the bench runs.
      const child = fork(bundle, [kind], { execArgv: [], env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'pipe' });
      try {
        const { url } = await nextMessage<{ url: string }>(child, 30_000, `the ${kind} server child`);
        const answer = await exchange(url, sendRequest('soap11', FIXED_INPUT));
        expect(answer.status).toBe(200);
        expect(answer.body).toContain('<SMSSendResult>ok-1</SMSSendResult>');
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it('the in-process driver, bundled, gets an answer for every binding and reports its CPU per request', async () => {
    const bundle = await bundleModule(`${repoRoot}/bench/children/in-process.ts`, {
      root: repoRoot,
      outDir: folder.dir,
    });
    for (const binding of ['soap11', 'soap12', 'http-get', 'http-post']) {
      // The driver exits 1 on any answer but a 200, so a broken binding fails here.
      const out = execFileSync(process.execPath, [bundle, binding, '2000'], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      const report = JSON.parse(out) as { binding: string; requests: number; cpuUs: number };
      expect(report).toMatchObject({ binding, requests: 2000 });
      expect(report.cpuUs).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('roundOrder', () => {
  const sides = ['a', 'b', 'c'] as const;
  const rounds = Array.from({ length: 6 }, (_, r) => roundOrder(sides, r));

  it('runs every order of three sides once in six rounds', () => {
    expect(new Set(rounds.map((order) => order.join(''))).size).toBe(6);
    for (const order of rounds) expect([...order].sort()).toEqual([...sides]);
  });

  it('puts each side first, and right after each other side, equally often', () => {
    const first = new Map<string, number>();
    const after = new Map<string, number>();
    for (const order of rounds) {
      first.set(order[0]!, (first.get(order[0]!) ?? 0) + 1);
      for (let i = 1; i < order.length; i++) {
        const pair = `${order[i - 1]}${order[i]}`;
        after.set(pair, (after.get(pair) ?? 0) + 1);
      }
    }
    expect([...first.values()]).toEqual([2, 2, 2]);
    expect(after.size).toBe(6);
    expect(new Set(after.values())).toEqual(new Set([2]));
  });
});

describe('targetsVerdict', () => {
  const row = (pass: boolean | undefined): Row => ({
    section: 'backlog',
    name: 'x',
    figure: 1,
    unit: 'msg/s',
    ...(pass === undefined ? {} : { pass }),
  });

  it('says all targets met only when every section ran and none missed', () => {
    expect(targetsVerdict([row(true), row(undefined)], 0)).toBe('All targets met.');
    expect(targetsVerdict([row(true), row(false)], 0)).toBe('1 target(s) missed.');
  });

  it('names failed sections instead of claiming the targets met', () => {
    expect(targetsVerdict([], 5)).toBe(
      '5 section(s) FAILED (their targets were not judged); all 0 judged target(s) met.',
    );
    expect(targetsVerdict([row(true), row(false)], 1)).toBe(
      '1 section(s) FAILED (their targets were not judged); 1 of 2 judged target(s) missed.',
    );
  });
});

describe('npm run bench -- --seconds, --rounds', () => {
  const refused = (flag: string, value: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', flag, value], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 30_000,
    });

  it('refuses a round length that is not a whole number of seconds, with the usage and exit 2', () => {
    const run = refused('--seconds', '2.5');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('bench: --seconds needs a whole number, at least 1');
    expect(run.stderr).toContain('[--seconds N] [--rounds N]');
  });

  it('refuses a number of rounds below 1, with the usage and exit 2', () => {
    const run = refused('--rounds', '0');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('bench: --rounds needs a whole number, at least 1');
  });
});
