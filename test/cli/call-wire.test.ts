/**
 * `smskit call --show-wire` (`-v`): the request and the response as sent and received, on
 * stderr, with every secret as `***` (HTTP auth, SOAP header tokens, password-like values); the
 * result stays alone on stdout. Real processes against the rich peer served by smskit.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { type SmskitPeer, startSmskitPeer } from '../helpers/smskit-peers.js';

const bin = fileURLToPath(new URL('../../bin/smskit.js', import.meta.url));
const RICH = 'test/fixtures/asmx/rich.wsdl';
const HTTP_PASSWORD = 'http-pass-5120';
const TOKEN = 'header-token-7781';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function smskit(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: repoRoot, timeout: 60_000, env: { ...process.env, SMSKIT_HTTP_PASSWORD: HTTP_PASSWORD } },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    ).stdin?.end();
  });
}

let peer: SmskitPeer;
beforeAll(async () => {
  peer = await startSmskitPeer('rich');
});
afterAll(async () => {
  await peer.close();
});

describe('smskit call --show-wire', () => {
  it('SOAP 1.2: the request head and envelope, then the response, secrets as ***', async () => {
    const run = await smskit([
      'call',
      RICH,
      'WhoAmI',
      '--url',
      peer.url,
      '--binding',
      'soap12',
      '--user',
      'api',
      '--soap-headers',
      JSON.stringify({ AuthHeader: { User: 'alice', Token: TOKEN } }),
      '--show-wire',
    ]);
    expect(run.stderr).not.toContain(HTTP_PASSWORD);
    expect(run.stderr).not.toContain(TOKEN);
    expect(run.stderr).not.toContain(Buffer.from(`api:${HTTP_PASSWORD}`).toString('base64'));
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ WhoAmIResult: 'alice' });
    const [before, response] = run.stderr.split('--- response\n');
    expect(before).toMatch(/^--- request\nPOST \/rich\.asmx HTTP\/1\.1\n/);
    expect(before).toMatch(/^authorization: \*\*\*$/m);
    expect(before).toMatch(/^content-type: application\/soap\+xml; charset=utf-8; action="[^"]*WhoAmI"$/m);
    expect(before).toContain('<User>alice</User><Token>***</Token>');
    expect(response).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(response).toMatch(/^Content-Type: application\/soap\+xml; charset=utf-8$/m);
    expect(response).toContain('<WhoAmIResult>alice</WhoAmIResult>');
    expect(response).toMatch(/\n---\n$/);
  });

  it('-v over HTTP GET shows the query string as sent', async () => {
    const run = await smskit([
      'call',
      RICH,
      'Add',
      '--url',
      peer.url,
      '--binding',
      'http-get',
      '--input',
      '{"a": 6, "b": 3}',
      '-v',
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ AddResult: 9 });
    expect(run.stderr).toMatch(/^--- request\nGET \/rich\.asmx\/Add\?a=6&b=3 HTTP\/1\.1\n/);
    expect(run.stderr).toMatch(/--- response\nHTTP\/1\.1 200 OK\n[\s\S]*<int xmlns="[^"]*">9<\/int>\n---\n$/);
  });

  it('prints nothing of the wire without the flag', async () => {
    const run = await smskit(['call', RICH, 'Add', '--url', peer.url, '--input', '{"a": 1, "b": 2}']);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
  });
});
