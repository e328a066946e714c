/**
 * HTTPS with a company CA: the generated SMS client against the service served by `listen` over
 * TLS, on every binding, with certificates made by openssl for this run. A certificate the
 * client cannot trust (unknown CA, expired, another host name, plain HTTP) is a TransportError
 * TLS with a one-line reason and the origin, and no request reaches the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { TransportError, type Protocol } from '../../runtime/index.js';
import { makeCertificates, type TestCertificates } from '../helpers/certificates.js';
import { GOOD_MESSAGE, startTestService, type TestService } from './https-service.js';
import { requirePeer } from '../helpers/peers.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
const SKIP = requirePeer('openssl', 'security/tls').reason;

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe.skipIf(SKIP !== undefined)('HTTPS with a company CA', () => {
  let certs: TestCertificates;
  let service: TestService;
  beforeAll(async () => {
    certs = await makeCertificates();
    service = await startTestService({ cert: certs.server.cert, key: certs.server.key });
  });
  afterAll(async () => {
    await service?.close();
    certs?.remove();
  });

  it('listens on an https:// URL', () => {
    expect(service.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/serviceapi\.asmx$/);
  });

  it.each(BINDINGS)('sends over %s with the CA passed as tls.ca', async (binding) => {
    const client = new ServiceAPIClient({ url: service.endpoint, binding, tls: { ca: certs.ca } });
    try {
      const { SMSSendResult } = await client.SMSSend(GOOD_MESSAGE);
      expect(SMSSendResult).toMatch(MESSAGE_ID);
    } finally {
      await client.close();
    }
  });

  it('reaches the server by host name (localhost) and by servername', async () => {
    const port = new URL(service.endpoint).port;
    const byName = new ServiceAPIClient({
      url: `https://localhost:${port}/serviceapi.asmx`,
      binding: 'soap12',
      tls: { ca: certs.ca },
    });
    const byServername = new ServiceAPIClient({
      url: service.endpoint,
      binding: 'soap11',
      tls: { ca: certs.ca, servername: 'localhost' },
    });
    try {
      expect((await byName.SMSSend(GOOD_MESSAGE)).SMSSendResult).toMatch(MESSAGE_ID);
      expect((await byServername.SMSSend(GOOD_MESSAGE)).SMSSendResult).toMatch(MESSAGE_ID);
    } finally {
      await Promise.all([byName.close(), byServername.close()]);
    }
  });

  describe('certificates the client cannot trust: a TLS error, nothing handled', () => {
    it('without the CA: self-signed or unknown CA, pass ca', async () => {
      const before = service.handled();
      const client = new ServiceAPIClient({ url: service.endpoint, binding: 'soap11' });
      try {
        const error = await failure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TLS');
        expect(error.message).toContain(service.origin);
        expect(error.message).toMatch(/unknown CA.*pass the CA/);
      } finally {
        await client.close();
      }
      expect(service.handled()).toBe(before);
    });

    it('with the wrong CA', async () => {
      const before = service.handled();
      const client = new ServiceAPIClient({ url: service.endpoint, binding: 'http-post', tls: { ca: certs.otherCa } });
      try {
        const error = await failure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TLS');
        expect(error.message).toMatch(/unknown CA/);
      } finally {
        await client.close();
      }
      expect(service.handled()).toBe(before);
    });

    it('an expired server certificate', async (context) => {
      if (certs.expiredServer === undefined) {
        context.skip('skipped: this openssl cannot date a certificate in the past (openssl ca -enddate)');
        return;
      }
      const expired = await startTestService({ cert: certs.expiredServer.cert, key: certs.expiredServer.key });
      const client = new ServiceAPIClient({ url: expired.endpoint, binding: 'soap11', tls: { ca: certs.ca } });
      try {
        const error = await failure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TLS');
        expect(error.message).toBe(`TLS failure with ${expired.origin}: the server's certificate has expired`);
        expect(expired.handled()).toBe(0);
      } finally {
        await client.close();
        await expired.close();
      }
    });

    it('a certificate for another host name', async () => {
      const other = await startTestService({ cert: certs.wrongHostServer.cert, key: certs.wrongHostServer.key });
      const client = new ServiceAPIClient({ url: other.endpoint, binding: 'soap11', tls: { ca: certs.ca } });
      try {
        const error = await failure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TLS');
        expect(error.message).toContain('hostname mismatch');
        expect(other.handled()).toBe(0);
      } finally {
        await client.close();
        await other.close();
      }
    });

    it('an https:// URL at a plain HTTP server', async () => {
      const plain = await startTestService(undefined);
      const client = new ServiceAPIClient({
        url: plain.endpoint.replace('http:', 'https:'),
        binding: 'soap11',
        tls: { ca: certs.ca },
      });
      try {
        const error = await failure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TLS');
        expect(error.message).toContain('did not answer in TLS');
      } finally {
        await client.close();
        await plain.close();
      }
    });
  });

  describe('options refused when the client is made, naming the option and never the material', () => {
    it.each([
      ['a CA file without a certificate', { ca: 'not a certificate' }, /tls\.ca holds no PEM certificate/],
      ['a certificate without its key', { cert: 'x' }, /tls\.cert and options\.tls\.key go together/],
      ['an unknown option', { rejectUnauthorized: false }, /Unknown options\.tls option: rejectUnauthorized/],
    ])('%s', (_name, tls, message) => {
      expect(
        () => new ServiceAPIClient({ url: 'https://127.0.0.1:1/x', binding: 'soap11', tls: tls as never }),
      ).toThrow(message);
    });

    it('tls with an http:// URL', () => {
      expect(
        () => new ServiceAPIClient({ url: 'http://127.0.0.1:1/x', binding: 'soap11', tls: { ca: certs.ca } }),
      ).toThrow(/options\.tls\.ca: for https:\/\/ URLs only, and the service URL is http:\/\//);
    });

    it('a client certificate with an http:// URL, even through a proxy (tls.ca may stay: it checks the proxy)', () => {
      const make = (tls: object) => () =>
        new ServiceAPIClient({
          url: 'http://127.0.0.1:1/x',
          binding: 'soap11',
          proxy: 'https://127.0.0.1:2',
          tls: tls as never,
        });
      expect(make({ ca: certs.ca, cert: 'c', key: 'k' })).toThrow(
        /^options\.tls\.cert, options\.tls\.key: for https:\/\/ URLs only/,
      );
      expect(make({ ca: certs.ca })).not.toThrow();
    });

    it('a URL carrying user:password@, without echoing it', () => {
      let message = '';
      try {
        new ServiceAPIClient({ url: 'https://alice:hunter2secret@127.0.0.1:1/x', binding: 'soap11' });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/options\.auth/);
      expect(message).not.toContain('hunter2secret');
    });
  });
});
