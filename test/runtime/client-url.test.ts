/**
 * `ClientOptions.url` defaults to the address the WSDL gives the binding's port (the
 * descriptor's `address`); an explicit url wins; without either, or with an address that is not
 * an http(s) URL, the constructor throws a TypeError that says to pass options.url.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type ServiceDescriptor } from '../../runtime/index.js';
import { serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { startServer, type TestServer } from '../fixtures/runtime/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function withAddress(address: string | undefined): ServiceDescriptor {
  return {
    ...serviceApiDescriptor,
    bindings: serviceApiDescriptor.bindings.map(({ address: _dropped, ...binding }) =>
      address === undefined ? binding : { ...binding, address },
    ),
  };
}

const INPUT = {
  keyword: 'k',
  emailAddress: 'user@example.com',
  password: 'p',
  smsto: '+15551234567',
  carrierCode: 'ATT',
  smsmsg: 'hi',
};

describe('the client URL', () => {
  it.each(['soap11', 'soap12', 'http-get', 'http-post'] as const)(
    '%s: without url, calls the address in the WSDL',
    async (binding) => {
      const client = new ServiceClient(withAddress(server.endpoint), { binding, timeoutMs: 5_000 });
      try {
        const out = await client.call<typeof INPUT, { SMSSendResult: string }>('SMSSend', INPUT);
        expect(JSON.parse(out.SMSSendResult)).toEqual(INPUT);
      } finally {
        await client.close();
      }
    },
  );

  it('an explicit url wins over the WSDL address', async () => {
    const client = new ServiceClient(withAddress('http://127.0.0.1:9/nowhere.asmx'), {
      binding: 'soap11',
      url: server.endpoint,
      timeoutMs: 5_000,
    });
    try {
      expect(await client.call('SMSSend', INPUT)).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it('without url and without an address in the WSDL, says to pass options.url', () => {
    expect(() => new ServiceClient(withAddress(undefined), { binding: 'soap12' })).toThrow(
      new TypeError('ServiceAPI: the WSDL gives no address for binding ServiceAPISoap12 (soap12): pass options.url'),
    );
  });

  it('an address that is not an http(s) URL is refused the same way', () => {
    expect(() => new ServiceClient(withAddress('REPLACE_WITH_ACTUAL_URL'), { binding: 'soap11' })).toThrow(
      /the WSDL's address for binding ServiceAPISoap is not a URL \(REPLACE_WITH_ACTUAL_URL\): pass options.url/,
    );
    expect(() => new ServiceClient(withAddress('ftp://host/x.asmx'), { binding: 'soap11' })).toThrow(
      /Unsupported URL scheme: ftp:/,
    );
  });
});
