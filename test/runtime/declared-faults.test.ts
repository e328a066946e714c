/**
 * Declared faults (a wsdl:fault whose detail is one element, WS-I BP R2205): the descriptor lists
 * them, a handler sends one by throwing DeclaredFault, and the client reads its detail into
 * SoapFaultError.fault, on SOAP 1.1 and 1.2. A fault whose part names a type stays untyped; a
 * fault name the operation does not declare, or a detail its element cannot carry, is the
 * handler's mistake (a generic Server fault, logged); HTTP POST carries the message alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import {
  createRequestListener,
  DeclaredFault,
  type Listening,
  listen,
  ServiceClient,
  SoapFaultError,
} from '../../runtime/index.js';

const NS = 'urn:faults';
const descriptor = toDescriptor(parseWsdl('test/fixtures/runtime/declared-faults.wsdl'));
const logged: string[] = [];
let thrown: unknown;
let server: Listening;

beforeAll(async () => {
  const handlers = {
    PlaceOrder: async () => {
      throw thrown;
    },
  };
  const listener = createRequestListener(descriptor, handlers, { logger: { error: (line) => logged.push(line) } });
  server = await listen(listener, { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

async function call(binding: 'soap11' | 'soap12' | 'http-post'): Promise<unknown> {
  const client = new ServiceClient(descriptor, { url: `${server.url}/orders.asmx`, binding });
  try {
    return await client.call('PlaceOrder', { sku: 'X-1', quantity: 3 }).catch((e: unknown) => e);
  } finally {
    await client.close();
  }
}

function rawCall(): Promise<Response> {
  return fetch(`${server.url}/orders.asmx`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}/PlaceOrder"` },
    body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><PlaceOrder xmlns="${NS}"><sku>X-1</sku><quantity>3</quantity></PlaceOrder></soap:Body></soap:Envelope>`,
  });
}

describe('declared faults', () => {
  it('are listed per SOAP operation when their detail is one element; a part by type is left untyped', () => {
    const faultsOf = (protocol: string) =>
      descriptor.bindings.find((b) => b.protocol === protocol)!.operations[0]!.faults;
    expect(faultsOf('soap11')).toEqual([{ name: 'OrderRefused', element: `{${NS}}OrderRefused` }]);
    expect(faultsOf('soap12')).toEqual([{ name: 'OrderRefused', element: `{${NS}}OrderRefused` }]);
    expect(faultsOf('http-post')).toBeUndefined();
  });

  it.each(['soap11', 'soap12'] as const)(
    'travel as their element in the detail and come back typed (%s)',
    async (binding) => {
      thrown = new DeclaredFault(
        'OrderRefused',
        { reason: 'out of stock', available: 2 },
        { message: 'cannot take it' },
      );
      const fault = (await call(binding)) as SoapFaultError;
      expect(fault).toBeInstanceOf(SoapFaultError);
      expect([fault.code, fault.message]).toEqual([binding === 'soap11' ? 'Client' : 'Sender', 'cannot take it']);
      expect(fault.fault).toEqual({ name: 'OrderRefused', value: { reason: 'out of stock', available: 2 } });
    },
  );

  it('are written as the element, qualified as its schema says; code server when asked', async () => {
    thrown = new DeclaredFault('OrderRefused', { reason: 'r' }, { faultCode: 'server' });
    const response = await rawCall();
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(text).toContain('<faultcode>soap:Server</faultcode><faultstring>OrderRefused</faultstring>');
    expect(text).toContain(`<detail><OrderRefused xmlns="${NS}"><reason>r</reason></OrderRefused></detail>`);
  });

  it('a name the operation does not declare, or a detail its element cannot carry, is a generic Server fault, logged', async () => {
    logged.length = 0;
    thrown = new DeclaredFault('Legacy', 'text');
    const undeclared = (await call('soap11')) as SoapFaultError;
    thrown = new DeclaredFault('OrderRefused', { reason: 'r', available: 'many' });
    const uncarried = (await call('soap11')) as SoapFaultError;
    for (const fault of [undeclared, uncarried]) {
      expect([fault.code, fault.message, fault.fault]).toEqual([
        'Server',
        'Server was unable to process request.',
        undefined,
      ]);
    }
    expect(logged[0]).toBe(
      'PlaceOrder (soap11): the handler threw DeclaredFault Legacy, which the operation does not declare (its declared faults: OrderRefused)',
    );
    expect(logged[1]).toMatch(/^PlaceOrder \(soap11\): DeclaredFault OrderRefused cannot be sent: CodecError/);
    expect(logged.join('\n')).not.toContain('many');
  });

  it('over HTTP POST the message alone, as a 500 text/plain line', async () => {
    thrown = new DeclaredFault('OrderRefused', { reason: 'r' }, { message: 'cannot take it' });
    const fault = (await call('http-post')) as SoapFaultError;
    expect([fault.code, fault.message, fault.fault]).toEqual(['Client', 'cannot take it', undefined]);
  });
});

describe('a client reading a declared fault', () => {
  /** A stand-in peer answering every call with this fault document. */
  async function answeredWith(detail: string): Promise<SoapFaultError> {
    const peer = await listen(
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/xml; charset=utf-8' });
        res.end(
          `<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>refused</faultstring><detail>${detail}</detail></S:Fault></S:Body></S:Envelope>`,
        );
      },
      { host: '127.0.0.1', port: 0 },
    );
    const client = new ServiceClient(descriptor, { url: `${peer.url}/orders.asmx`, binding: 'soap11' });
    try {
      return (await client.call('PlaceOrder', { sku: 'X', quantity: 1 }).catch((e: unknown) => e)) as SoapFaultError;
    } finally {
      await client.close();
      await peer.close();
    }
  }

  it('decodes it beside other detail entries, with a prefix of its own (as JAX-WS writes it)', async () => {
    const fault = await answeredWith(
      `<trace xmlns="urn:other">t</trace><ns2:OrderRefused xmlns:ns2="${NS}"><ns2:reason>no</ns2:reason></ns2:OrderRefused>`,
    );
    expect(fault.fault).toEqual({ name: 'OrderRefused', value: { reason: 'no' } });
  });

  it('leaves a detail its schema cannot read, or another element, untyped and raw', async () => {
    const unreadable = await answeredWith(`<OrderRefused xmlns="${NS}"><available>x</available></OrderRefused>`);
    expect(unreadable.fault).toBeUndefined();
    expect(unreadable.detailXml?.children.length).toBe(1);
    const other = await answeredWith('<Oops xmlns="urn:other"><why>w</why></Oops>');
    expect([other.fault, other.message]).toEqual([undefined, 'refused']);
  });
});
