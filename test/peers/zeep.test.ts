/**
 * Interop with Python zeep: it reads our ?wsdl and calls both operations over all four ports.
 * Skipped (with a message) only when no python3 can import zeep AND CI is not set; in CI it runs.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../fixtures/runtime/harness.js';
import { pythonWith, requirePeer } from '../helpers/peers.js';

const SCRIPT = fileURLToPath(new URL('./zeep_client.py', import.meta.url));
const peer = requirePeer('zeep', 'peers/zeep');
const PYTHON = pythonWith('zeep');

const FIELDS = {
  keyword: 'k',
  emailAddress: 'user@example.com',
  password: 'p',
  smsto: '+15551234567',
  carrierCode: 'ATT',
  smsmsg: 'Grüße 你好 📱 <&>"\'',
};

describe.skipIf(peer.skip)('zeep client -> our server', () => {
  let server: TestServer;
  let results: Record<string, { ok?: string; error?: string; code?: string }>;
  beforeAll(async () => {
    server = await startServer();
    if (PYTHON === undefined) throw new Error('CI is set but no python3 can import zeep: install python3-zeep');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        PYTHON,
        [SCRIPT, `${server.endpoint}?wsdl`],
        { timeout: 60_000, env: { ...process.env, PYTHONIOENCODING: 'utf-8' } },
        (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
      ),
    );
    results = JSON.parse(stdout) as typeof results;
  }, 90_000);
  afterAll(async () => {
    await server?.close();
  });

  const ports = ['ServiceAPISoap', 'ServiceAPISoap12', 'ServiceAPIHttpGet', 'ServiceAPIHttpPost'];
  it.each(ports)('%s: SMSSend and SMSSendToPort', (port) => {
    const send = results[`${port}/SMSSend`]!;
    expect(send.error).toBeUndefined();
    expect(JSON.parse(send.ok!)).toEqual(FIELDS);
    const toPort = results[`${port}/SMSSendToPort`]!;
    expect(toPort.error).toBeUndefined();
    expect(JSON.parse(toPort.ok!)).toEqual({ ...FIELDS, port: '8080' });
  });

  it('used the binding it was asked for (content types seen by the server)', () => {
    expect(server.seen.some((s) => s.startsWith('POST text/xml'))).toBe(true);
    expect(server.seen.some((s) => s.startsWith('POST application/soap+xml'))).toBe(true);
    expect(server.seen.some((s) => s.startsWith('POST application/x-www-form-urlencoded'))).toBe(true);
    expect(server.seen.filter((s) => s.startsWith('GET')).length).toBeGreaterThanOrEqual(3); // ?wsdl + 2 calls
  });

  it('a ServiceError reaches zeep as a Fault with our message', () => {
    expect(results.fault).toEqual({ error: 'Invalid credentials.', code: expect.stringContaining('Client') });
  });
});
