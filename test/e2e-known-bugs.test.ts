/**
 * Known bugs found by the end-to-end suite, kept as assertions of the CORRECT behaviour (so these
 * tests fail until the bug is fixed; they are not `it.fails`, so a fix shows up as a pass and
 * the lead decides where each one moves). Each test names the contract it holds the code to.
 *
 * 1. An ABSENT parameter over HTTP GET / HTTP POST is not a `MissingParameter` refusal.
 *    service/README.md ("Fields", "Validation order and refusals"): "Missing" means the parameter
 *    is absent (or xsi:nil) and is refused as `MissingParameter`, identically on all four
 *    bindings, with `X-Smskit-Error-Code: MissingParameter` on GET/POST and the text
 *    `MissingParameter: <message>`. Actually runtime/http-binding.ts `decodeParams` (line ~80)
 *    answers on its own before the service runs: HTTP 500 text/plain `Missing parameter: smsto.`
 *    with `X-Smskit-Fault-Code: Client` but no `X-Smskit-Error-Code`, so the generated client
 *    sees `detail.code === undefined` and `smskit send` would print `smskit: fault Client:
 *    Missing parameter: smsto.` (runtime/README.md documents this ASMX behaviour for the generic
 *    runtime; the service contract promises otherwise). Over SOAP the same absent element gives
 *    `MissingParameter` (see e2e-service.test.ts). No account is needed: missing parameters are
 *    judged before authentication.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../generated/service-api/client.js';
import { SoapFaultError, type Protocol } from '../runtime/index.js';
import { startServe, tempDir, type ServeProcess } from './helpers/serve-process.js';

const FULL = { keyword: 'ACME', emailAddress: 'a@example.com', password: 'not checked here', smsto: '+14155550123', carrierCode: 'att', smsmsg: 'hi' } as const;
const FIELDS = ['keyword', 'emailAddress', 'password', 'smsto', 'carrierCode', 'smsmsg'] as const;

const dir = tempDir('e2e-known-bugs');
let server: ServeProcess;
beforeAll(async () => {
  server = await startServe({ db: join(dir.path, 'bugs.sqlite') });
}, 30_000);
afterAll(async () => {
  try {
    await server?.kill();
  } finally {
    dir.remove();
  }
});

describe('known bug 1: an absent GET/POST parameter is not a MissingParameter refusal (runtime/http-binding.ts decodeParams)', () => {
  it.each(['http-get', 'http-post'] as const)('%s: every absent SMSSend parameter is MissingParameter, like on SOAP', async (binding: Protocol) => {
    const client = new ServiceAPIClient({ url: server.url, binding, timeoutMs: 10_000 });
    try {
      const got: string[] = [];
      for (const field of FIELDS) {
        const error = await client.SMSSend({ ...FULL, [field]: undefined }).then(
          () => undefined,
          (e: unknown) => e,
        );
        const fault = error instanceof SoapFaultError ? error : undefined;
        got.push(`${field}: ${fault === undefined ? String(error) : `${fault.code} ${fault.detail.code ?? '(no code)'} "${fault.message}"`}`);
      }
      expect(got).toEqual(FIELDS.map((field) => expect.stringMatching(new RegExp(`^${field}: Client MissingParameter "MissingParameter: `))));
    } finally {
      await client.close();
    }
  });

  it.each(['GET', 'POST'] as const)('raw %s without smsto: 500 text/plain "MissingParameter: ..." with X-Smskit-Error-Code', async (method) => {
    const { smsto: _absent, ...rest } = FULL;
    const params = new URLSearchParams(rest).toString();
    const response =
      method === 'GET'
        ? await fetch(`${server.url}/SMSSend?${params}`)
        : await fetch(`${server.url}/SMSSend`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params });
    const body = await response.text();
    expect({ status: response.status, errorCode: response.headers.get('x-smskit-error-code'), body: body.trim() }).toEqual({
      status: 500,
      errorCode: 'MissingParameter',
      body: expect.stringMatching(/^MissingParameter: /),
    });
  });

  it('SMSSendToPort over GET without port is MissingParameter (never a silent SMSSend)', async () => {
    const client = new ServiceAPIClient({ url: server.url, binding: 'http-get', timeoutMs: 10_000 });
    try {
      const error = await client.SMSSendToPort({ ...FULL }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SoapFaultError);
      expect((error as SoapFaultError).detail.code).toBe('MissingParameter');
    } finally {
      await client.close();
    }
  });
});
