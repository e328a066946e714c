/**
 * Python zeep with its WS-Security UsernameToken (`zeep.wsse.username.UsernameToken`, with and
 * without `use_digest`) calling the generated SMS skeleton served by smskit with `wsSecurity`, on
 * the SOAP 1.1 and SOAP 1.2 ports (test/peers/zeep_wsse_client.py): the right password reaches the
 * handler with the identity, a wrong one is a wsse:FailedAuthentication fault and no handler call.
 * Skipped with one line when no python3 can import zeep, except in CI, where zeep is required.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startWsseServer, USER, type WsseServer, WSSE_NS } from './wsse-fixture.js';
import { pythonWith, requirePeer } from '../helpers/peers.js';

const SCRIPT = fileURLToPath(new URL('../peers/zeep_wsse_client.py', import.meta.url));
const peer = requirePeer('zeep', 'security/wsse-zeep');
const PYTHON = pythonWith('zeep');

type Outcome = { ok?: string; fault?: string; code?: string; subcodes?: string[] };

describe.skipIf(peer.skip)('zeep UsernameToken -> smskit server with wsSecurity', () => {
  let server: WsseServer;
  let results: Record<string, Outcome>;
  beforeAll(async () => {
    if (PYTHON === undefined) throw new Error('CI is set but no python3 can import zeep: install python3-zeep');
    server = await startWsseServer({ allowPasswordText: true });
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        PYTHON,
        [SCRIPT, `${server.endpoint}?wsdl`, USER],
        { timeout: 60_000, env: { ...process.env, PYTHONIOENCODING: 'utf-8', ZEEP_WSSE_PASSWORD: PASSWORD } },
        (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
      ),
    );
    results = JSON.parse(stdout) as typeof results;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  const cases = ['ServiceAPISoap', 'ServiceAPISoap12'].flatMap((port) =>
    (['Digest', 'Text'] as const).map((kind) => [port, kind] as const),
  );

  it.each(cases)('%s, Password%s: the right password is accepted', (port, kind) => {
    expect(results[`${port}/${kind}/right`]).toEqual({ ok: `sent as ${USER}` });
  });

  it.each(cases)('%s, Password%s: a wrong one is refused with wsse:FailedAuthentication', (port, kind) => {
    const outcome = results[`${port}/${kind}/wrong`]!;
    expect(outcome.fault).toBe('The security token could not be authenticated or authorized.');
    if (port === 'ServiceAPISoap') expect(outcome.code).toBe('wsse:FailedAuthentication');
    else {
      expect(outcome.code).toBe('soap:Sender');
      expect(outcome.subcodes).toEqual([`{${WSSE_NS}}FailedAuthentication`]);
    }
  });

  it('the handler ran exactly for the accepted calls, with the identity of each', () => {
    expect(server.calls).toEqual(
      cases.map(([, kind]) => ({
        operation: 'SMSSend',
        identity: { username: USER, passwordType: kind === 'Digest' ? 'PasswordDigest' : 'PasswordText' },
      })),
    );
    expect(server.logged).toEqual([]);
  });
});
