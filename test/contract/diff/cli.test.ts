/**
 * `smskit diff` and `smskit generate --check` as users and CI run them: exit codes (0 nothing at
 * or above --fail-on, 1 something, 2 unreadable input or bad usage), the one-line errors, the
 * report files, and WSDLs read from URLs through the bounded fetch.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../helpers/cli.js';

const FIX = 'test/fixtures/diff';
const bin = join(repoRoot, 'bin/smskit.js');

/** spawnSync would block the WSDL server below, so the CLI runs asynchronously. */
function smskit(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let server: Server;
let origin = '';
let tmp = '';

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'smskit-diff-cli-'));
  const wsdl = readFileSync(`${FIX}/member-added/new.wsdl`);
  server = createServer((req, res) => {
    if (req.url === '/shop.asmx?wsdl') res.writeHead(200, { 'content-type': 'text/xml' }).end(wsdl);
    else if (req.url === '/slow.asmx?wsdl') setTimeout(() => res.end(wsdl), 5_000);
    else res.writeHead(404).end('Not found.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(tmp, { recursive: true, force: true });
});

describe('smskit diff', () => {
  it('exits 0 on a compatible change and 1 on a breaking one, writing Markdown and JUnit', async () => {
    const compatible = await smskit(['diff', `${FIX}/members-reordered/old.wsdl`, `${FIX}/members-reordered/new.wsdl`]);
    expect(compatible.status).toBe(0);
    expect(compatible.stdout).toContain('Compatible (1)');
    const junit = join(tmp, 'diff.xml');
    const breaking = await smskit([
      'diff',
      `${FIX}/member-added/old.wsdl`,
      `${FIX}/member-added/new.wsdl`,
      '--markdown',
      '--junit',
      junit,
    ]);
    expect(breaking.status).toBe(1);
    expect(breaking.stdout).toMatch(/^### smskit diff: /);
    expect(readFileSync(junit, 'utf8')).toContain('failures="1"');
  });

  it('gates on --fail-on: a change that breaks only servers passes --fail-on client', async () => {
    const result = await smskit([
      'diff',
      `${FIX}/type-changed/old.wsdl`,
      `${FIX}/type-changed/new.wsdl`,
      '--fail-on',
      'client',
      '--json',
    ]);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ failOn: 'client', fails: false, summary: { breaksServers: 1 } });
  });

  it("reads a URL (a server's ?wsdl) and names it in every location", async () => {
    const result = await smskit(['diff', `${FIX}/member-added/old.wsdl`, `${origin}/shop.asmx?wsdl`]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`-> ${origin}/shop.asmx?wsdl:6`);
  });

  it.each([
    [
      'an unreadable file',
      ['diff', 'nope.wsdl', `${FIX}/member-added/new.wsdl`],
      'smskit: nope.wsdl: cannot read the WSDL file (ENOENT)\n',
    ],
    [
      'a malformed WSDL',
      ['diff', 'test/fixtures/wsdl-bad/doctype.wsdl', `${FIX}/member-added/new.wsdl`],
      'smskit: test/fixtures/wsdl-bad/doctype.wsdl:2: A DOCTYPE declaration is not allowed (no DTDs, no entity declarations) (column 1)\n',
    ],
    [
      'a URL that answers 404',
      ['diff', `${FIX}/member-added/old.wsdl`, 'URL/missing?wsdl'],
      'smskit: URL/missing?wsdl: cannot fetch the WSDL: HTTP 404\n',
    ],
    [
      'a URL over the time limit',
      ['diff', 'URL/slow.asmx?wsdl', `${FIX}/member-added/old.wsdl`, '--timeout', '300'],
      /^smskit: URL\/slow\.asmx\?wsdl: cannot fetch the WSDL: No complete response within 300 ms\n$/,
    ],
    [
      'conflicting formats',
      ['diff', 'a.wsdl', 'b.wsdl', '--json', '--markdown'],
      'smskit: --json and --markdown cannot be combined: choose one format for stdout (see smskit diff --help)\n',
    ],
  ])('exits 2 with one line on %s', async (_what, args, message) => {
    const result = await smskit(args.map((a) => a.replace('URL', origin)));
    expect(result.status).toBe(2);
    if (typeof message === 'string') expect(result.stderr).toBe(message.replace('URL', origin));
    else expect(result.stderr.replace(origin, 'URL')).toMatch(message);
    expect(result.stdout).toBe('');
  });
});

describe('smskit generate --check', () => {
  it('says in one line what the WSDL change means on the wire, before the text diff', async () => {
    const out = join(tmp, 'generated');
    expect((await smskit(['generate', '--wsdl', `${FIX}/multi--shop-v2/old.wsdl`, '--out', out])).status).toBe(0);
    const check = await smskit(['generate', '--wsdl', `${FIX}/multi--shop-v2/new.wsdl`, '--out', out, '--check']);
    expect(check.status).toBe(1);
    const [first, second] = check.stdout.split('\n');
    expect(first).toBe(
      `smskit: wire change from ${out} to ${FIX}/multi--shop-v2/new.wsdl: BREAKING: 3 changes break existing clients on soap11, soap12, http-get, http-post and existing servers on soap11, soap12; first: Order › Currency: member added (required, xs:string)`,
    );
    expect(second).toMatch(/^Index: |^===|^--- /);
  });
});
