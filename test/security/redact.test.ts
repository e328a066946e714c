/**
 * What a client raises never carries its secrets: a server that quotes the credentials it was
 * sent back in a fault's text or detail has them replaced, and a very short secret does not turn
 * every matching letter of a message into a marker.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { SoapFaultError } from '../../runtime/index.js';
import { REDACTED, redact, redactFault } from '../../runtime/network/redact.js';

const PASSWORD = 'echoed-secret-42';

/** Answers every SOAP 1.1 request with a Client fault quoting the request's Authorization header. */
function echoingServer(): http.Server {
  return http.createServer((req, res) => {
    const quoted = String(req.headers.authorization ?? '');
    const decoded = Buffer.from(quoted.replace(/^Basic /, ''), 'base64').toString('utf8');
    res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' });
    res.end(
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
        `<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>bad credentials ${decoded}</faultstring>` +
        `<detail><given>${decoded}</given></detail></soap:Fault></soap:Body></soap:Envelope>`,
    );
  });
}

describe('secrets in what a client raises', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = echoingServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/serviceapi.asmx`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a fault quoting the Basic password back has it replaced in text and detail', async () => {
    const client = new ServiceAPIClient({
      url,
      binding: 'soap11',
      auth: { type: 'basic', username: 'ops', password: PASSWORD },
    });
    try {
      const error = await client.SMSSend({ keyword: 'K' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SoapFaultError);
      const fault = error as SoapFaultError;
      expect(fault.code).toBe('Client');
      expect(fault.message).toBe(`bad credentials ops:${REDACTED}`);
      expect(fault.detail).toEqual({ given: `ops:${REDACTED}` });
      expect(JSON.stringify({ ...fault, message: fault.message })).not.toContain(PASSWORD);
    } finally {
      await client.close();
    }
  });

  it('redact replaces every occurrence, longest secret first, and leaves secrets under 4 characters alone', () => {
    expect(redact('a secret-long and secret', ['secret', 'secret-long'])).toBe(`a ${REDACTED} and ${REDACTED}`);
    expect(redact('Expected a SOAP 1.2 envelope', ['p'])).toBe('Expected a SOAP 1.2 envelope');
  });

  it('redactFault returns the fault itself when it echoes nothing', () => {
    const fault = new SoapFaultError({ code: 'Server', message: 'busy', httpStatus: 500, binding: 'soap11' });
    expect(redactFault(fault, [PASSWORD])).toBe(fault);
  });
});
