/**
 * An ABSENT parameter over HTTP GET / HTTP POST (the decision recorded in docs/runtime.md, "Missing
 * parameters"): the runtime answers as ASMX does, before the service runs, with HTTP 500
 * text/plain `Missing parameter: <name>.`, and adds the stable code in
 * `X-Smskit-Error-Code: MissingParameter` so that every binding carries the same code
 * (SOAP: `<detail><code>MissingParameter</code>`). No account is needed: missing parameters
 * are judged before authentication.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { SoapFaultError, type Protocol } from '../../runtime/index.js';
import { contractParams } from '../../tools/contract.js';
import { startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';

const FULL = {
  keyword: 'ACME',
  emailAddress: 'a@example.com',
  password: 'not checked here',
  smsto: '+14155550123',
  carrierCode: 'att',
  smsmsg: 'hi',
} as const;
const FIELDS = contractParams('SMSSend');

const dir = tempDir('e2e-missing-parameter');
let server: ServeProcess;
beforeAll(async () => {
  server = await startServe({ db: join(dir.path, 'bugs.sqlite') });
}, 120_000);
afterAll(async () => {
  try {
    await server?.kill();
  } finally {
    dir.remove();
  }
});

describe('an absent GET/POST parameter is refused with ASMX wording and the MissingParameter code', () => {
  it.each(['http-get', 'http-post'] as const)(
    '%s: every absent SMSSend parameter is MissingParameter, like on SOAP',
    async (binding: Protocol) => {
      const client = new ServiceAPIClient({ url: server.url, binding, timeoutMs: 10_000 });
      try {
        const got: string[] = [];
        for (const field of FIELDS) {
          const error = await client.SMSSend({ ...FULL, [field]: undefined }).then(
            () => undefined,
            (e: unknown) => e,
          );
          const fault = error instanceof SoapFaultError ? error : undefined;
          got.push(
            `${field}: ${fault === undefined ? String(error) : `${fault.code} ${fault.detail.code ?? '(no code)'} "${fault.message}"`}`,
          );
        }
        expect(got).toEqual(FIELDS.map((field) => `${field}: Client MissingParameter "Missing parameter: ${field}."`));
      } finally {
        await client.close();
      }
    },
  );

  it.each(['GET', 'POST'] as const)(
    'raw %s without smsto: 500 text/plain "Missing parameter: smsto." with X-Smskit-Error-Code',
    async (method) => {
      const { smsto: _absent, ...rest } = FULL;
      const params = new URLSearchParams(rest).toString();
      const response =
        method === 'GET'
          ? await fetch(`${server.url}/SMSSend?${params}`)
          : await fetch(`${server.url}/SMSSend`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: params,
            });
      const body = await response.text();
      expect({
        status: response.status,
        type: response.headers.get('content-type'),
        errorCode: response.headers.get('x-smskit-error-code'),
        body,
      }).toEqual({
        status: 500,
        type: 'text/plain; charset=utf-8',
        errorCode: 'MissingParameter',
        body: 'Missing parameter: smsto.',
      });
    },
  );

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

  it.each([
    ['SOAP 1.1', 'text/xml; charset=utf-8', 'http://schemas.xmlsoap.org/soap/envelope/'],
    ['SOAP 1.2', 'application/soap+xml; charset=utf-8', 'http://www.w3.org/2003/05/soap-envelope'],
  ])(
    '%s: a parameter sent as xsi:nil is a Client fault naming it (the parameters are not nillable)',
    async (_n, type, envNs) => {
      const fields = Object.entries(FULL)
        .map(([name, value]) => (name === 'smsto' ? '<smsto xsi:nil="true"/>' : `<${name}>${value}</${name}>`))
        .join('');
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': type,
          ...(type.startsWith('text/xml') ? { soapaction: '"http://smskit.dev/serviceapi/SMSSend"' } : {}),
        },
        body:
          `<soap:Envelope xmlns:soap="${envNs}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
          `<soap:Body><SMSSend xmlns="http://smskit.dev/serviceapi/">${fields}</SMSSend></soap:Body></soap:Envelope>`,
      });
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('SMSSend/smsto: xsi:nil on an element that is not nillable');
    },
  );
});
