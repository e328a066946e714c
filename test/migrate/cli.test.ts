/**
 * `smskit record` and `smskit replay` as users run them (real processes): recording until
 * --max-exchanges, the replay's refusal without --allow-writes or --operations, its exit codes
 * (0 no difference, 1 differences, 2 not judged), the four reporters and the baseline gate.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../runtime/index.js';
import { createRichServiceListener } from '../golden/generated/asmx-rich/rich-service/index.js';
import { type CliResult, repoRoot } from '../helpers/cli.js';
import { asmxWsdl, type SmskitPeer, startSmskitPeer } from '../helpers/smskit-peers.js';
import { richHandlers } from '../peers/rich-handlers.js';

const work = mkdtempSync(join(tmpdir(), 'smskit-replay-cli-'));
const dir = join(work, 'rec');
let peer: SmskitPeer;
let broken: { origin: string; close(): Promise<void> };

/** Runs `smskit record` until it stops by itself; resolves with its exit code and output. */
function recordUntilDone(
  args: string[],
  drive: (url: string) => Promise<void>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'smskit.js'), 'record', ...args], { cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    let driving = false;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const line = /^(http:\/\/\S+)\n/.exec(stdout);
      if (line !== null && !driving) {
        driving = true;
        drive(line[1]!).catch((error: unknown) => {
          child.kill();
          reject(error);
        });
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

/** `smskit <args>` as a process, without blocking this one (the servers it talks to live here). */
function runCli(args: readonly string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'smskit.js'), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  peer = await startSmskitPeer('rich');
  const listener = createRichServiceListener(
    { ...richHandlers, Add: ({ a, b }) => ({ AddResult: a - b }) },
    { wsdl: asmxWsdl('rich'), logger: { error: () => undefined } },
  );
  const listening = await listen(listener, { host: '127.0.0.1', port: 0 });
  broken = { origin: listening.url, close: () => listening.close() };
}, 60_000);
afterAll(async () => {
  await peer.close();
  await broken.close();
  rmSync(work, { recursive: true, force: true });
});

describe('smskit record and replay', () => {
  it('records until --max-exchanges', async () => {
    const { code, stderr } = await recordUntilDone(
      ['--upstream', peer.url, '--listen', '0', '--out', dir, '--max-exchanges', '4'],
      async (url) => {
        for (const [a, b] of [
          [1, 2],
          [3, 4],
          [5, 6],
        ])
          await (await request(`${url}/rich.asmx/Add?a=${a}&b=${b}`)).body.text();
        await (await request(`${url}/rich.asmx/NullString`)).body.text();
      },
    );
    expect(stderr).toContain('4 exchange(s) recorded');
    expect(code).toBe(0);
  }, 60_000);

  it('refuses to replay without --allow-writes or --operations, in one line', async () => {
    const result = await runCli(['replay', dir, '--target', peer.origin]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/give --allow-writes, or --operations/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 0 against the same service, 1 against a broken one, with every reporter', async () => {
    const same = await runCli(['replay', dir, '--target', peer.origin, '--allow-writes']);
    expect(same.stdout).toMatch(/PASS: 4 exchanges, 4 replayed, 4 matched/);
    expect(same.status).toBe(0);
    const files = ['r.json', 'r.xml', 'r.html'].map((f) => join(work, f));
    const bad = await runCli([
      'replay',
      dir,
      '--target',
      broken.origin,
      '--operations',
      'Add,NullString',
      '--reporter',
      'pretty',
      '--reporter',
      'json',
      '--reporter',
      'junit',
      '--reporter',
      'html',
      '--out',
      files[0]!,
      '--out',
      files[1]!,
      '--out',
      files[2]!,
    ]);
    expect(bad.stdout).toContain('Add http-get  changed /int  (3 exchanges)');
    expect(bad.stdout).toMatch(/\$ curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/rich\.asmx\/Add\?a=1&b=2'/);
    expect(bad.status).toBe(1);
    const json = JSON.parse(readFileSync(files[0]!, 'utf8'));
    expect(json.groups.map((g: { key: string }) => g.key)).toEqual(['Add http-get changed /int']);
    expect(readFileSync(files[1]!, 'utf8')).toMatch(
      /<failure message="changed \/int: \{http:\/\/smskit\.dev\/rich\/\}int = &quot;3&quot; -&gt;/,
    );
    expect(readFileSync(files[2]!, 'utf8')).toContain('<h2>Add — http-get</h2>');
  });

  it('gates on new differences only with --baseline', async () => {
    const baseline = join(work, 'accepted.json');
    const written = await runCli([
      'replay',
      dir,
      '--target',
      broken.origin,
      '--allow-writes',
      '--write-baseline',
      baseline,
    ]);
    expect(written.status).toBe(0);
    expect(existsSync(baseline)).toBe(true);
    // Accepting differences is what the run was for: no FAIL verdict beside exit 0.
    expect(written.stderr + written.stdout).toContain(`baseline written: 1 difference group accepted (${baseline})`);
    expect(written.stderr + written.stdout).not.toContain('FAIL');
    const known = await runCli(['replay', dir, '--target', broken.origin, '--allow-writes', '--baseline', baseline]);
    expect(known.stdout).toContain('[known: baseline]');
    expect(known.status).toBe(0);
    const fixed = await runCli(['replay', dir, '--target', peer.origin, '--allow-writes', '--baseline', baseline]);
    expect(fixed.stdout).toMatch(/Fixed since the baseline:\n {2}Add http-get changed \/int/);
    expect(fixed.status).toBe(0);
    // A baseline written before bindings were named as the flags (`get`) still lists the group.
    const older = join(work, 'older.json');
    writeFileSync(older, JSON.stringify({ format: 'smskit-replay-baseline/1', differences: ['Add get changed /int'] }));
    const old = await runCli(['replay', dir, '--target', broken.origin, '--allow-writes', '--baseline', older]);
    expect(old.stdout).toContain('Add http-get  changed /int  (3 exchanges) [known: baseline]');
    expect(old.status).toBe(0);
  });

  it('exits 130 on Ctrl-C, after the report of what ran', async () => {
    let seen = 0;
    let onFirst: () => void = () => undefined;
    const first = new Promise<void>((resolve) => {
      onFirst = resolve;
    });
    // A target that answers each request a while later: Ctrl-C lands while one is in flight.
    const slow = createServer((req, res) => {
      req.resume();
      if (++seen === 1) onFirst();
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'), 300);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const child = spawn(
        process.execPath,
        [join(repoRoot, 'bin', 'smskit.js'), 'replay', dir, '--target', url, '--allow-writes', '--concurrency', '1'],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await first;
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(stdout).toContain('INTERRUPTED');
      expect(seen).toBeLessThan(4);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  }, 60_000);

  it('exits 2 when nothing can be judged: no such recording, a target that never answers', async () => {
    const missing = await runCli(['replay', join(work, 'nope'), '--target', peer.origin, '--allow-writes']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/recording\.json: not found/);
    const unreachable = await runCli([
      'replay',
      dir,
      '--target',
      'http://127.0.0.1:9',
      '--allow-writes',
      '--timeout',
      '2000',
    ]);
    expect(unreachable.stdout).toContain('NOT JUDGED (the target never answered)');
    expect(unreachable.status).toBe(2);
  });
});
