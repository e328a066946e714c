import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SoapFaultError } from '../../../runtime/index.js';
import {
  conformanceOf,
  type GeneratedClient,
  generatedClient,
  mustFailures,
  type PeerProcess,
  startPeer,
} from './harness.js';
import { pythonWith, requirePeer } from '../../helpers/peers.js';

const SERVICE = fileURLToPath(new URL('./spyne/orders_service.py', import.meta.url));
const peer = requirePeer('spyne', 'peers/stacks/spyne');
const PYTHON = pythonWith('spyne, lxml');

describe.skipIf(peer.skip)('spyne order service, read from its URL', () => {
  let peer: PeerProcess;
  let generated: GeneratedClient;
  beforeAll(async () => {
    peer = await startPeer(PYTHON!, [SERVICE], { ready: (url) => `${url}?wsdl` });
    generated = await generatedClient(`${peer.url}?wsdl`);
  }, 120_000);
  afterAll(async () => {
    await generated?.client.close();
    generated?.dispose();
    await peer?.close();
  });

  it('generates from the URL without a warning', () => {
    expect(generated.warnings).toBe('');
  });

  it('echoText: a scalar, non-ASCII and XML-special text exactly', async () => {
    const text = 'Grüße 你好 📱 <&>"\'';
    expect(await generated.client.echoText!({ text })).toEqual({ echoTextResult: text });
  });

  it('placeOrder: a nested order with an array of lines (spyne OrderLineArray) and an enum', async () => {
    const receipt = await generated.client.placeOrder!({
      order: {
        customer: 'ACME',
        lines: [
          { sku: 'A-1', quantity: 2n },
          { sku: 'B-2', quantity: 5n },
        ],
        priority: 'HIGH',
      },
    });
    expect(receipt).toEqual({
      placeOrderResult: { customer: 'ACME', total: 7n, skus: ['A-1', 'B-2'], priority: 'HIGH' },
    });
  });

  it('listSkus: an array answer (spyne stringArray), unwrapped', async () => {
    expect(await generated.client.listSkus!({ prefix: 'X', count: 3n })).toEqual({
      listSkusResult: ['X-1', 'X-2', 'X-3'],
    });
  });

  it('placeOrder without a customer: the declared fault, code and text', async () => {
    const fault = await generated.client.placeOrder!({ order: { customer: '' } }).catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(SoapFaultError);
    expect((fault as SoapFaultError).code).toBe('Client');
    expect((fault as SoapFaultError).subcode).toBe('OrderRefused');
    expect((fault as SoapFaultError).message).toBe('an order needs a customer');
  });

  it('passes the conformance runner at MUST level', async () => {
    const report = await conformanceOf(`${peer.url}?wsdl`, peer.url);
    expect(mustFailures(report)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(10);
  }, 120_000);
});
