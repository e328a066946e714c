/**
 * Mono's WCF (ServiceHost + BasicHttpBinding; mono-devel, already installed for the ASMX peers):
 * a service named `service` whose WSDL imports the contract's WSDL (`?wsdl=wsdl0`) and schemas
 * (`?xsd=xsd0…`), DataContract arrays (`ArrayOfstring`, `ArrayOfOrderLine`), read straight from
 * its URL; every operation through the generated client; the conformance runner.
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
import { builtStack, startWcf } from './start.js';
import { requirePeer } from '../../helpers/peers.js';

const SKIP = requirePeer('wcf', 'peers/stacks/wcf').reason;

describe.skipIf(SKIP !== undefined)('Mono WCF order service named "service", read from its URL', () => {
  let peer: PeerProcess;
  let generated: GeneratedClient;
  beforeAll(async () => {
    peer = await startWcf(await builtStack('wcf'));
    generated = await generatedClient(`${peer.url}?wsdl`);
  }, 240_000);
  afterAll(async () => {
    await generated?.client.close();
    generated?.dispose();
    await peer?.close();
  });

  it('follows ?wsdl=wsdl0 and ?xsd=xsd0… on the same service, and skips the built-in XSD import', async () => {
    const contract = await readContract(`${peer.url}?wsdl`);
    expect(contract.documents).toEqual([
      `${peer.url}?wsdl`,
      `${peer.url}?wsdl=wsdl0`,
      `${peer.url}?xsd=xsd0`,
      `${peer.url}?xsd=xsd1`,
      `${peer.url}?xsd=xsd2`,
    ]);
    expect(generated.warnings).toBe('');
  });

  it('EchoText: non-ASCII and XML-special text exactly', async () => {
    const text = 'Grüße 你好 📱 <&>"\'';
    expect(await generated.client.EchoText!({ text })).toEqual({ EchoTextResult: text });
  });

  it('PlaceOrder: nested order, a List of lines, an enum; a string[] back', async () => {
    const answer = await generated.client.PlaceOrder!({
      order: {
        customer: 'ACME',
        lines: [
          { sku: 'A-1', quantity: 2 },
          { sku: 'B-2', quantity: 5 },
        ],
        priority: 'HIGH',
      },
    });
    expect(answer).toEqual({
      PlaceOrderResult: { customer: 'ACME', total: 7, skus: ['A-1', 'B-2'], priority: 'HIGH' },
    });
  });

  it('ListSkus: ArrayOfstring, unwrapped', async () => {
    expect(await generated.client.ListSkus!({ prefix: 'X', count: 2 })).toEqual({ ListSkusResult: ['X-1', 'X-2'] });
  });

  it('PlaceOrder without a customer: the declared fault, its text, its detail (raw: the WSDL declares no fault)', async () => {
    const fault = await generated.client.PlaceOrder!({ order: { customer: '' } }).catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(SoapFaultError);
    expect((fault as SoapFaultError).message).toBe('an order needs a customer');
    // Mono's WCF publishes no wsdl:fault for [FaultContract] (its portType operations have none):
    // nothing declares the detail, so it stays raw XML, where the FaultException<T>'s value is.
    expect((fault as SoapFaultError).fault).toBeUndefined();
    const refused = (fault as SoapFaultError).detailXml?.children[0];
    expect(refused).toMatchObject({ ns: 'urn:smskit:peers:wcf-orders', local: 'OrderRefused' });
  });

  it('conformance: what the runner finds at MUST level', async () => {
    // Mono's WCF never answers a request with a DOCTYPE or a foreign envelope namespace (it holds
    // the connection): the runner's 10 s default would make those six cases the file's longest
    // wait. A local peer answers everything else in milliseconds.
    const report = await conformanceOf(`${peer.url}?wsdl`, peer.url, { timeoutMs: 4_000 });
    // A genuine Mono WCF habit, reported as it must be: a FaultException<T> for a refused input
    // (an empty or nil customer) goes out as a Server fault; the runner expects Client (SHOULD).
    expect(mustFailures(report)).toEqual([]);
    expect(failuresAt(report, 'should')).toEqual(
      expect.arrayContaining([
        'PlaceOrder/soap11/ok/empty: a correct PlaceOrder request over soap11 with empty strings: the fault code must be Client; reason: an order needs a customer',
        'PlaceOrder/soap11/ok/nil: a correct PlaceOrder request over soap11 with xsi:nil in every nillable element: the fault code must be Client; reason: an order needs a customer',
      ]),
    );
    expect(report.summary.passed).toBeGreaterThan(10);
  }, 180_000);
});
