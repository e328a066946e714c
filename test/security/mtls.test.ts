/**
 * Mutual TLS: `listen` with `requestCert` refuses, during the handshake, a client without a
 * certificate from its CA (no request reaches the server); the generated client with
 * `tls.cert`/`tls.key` (also an encrypted key with its passphrase) is served on every binding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { listen, TransportError, type Protocol } from '../../runtime/index.js';
import { makeCertificates, type TestCertificates } from '../helpers/certificates.js';
import { GOOD_MESSAGE, startTestService, type TestService } from './https-service.js';
import { requirePeer } from '../helpers/peers.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
const SKIP = requirePeer('openssl', 'security/mtls').reason;
/**
 * A throw-away encrypted key (passphrase "the-right-one") and a wrong passphrase, found by trying
 * many, whose AES-CBC decryption happens to end in valid padding: OpenSSL then fails to parse the
 * decrypted bytes (DECODER unsupported) instead of reporting a bad decrypt.
 */
const PADDING_PASSING = {
  key: `-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhPT217sSlbYQICCAAw
DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEENRFgqi/BtGjTvrdqV2Xf6AEgZDL
OGRh4bwDOQbMivTqwjJM3jIiBBhPLpaCD2xHg3cyDs3Ogofe4AwzDQBhIfJjxkaM
akC9Bm7DxooCMh3cAfYFkMgOR7Ft3wrzJC3SkMhlzZf64R3yhpDcuwtY1+ZrZRjD
07aVYusRzT+QPjtlv9G8dcuF6JtbUrdh6o1C4VMgKSGtQCmGgie59apbJHIb4uU=
-----END ENCRYPTED PRIVATE KEY-----
`,
  wrongPassphrase: 'wrong-375',
};

async function transportFailure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe.skipIf(SKIP !== undefined)('mutual TLS', () => {
  let certs: TestCertificates;
  let service: TestService;
  beforeAll(async () => {
    certs = await makeCertificates();
    service = await startTestService({
      cert: certs.server.cert,
      key: certs.server.key,
      ca: certs.ca,
      requestCert: true,
    });
  });
  afterAll(async () => {
    await service?.close();
    certs?.remove();
  });

  it.each(BINDINGS)('serves a client with a certificate from its CA over %s', async (binding) => {
    const client = new ServiceAPIClient({
      url: service.endpoint,
      binding,
      tls: { ca: certs.ca, cert: certs.client.cert, key: certs.client.key },
    });
    try {
      expect((await client.SMSSend(GOOD_MESSAGE)).SMSSendResult).toMatch(MESSAGE_ID);
    } finally {
      await client.close();
    }
  });

  it('serves a client whose key is encrypted, given its passphrase', async () => {
    const { cert, key, passphrase } = certs.clientEncrypted;
    const client = new ServiceAPIClient({
      url: service.endpoint,
      binding: 'soap12',
      tls: { ca: certs.ca, cert, key, passphrase },
    });
    try {
      expect((await client.SMSSend(GOOD_MESSAGE)).SMSSendResult).toMatch(MESSAGE_ID);
    } finally {
      await client.close();
    }
  });

  it('refuses a client without a certificate at the TLS layer: a clear error, nothing handled', async () => {
    const before = service.handled();
    const client = new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', tls: { ca: certs.ca } });
    try {
      const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
      expect(error.code).toBe('TLS');
      expect(error.message).toContain(service.origin);
      expect(error.message).toMatch(/client certificate/);
    } finally {
      await client.close();
    }
    expect(service.handled()).toBe(before);
  });

  // Node's server checks the certificate after the handshake and closes without a TLS alert, so
  // the client cannot know the cause for certain: RESET, with the likely cause named.
  it('refuses a client certificate from another CA: a clear error, nothing handled', async () => {
    const before = service.handled();
    const client = new ServiceAPIClient({
      url: service.endpoint,
      binding: 'http-get',
      tls: { ca: certs.ca, cert: certs.otherClient.cert, key: certs.otherClient.key },
    });
    try {
      const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
      expect(error.code).toBe('RESET');
      expect(error.message).toContain(`${service.origin} closed the TLS connection without answering`);
      expect(error.message).toMatch(/does not accept the client certificate/);
    } finally {
      await client.close();
    }
    expect(service.handled()).toBe(before);
  });

  describe('key material refused when the client is made, never shown', () => {
    const messageOf = (make: () => unknown): string => {
      try {
        make();
      } catch (error) {
        return (error as Error).message;
      }
      return '(nothing thrown)';
    };

    it('an encrypted key without its passphrase', () => {
      const { cert, key } = certs.clientEncrypted;
      const message = messageOf(
        () => new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', tls: { cert, key } }),
      );
      expect(message).toBe('options.tls: the key is encrypted: pass its passphrase');
    });

    it('a wrong passphrase, not echoed', () => {
      const { cert, key } = certs.clientEncrypted;
      const passphrase = 'wrong-passphrase-42';
      const message = messageOf(
        () => new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', tls: { cert, key, passphrase } }),
      );
      expect(message).toBe('options.tls: the key cannot be decrypted with the passphrase given');
      expect(message).not.toContain(passphrase);
    });

    it('a wrong passphrase whose decryption passes the padding check (one in ~750) is still named as such', () => {
      const message = messageOf(
        () =>
          new ServiceAPIClient({
            url: service.endpoint,
            binding: 'soap11',
            tls: { cert: certs.client.cert, key: PADDING_PASSING.key, passphrase: PADDING_PASSING.wrongPassphrase },
          }),
      );
      expect(message).toBe('options.tls: the key cannot be decrypted with the passphrase given');
    });

    it('a key that does not belong to the certificate', () => {
      const message = messageOf(
        () =>
          new ServiceAPIClient({
            url: service.endpoint,
            binding: 'soap11',
            tls: { cert: certs.client.cert, key: certs.otherClient.key },
          }),
      );
      expect(message).toBe('options.tls: the key does not belong to the certificate');
      expect(message).not.toContain('PRIVATE KEY');
    });
  });

  describe('listen refuses unusable server settings', () => {
    const noop = (): void => {};
    it('a CA without requestCert (it would check nothing)', async () => {
      await expect(
        listen(noop, { tls: { cert: certs.server.cert, key: certs.server.key, ca: certs.ca } }),
      ).rejects.toThrow(
        /options\.tls\.ca is the CA client certificates are checked against: add options\.tls\.requestCert/,
      );
    });

    it('requestCert without the CA that issues client certificates', async () => {
      await expect(
        listen(noop, { tls: { cert: certs.server.cert, key: certs.server.key, requestCert: true } }),
      ).rejects.toThrow(/requestCert checks client certificates against options\.tls\.ca/);
    });

    it('a key that does not belong to the certificate', async () => {
      await expect(listen(noop, { tls: { cert: certs.server.cert, key: certs.client.key } })).rejects.toThrow(
        'options.tls: the key does not belong to the certificate',
      );
    });
  });
});
