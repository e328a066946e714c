/**
 * rpc/literal end to end (WSDL 1.1 §3.5, WS-I BP R2729/R2735): the generated descriptor carries
 * the operation wrapper in the soap:body namespace with one unqualified accessor per part; the
 * runtime client and server speak it on SOAP 1.1 and 1.2 — asserted on the wire, not only by a
 * round trip — and a declared fault travels with its detail.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../generator/index.js';
import {
  createRequestListener,
  listen,
  type Listening,
  ServiceClient,
  ServiceError,
  SoapFaultError,
} from '../../runtime/index.js';
import { runConformance } from '../../conformance/index.js';
import { contractFromText } from '../../contract/read/index.js';
import { diffSides, oneLineSummary, renderPretty, sideFromModel } from '../../contract/diff/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

const WSDL = `${repoRoot}/test/fixtures/wsdl-rpc/orders-rpc.wsdl`;
const descriptor = toDescriptor(parseWsdl(WSDL));

const handlers = {
  placeOrder: async (input: {
    order: { customer: string; lines?: ({ sku: string; quantity: number } | null)[] };
    note: string;
  }) => {
    if (input.order.customer === '') throw new ServiceError('NO_CUSTOMER', 'no customer', { reason: 'empty' });
    return {
      return: (input.order.lines ?? []).reduce((sum, line) => sum + (line?.quantity ?? 0), 0) + input.note.length,
    };
  },
  listSkus: async (input: { prefix: string }) => ({ return: [`${input.prefix}-1`, `${input.prefix}-2`] }),
  ping: async () => ({}),
};

let server: Listening;
/** Every request and response body through a recording proxy in front of the server. */
const wire: { request: string; response: string }[] = [];
let proxy: http.Server;
let proxyOrigin: string;

beforeAll(async () => {
  server = await listen(createRequestListener(descriptor, handlers), { host: '127.0.0.1', port: 0 });
  const target = new URL(server.url);
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          const back: Buffer[] = [];
          answer.on('data', (c: Buffer) => back.push(c));
          answer.on('end', () => {
            wire.push({ request: body.toString('utf8'), response: Buffer.concat(back).toString('utf8') });
            res.writeHead(answer.statusCode ?? 500, answer.headers).end(Buffer.concat(back));
          });
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await server.close();
});

describe('the rpc/literal descriptor', () => {
  it('wraps the parts in the operation element, in the soap:body namespace, unqualified accessors', () => {
    const op = descriptor.bindings[0]!.operations.find((o) => o.name === 'placeOrder')!;
    expect(op.input).toEqual({ kind: 'element', element: 'rpc:{urn:orders-rpc}placeOrder' });
    expect(op.output).toEqual({ kind: 'element', element: 'rpc:{urn:orders-rpc}placeOrderResponse' });
    expect(descriptor.elements['rpc:{urn:orders-rpc}placeOrderResponse']!.name).toEqual({
      ns: 'urn:orders-rpc',
      local: 'placeOrderResponse',
    });
    const wrapper = descriptor.types['rpc:{urn:orders-rpc}placeOrder'];
    expect(wrapper?.kind === 'complex' ? wrapper.fields.map((f) => [f.prop, f.name]) : undefined).toEqual([
      ['order', { ns: '', local: 'order' }],
      ['note', { ns: '', local: 'note' }],
    ]);
    expect(descriptor.bindings.map((b) => b.protocol)).toEqual(['soap11', 'soap12']);
  });
});

describe.each(['soap11', 'soap12'] as const)('rpc/literal over %s', (binding) => {
  const client = (): ServiceClient => new ServiceClient(descriptor, { url: `${proxyOrigin}/orders`, binding });

  it('sends the wrapper with its parts and reads the <op>Response wrapper', async () => {
    wire.length = 0;
    const c = client();
    try {
      const result = await c.call('placeOrder', {
        order: {
          customer: 'ACME',
          lines: [
            { sku: 'A', quantity: 2 },
            { sku: 'B', quantity: 3 },
          ],
          priority: 'HIGH',
        },
        note: 'rush',
      });
      expect(result).toEqual({ return: 9 });
    } finally {
      await c.close();
    }
    const [exchange] = wire;
    expect(exchange!.request).toMatch(
      /<(soap|soap12):Body><placeOrder xmlns="urn:orders-rpc"><order xmlns=""><customer>ACME<\/customer><lines><sku>A<\/sku><quantity>2<\/quantity><\/lines><lines><sku>B<\/sku><quantity>3<\/quantity><\/lines><priority>HIGH<\/priority><\/order><note xmlns="">rush<\/note><\/placeOrder><\/(soap|soap12):Body>/,
    );
    expect(exchange!.response).toMatch(
      /<(soap|soap12):Body><placeOrderResponse xmlns="urn:orders-rpc"><return xmlns="">9<\/return><\/placeOrderResponse><\/(soap|soap12):Body>/,
    );
  });

  it('carries an array part and a part-less operation', async () => {
    const c = client();
    try {
      expect(await c.call('listSkus', { prefix: 'X' })).toEqual({ return: ['X-1', 'X-2'] });
      expect(await c.call('ping', {})).toEqual({});
    } finally {
      await c.close();
    }
  });

  it('answers a fault the client reads', async () => {
    const c = client();
    try {
      const error = await c.call('placeOrder', { order: { customer: '' }, note: '' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SoapFaultError);
      expect((error as SoapFaultError).message).toBe('no customer');
      expect((error as SoapFaultError).detail).toMatchObject({ reason: 'empty' });
    } finally {
      await c.close();
    }
  });
});

describe('the conformance runner on rpc/literal', () => {
  it('passes the correct server on both SOAP versions', async () => {
    const report = await runConformance({ target: `${server.url}/orders`, descriptor, skip: ['wsdl'], retries: 0 });
    expect(report.summary.failed).toBe(0);
    expect(report.cases.filter((c) => c.binding === 'soap12' && c.status === 'passed').length).toBeGreaterThan(10);
  });

  it.each([
    [
      'a part accessor in the wrapper namespace (qualified)',
      (xml: string) => xml.replace('<return xmlns="">', '<return>'),
    ],
    [
      'the response wrapper not named <op>Response',
      (xml: string) => xml.replaceAll('placeOrderResponse', 'placeOrderResult'),
    ],
    [
      'the wrapper in another namespace',
      (xml: string) =>
        xml.replace('<placeOrderResponse xmlns="urn:orders-rpc">', '<placeOrderResponse xmlns="urn:elsewhere">'),
    ],
  ])('fails a server that writes %s', async (_defect, defect) => {
    const broken = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = new URL(server.url);
        const forward = http.request(
          { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
          (answer) => {
            const back: Buffer[] = [];
            answer.on('data', (c: Buffer) => back.push(c));
            answer.on('end', () => {
              const text = defect(Buffer.concat(back).toString('utf8'));
              const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
              res.writeHead(answer.statusCode ?? 500, headers).end(text);
            });
          },
        );
        forward.on('error', () => res.destroy());
        forward.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    try {
      const report = await runConformance({
        target: `http://127.0.0.1:${(broken.address() as AddressInfo).port}/orders`,
        descriptor,
        run: ['placeOrder/soap11/ok/*'],
        retries: 0,
      });
      const failed = report.cases.filter((c) => c.status === 'failed' && c.id.startsWith('placeOrder/soap11/ok/'));
      expect(failed.length).toBeGreaterThan(0);
    } finally {
      broken.closeAllConnections();
      await new Promise<void>((resolve) => broken.close(() => resolve()));
    }
  });
});

describe('smskit diff on rpc/literal', () => {
  it('names a part added to an operation as a member of its wrapper, on both SOAP versions', () => {
    const text = readFileSync(WSDL, 'utf8').replace(
      '<part name="note" type="xsd:string"/>',
      '<part name="note" type="xsd:string"/><part name="rush" type="xsd:boolean"/>',
    );
    const changed = contractFromText(text, 'orders-rpc-v2.wsdl');
    const report = diffSides(sideFromModel('old', parseWsdl(WSDL)), sideFromModel('new', changed));
    expect(oneLineSummary(report)).toMatch(/^BREAKING: 1 change breaks existing clients/);
    expect(renderPretty(report, 'breaking')).toContain('placeOrder › rush: member added (required, xs:boolean)');
    expect(renderPretty(report, 'breaking')).toContain('breaks clients on: soap11, soap12');
  });
});
