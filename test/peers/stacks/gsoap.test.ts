/**
 * gSOAP (Debian gsoap + libgsoap-dev: soapcpp2 and g++): a C++ order service generated from an
 * annotated header, document/literal on SOAP 1.1, read straight from its URL; every operation
 * through the generated client; the conformance runner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoapFaultError } from '../../../runtime/index.js';
import { conformanceOf, type GeneratedClient, generatedClient, mustFailures, type PeerProcess } from './harness.js';
import { builtStack, startGsoap } from './start.js';
import { requirePeer } from '../../helpers/peers.js';

const SKIP = requirePeer('gsoap', 'peers/stacks/gsoap').reason;

describe.skipIf(SKIP !== undefined)('gSOAP order service, read from its URL', () => {
  let peer: PeerProcess;
  let generated: GeneratedClient;
  beforeAll(async () => {
    peer = await startGsoap(await builtStack('gsoap'));
    generated = await generatedClient(`${peer.url}?wsdl`);
  }, 240_000);
  afterAll(async () => {
    await generated?.client.close();
    generated?.dispose();
    await peer?.close();
  });

  it('generates from the URL without a warning', () => {
    expect(generated.warnings).toBe('');
  });

  it('echoText: non-ASCII and XML-special text exactly', async () => {
    const text = 'Grüße 你好 📱 <&>"\'';
    expect(await generated.client.echoText!({ text })).toEqual({ result: text });
  });

  it('placeOrder: nested order, repeated lines, an enum; the receipt back', async () => {
    const answer = await generated.client.placeOrder!({
      order: {
        customer: 'ACME',
        line: [
          { sku: 'A-1', quantity: 2 },
          { sku: 'B-2', quantity: 5 },
        ],
        priority: 'HIGH',
      },
    });
    expect(answer).toEqual({ customer: 'ACME', total: 7, sku: ['A-1', 'B-2'], priority: 'HIGH' });
  });

  it('placeOrder without a customer: a Client fault with its detail', async () => {
    const fault = await generated.client.placeOrder!({ order: { customer: '', priority: 'LOW' } }).catch(
      (e: unknown) => e,
    );
    expect(fault).toBeInstanceOf(SoapFaultError);
    expect((fault as SoapFaultError).code).toBe('Client');
    expect((fault as SoapFaultError).message).toBe('an order needs a customer');
    expect((fault as SoapFaultError).detail).toEqual({ reason: 'no customer' });
  });

  it('conformance: what the runner finds at MUST level', async () => {
    // The service answers one connection at a time (gSOAP's simplest server loop).
    const report = await conformanceOf(`${peer.url}?wsdl`, peer.url, { concurrency: 1 });
    expect(mustFailures(report)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(5);
  }, 180_000);
});
