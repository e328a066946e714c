/**
 * `smskit call` and `smskit inspect` on an rpc/literal contract as a user runs them: the call
 * goes through the operation wrapper, a fault shows its code, sub-code and detail (a declared
 * fault's value as JSON), and inspect
 * names the port beside its binding and lists the declared faults.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../generator/index.js';
import { createRequestListener, DeclaredFault, listen, type Listening, ServiceError } from '../../runtime/index.js';
import { repoRoot } from '../helpers/cli.js';
import { faultLines } from '../../bin/commands/call.js';

const bin = fileURLToPath(new URL('../../bin/smskit.js', import.meta.url));
const WSDL = 'test/fixtures/wsdl-rpc/orders-rpc.wsdl';

function smskit(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repoRoot, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

let server: Listening;
beforeAll(async () => {
  const descriptor = toDescriptor(parseWsdl(`${repoRoot}/${WSDL}`));
  server = await listen(
    createRequestListener(descriptor, {
      placeOrder: async (input: { order: { customer: string }; note: string }) => {
        if (input.order.customer === '')
          throw new ServiceError('NoCustomer', 'an order needs a customer', { field: 'customer' });
        if (input.note === 'declared')
          throw new DeclaredFault('OrderRefused', { reason: 'out of stock' }, { message: 'refused' });
        return { return: input.note.length };
      },
      listSkus: async () => ({ return: [] }),
      ping: async () => ({}),
    }),
    { host: '127.0.0.1', port: 0 },
  );
});
afterAll(() => server.close());

describe('smskit call on rpc/literal', () => {
  it('calls through the operation wrapper on both SOAP versions', async () => {
    for (const binding of ['soap11', 'soap12']) {
      const run = await smskit([
        'call',
        WSDL,
        'placeOrder',
        '--url',
        `${server.url}/orders`,
        '--binding',
        binding,
        '--input',
        '{"order":{"customer":"ACME"},"note":"four"}',
      ]);
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ return: 4 });
    }
  });

  /** `smskit call` of placeOrder over SOAP 1.1 with this input (JSON). */
  const placeOrder = (input: string) =>
    smskit(['call', WSDL, 'placeOrder', '--url', `${server.url}/orders`, '--input', input]);

  it('prints the fault code and the detail', async () => {
    const run = await placeOrder('{"order":{"customer":""},"note":""}');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'smskit: fault Client: an order needs a customer\nsmskit: fault detail: {"code":"NoCustomer","field":"customer"}\n',
    );
  });

  it("prints a declared fault's value as JSON", async () => {
    const run = await placeOrder('{"order":{"customer":"ACME"},"note":"declared"}');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'smskit: fault Client: refused\nsmskit: declared fault OrderRefused: {"reason":"out of stock"}\n',
    );
  });

  it('names the sub-code when the fault has one (SOAP 1.2 Subcode, SOAP 1.1 Client.X)', () => {
    expect(faultLines({ code: 'Sender', subcode: 'Refused', message: 'no', detail: {} })).toBe(
      'smskit: fault Sender (sub-code Refused): no\n',
    );
  });
});

describe('smskit inspect', () => {
  it('names each port beside its binding and lists the declared faults', async () => {
    const run = await smskit(['inspect', WSDL]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('  Port OrdersPort (binding OrdersPortBinding): soap11 at http://localhost/orders\n');
    expect(run.stdout).toContain(
      '  Port OrdersPort12 (binding OrdersPortBinding12): soap12 at http://localhost/orders\n',
    );
    expect(run.stdout).toContain(
      '    placeOrder(order: order, note: string) -> return: int\n      SOAPAction ""\n      faults: OrderRefused\n',
    );
  });
});
