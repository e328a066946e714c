/**
 * A one-way operation (no wsdl:output) as JAX-WS `@Oneway` and WCF `IsOneWay` services answer it:
 * 202 or 200 with no body (WS-I BP R2714 forbids them an envelope; R1112 names both statuses
 * for a success without one). The generated client's call resolves; an operation that declares an output still
 * fails on an empty answer, and a one-way call still reports a fault or another status. An smskit
 * server answers such an operation so itself.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { contractFromText } from '../../contract/read/index.js';
import {
  createRequestListener,
  DeclaredFault,
  listen,
  ServiceClient,
  ServiceError,
  TransportError,
} from '../../runtime/index.js';

const SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope';

const NS = 'urn:oneway';
/** A one-way `Log` beside a request-response `Echo`, on SOAP 1.1 and 1.2 (also the conformance runner's one-way contract). */
const WSDL = readFileSync('test/fixtures/runtime/one-way.wsdl', 'utf8');

/** What the stand-in server answers next: a status and a body (empty for none). */
let answer: { status: number; body: string } = { status: 202, body: '' };
const received: string[] = [];
let server: http.Server;
let client: ServiceClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(answer.status, answer.body === '' ? {} : { 'content-type': 'text/xml; charset=utf-8' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const descriptor = toDescriptor(contractFromText(WSDL, 'oneway.wsdl'));
  client = new ServiceClient(descriptor, { url: `http://127.0.0.1:${port}/oneway`, binding: 'soap11' });
});
afterAll(async () => {
  await client?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('a one-way operation', () => {
  it.each([202, 200])('resolves on HTTP %i with no body, the request sent', async (status) => {
    answer = { status, body: '' };
    await expect(client.call('Log', { text: `hello ${status}` })).resolves.toBeUndefined();
    expect(received.at(-1)).toContain(`<text>hello ${status}</text>`);
  });

  it('still reports a SOAP fault, and another status as an error', async () => {
    answer = {
      status: 500,
      body: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>no</faultstring></soap:Fault></soap:Body></soap:Envelope>',
    };
    await expect(client.call('Log', { text: 'x' })).rejects.toMatchObject({ code: 'Client', message: 'no' });
    answer = { status: 404, body: '' };
    await expect(client.call('Log', { text: 'x' })).rejects.toBeInstanceOf(TransportError);
  });

  it('an operation that declares an output still fails on an empty answer', async () => {
    answer = { status: 202, body: '' };
    await expect(client.call('Echo', { text: 'x' })).rejects.toBeInstanceOf(TransportError);
  });

  it('an smskit server answers it 202 with no body on SOAP 1.1 and 1.2, which the client accepts', async () => {
    const descriptor = toDescriptor(contractFromText(WSDL, 'oneway.wsdl'));
    expect(descriptor.bindings[0]!.operations.find((o) => o.name === 'Log')?.oneWay).toBe(true);
    expect(descriptor.bindings[0]!.operations.find((o) => o.name === 'Echo')?.oneWay).toBeUndefined();
    const logged: unknown[] = [];
    const handlers = {
      Log: async (input: unknown) => void logged.push(input),
      Echo: async () => ({}),
    };
    const own = await listen(createRequestListener(descriptor, handlers), { host: '127.0.0.1', port: 0 });
    const ownClient = new ServiceClient(descriptor, { url: `${own.url}/oneway`, binding: 'soap11' });
    try {
      await expect(ownClient.call('Log', { text: 'to smskit' })).resolves.toBeUndefined();
      expect(logged).toEqual([{ text: 'to smskit' }]);
      for (const [contentType, envelope] of [
        [`text/xml; charset=utf-8`, SOAP11_ENV],
        [`application/soap+xml; charset=utf-8; action="${NS}/Log"`, SOAP12_ENV],
      ] as const) {
        const raw = await fetch(`${own.url}/oneway`, {
          method: 'POST',
          headers: { 'content-type': contentType, soapaction: `"${NS}/Log"` },
          body: `<soap:Envelope xmlns:soap="${envelope}"><soap:Body><Log xmlns="${NS}"><text>raw</text></Log></soap:Body></soap:Envelope>`,
        });
        expect(raw.status, contentType).toBe(202);
        expect(raw.headers.get('content-type'), contentType).toBeNull();
        expect(await raw.text(), contentType).toBe('');
      }
      expect(logged).toHaveLength(3);
      // An operation with an output is answered with its envelope as before.
      const echo = await fetch(`${own.url}/oneway`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}/Echo"` },
        body: `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><Echo xmlns="${NS}"/></soap:Body></soap:Envelope>`,
      });
      expect(echo.status).toBe(200);
      expect(await echo.text()).toContain('EchoResponse');
    } finally {
      await ownClient.close();
      await own.close();
    }
  });

  it("an smskit server answers 202 when the handler fails (logged by code), and a fault when the request can't be read", async () => {
    const descriptor = toDescriptor(contractFromText(WSDL, 'oneway.wsdl'));
    const lines: string[] = [];
    let failWith: Error = new ServiceError('NOT_NOW', 'refused for x@example.com');
    const handlers = {
      Log: async () => {
        throw failWith;
      },
      Echo: async () => ({}),
    };
    const listener = createRequestListener(descriptor, handlers, { logger: { error: (line) => lines.push(line) } });
    const own = await listen(listener, { host: '127.0.0.1', port: 0 });
    const post = (body: string) =>
      fetch(`${own.url}/oneway`, {
        method: 'POST',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}/Log"` },
        body,
      });
    const valid = `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><Log xmlns="${NS}"/></soap:Body></soap:Envelope>`;
    try {
      const refused = await post(valid);
      expect([refused.status, await refused.text()]).toEqual([202, '']);
      expect(lines).toEqual([
        'Log (soap11): the handler refused a one-way call (ServiceError NOT_NOW); answered 202 all the same, a one-way operation has no fault to send',
      ]);
      failWith = new Error('boom');
      const failed = await post(valid);
      expect([failed.status, await failed.text()]).toEqual([202, '']);
      expect(lines[1]).toMatch(/^Log \(soap11\): the handler failed: Error/);
      failWith = new DeclaredFault('LogRefused', { why: 'x@example.com' }, { faultCode: 'server' });
      const declared = await post(valid);
      expect([declared.status, await declared.text()]).toEqual([202, '']);
      expect(lines[2]).toBe(
        'Log (soap11): the handler refused a one-way call (DeclaredFault LogRefused); answered 202 all the same, a one-way operation has no fault to send',
      );
      expect(lines.join('\n')).not.toContain('x@example.com');
      const unreadable = await post(`<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><Log xmlns="${NS}"><text>`);
      expect(unreadable.status).toBe(500);
      expect(await unreadable.text()).toContain('faultcode');
    } finally {
      await own.close();
    }
  });
});
