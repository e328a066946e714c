/**
 * JAX-WS RI (Debian default-jdk-headless, libjaxws-java, jaxws): one order service published
 * twice, document/literal wrapped (schema imported from `?xsd=1`) and rpc/literal
 * (`@SOAPBinding(style = RPC)`), read straight from their URLs; every operation called through
 * the generated client; the conformance runner on both. Debian's jar needs `wsgen` before
 * publishing a document/literal endpoint (its runtime lacks the ASM class that would make the
 * wrappers on the fly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../../contract/read/index.js';
import { SoapFaultError } from '../../../runtime/index.js';
import {
  conformanceOf,
  type GeneratedClient,
  generatedClient,
  failuresAt,
  mustFailures,
  type PeerProcess,
} from './harness.js';
import { builtStack, startJaxws } from './start.js';
import { requirePeer } from '../../helpers/peers.js';

const SKIP = requirePeer('jaxws', 'peers/stacks/jaxws').reason;

const ORDER = {
  customer: 'ACME',
  lines: [
    { sku: 'A-1', quantity: 2 },
    { sku: 'B-2', quantity: 5 },
  ],
  priority: 'HIGH',
};
/**
 * A genuine JAX-WS habit, reported as it must be: a declared (@WebFault) exception goes out as a
 * Server fault, although it refuses the caller's input (an empty customer): the runner expects
 * Client for a refusal (a SHOULD of SOAP 1.1 §4.4.1).
 */
const SERVER_FAULT_FOR_REFUSAL =
  'placeOrder/soap11/ok/empty: a correct placeOrder request over soap11 with empty strings: the fault code must be Client; reason: an order needs a customer';
const RECEIPT = { customer: 'ACME', total: 7, skus: ['A-1', 'B-2'], priority: 'HIGH' };

describe.skipIf(SKIP !== undefined)('JAX-WS RI order services, read from their URLs', () => {
  let peer: PeerProcess;
  let doc: GeneratedClient;
  let rpc: GeneratedClient;
  beforeAll(async () => {
    peer = await startJaxws(await builtStack('jaxws'));
    doc = await generatedClient(`${peer.url}/orders?wsdl`);
    rpc = await generatedClient(`${peer.url}/orders-rpc?wsdl`);
  }, 240_000);
  afterAll(async () => {
    for (const c of [doc, rpc]) {
      await c?.client.close();
      c?.dispose();
    }
    await peer?.close();
  });

  describe('document/literal wrapped', () => {
    it('reads the schema from ?xsd=1 on the same service', async () => {
      const contract = await readContract(`${peer.url}/orders?wsdl`);
      expect(contract.documents).toEqual([`${peer.url}/orders?wsdl`, `${peer.url}/orders?xsd=1`]);
      expect(doc.warnings).toBe('');
    });

    it('echoText, placeOrder (nested, array, enum), listSkus (a List answer)', async () => {
      const text = 'Grüße 你好 📱 <&>"\'';
      expect(await doc.client.echoText!({ text })).toEqual({ return: text });
      expect(await doc.client.placeOrder!({ order: ORDER })).toEqual({ return: RECEIPT });
      expect(await doc.client.listSkus!({ prefix: 'X', count: 2 })).toEqual({ return: ['X-1', 'X-2'] });
    });

    it('the declared fault', async () => {
      const fault = await doc.client.placeOrder!({ order: { customer: '' } }).catch((e: unknown) => e);
      expect(fault).toBeInstanceOf(SoapFaultError);
      expect((fault as SoapFaultError).code).toBe('Server');
      expect((fault as SoapFaultError).message).toBe('an order needs a customer');
      // The @WebFault's bean, as JAX-WS writes it: the exception's message in the declared element.
      expect((fault as SoapFaultError).fault).toEqual({
        name: 'OrderRefused',
        value: { message: 'an order needs a customer' },
      });
    });

    it('passes the conformance runner at MUST level (a declared fault is a Server fault: SHOULD)', async () => {
      const report = await conformanceOf(`${peer.url}/orders?wsdl`, `${peer.url}/orders`);
      expect(mustFailures(report)).toEqual([]);
      expect(failuresAt(report, 'should')).toContain(SERVER_FAULT_FOR_REFUSAL);
      expect(report.summary.passed).toBeGreaterThan(10);
    }, 120_000);
  });

  describe('a JAXB @XmlElements list: a repeating choice, typed', () => {
    let shapes: GeneratedClient;
    beforeAll(async () => {
      shapes = await generatedClient(`${peer.url}/shapes?wsdl`);
    }, 120_000);
    afterAll(async () => {
      await shapes?.client.close();
      shapes?.dispose();
    });
    const drawing = (...radii: number[]) => ({
      title: 'd',
      circleOrSquare: radii.map((n) => (n % 2 === 1 ? { circle: { radius: n } } : { square: { side: n } })),
    });

    it('JAXB reads the shapes in the order written, and its answer is read in document order', async () => {
      expect(shapes.warnings).toBe('');
      expect(await shapes.client.describe!({ drawing: drawing(1, 2, 3, 4) })).toEqual({
        return: 'd circle 1 square 2 circle 3 square 4',
      });
      expect(await shapes.client.mirror!({ drawing: drawing(1, 2, 3) })).toEqual({ return: drawing(3, 2, 1) });
    });

    it('passes the conformance runner at MUST level', async () => {
      const report = await conformanceOf(`${peer.url}/shapes?wsdl`, `${peer.url}/shapes`);
      expect(mustFailures(report)).toEqual([]);
      expect(report.summary.passed).toBeGreaterThan(5);
    }, 120_000);
  });

  describe('rpc/literal', () => {
    it('echoText, placeOrder (nested, array, enum), listSkus (a stringArray of items)', async () => {
      const text = 'Grüße 你好 📱 <&>"\'';
      expect(await rpc.client.echoText!({ text })).toEqual({ text });
      expect(await rpc.client.placeOrder!({ order: ORDER })).toEqual({ receipt: RECEIPT });
      expect(await rpc.client.listSkus!({ prefix: 'X', count: 2 })).toEqual({ skus: ['X-1', 'X-2'] });
    });

    it('the declared fault', async () => {
      const fault = await rpc.client.placeOrder!({ order: { customer: '' } }).catch((e: unknown) => e);
      expect(fault).toBeInstanceOf(SoapFaultError);
      expect((fault as SoapFaultError).message).toBe('an order needs a customer');
      expect((fault as SoapFaultError).fault).toEqual({
        name: 'OrderRefused',
        value: { message: 'an order needs a customer' },
      });
    });

    it('passes the conformance runner at MUST level (a declared fault is a Server fault: SHOULD)', async () => {
      const report = await conformanceOf(`${peer.url}/orders-rpc?wsdl`, `${peer.url}/orders-rpc`);
      expect(mustFailures(report)).toEqual([]);
      expect(failuresAt(report, 'should')).toContain(SERVER_FAULT_FOR_REFUSAL);
      expect(report.summary.passed).toBeGreaterThan(10);
    }, 120_000);
  });
});
