/**
 * Proxies: the generated client through a forward proxy that records what passes, so each test
 * proves the proxy was (or was not) used: CONNECT tunnels for https targets, absolute-form
 * requests for http ones, credentials from the proxy URL as Proxy-Authorization, the
 * HTTP(S)_PROXY / NO_PROXY variables with `{ fromEnv: true }`. Proxy credentials never appear
 * in an error.
 */
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { TransportError, type Protocol } from '../../runtime/index.js';
import { makeCertificates, type TestCertificates } from '../helpers/certificates.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { GOOD_MESSAGE, startTestService, type TestService } from './https-service.js';
import { requirePeer } from '../helpers/peers.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
const SKIP = requirePeer('openssl', 'security/proxy').reason;
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'] as const;

async function send(client: ServiceAPIClient): Promise<string | undefined> {
  try {
    return (await client.SMSSend(GOOD_MESSAGE)).SMSSendResult;
  } finally {
    await client.close();
  }
}

async function transportFailure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe.skipIf(SKIP !== undefined)('through a forward proxy', () => {
  let certs: TestCertificates;
  let secure: TestService;
  let plain: TestService;
  let proxy: ForwardProxy;
  const saved = new Map<string, string | undefined>(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  beforeAll(async () => {
    certs = await makeCertificates();
    secure = await startTestService({ cert: certs.server.cert, key: certs.server.key });
    plain = await startTestService(undefined);
  });
  afterAll(async () => {
    await Promise.all([secure?.close(), plain?.close()]);
    certs?.remove();
  });
  beforeAll(async () => {
    proxy = await startForwardProxy();
  });
  afterAll(() => proxy?.close());
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const hostOf = (service: TestService): string => new URL(service.origin).host;

  it.each(BINDINGS)('reaches an https service through a CONNECT tunnel over %s', async (binding) => {
    const tunnels = proxy.connects.length;
    const handled = secure.handled();
    const id = await send(
      new ServiceAPIClient({ url: secure.endpoint, binding, proxy: proxy.url, tls: { ca: certs.ca } }),
    );
    expect(id).toMatch(MESSAGE_ID);
    expect(proxy.connects.slice(tunnels)).toEqual([hostOf(secure)]);
    expect(secure.handled()).toBe(handled + 1);
  });

  it.each(BINDINGS)('reaches an http service with absolute-form requests over %s', async (binding) => {
    const before = proxy.requests.length;
    const id = await send(new ServiceAPIClient({ url: plain.endpoint, binding, proxy: proxy.url }));
    expect(id).toMatch(MESSAGE_ID);
    const forwarded = proxy.requests.slice(before);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]).toMatch(new RegExp(`^http://${hostOf(plain)}/serviceapi\\.asmx`));
  });

  it('checks the service certificate inside the tunnel: the wrong CA is a TLS error', async () => {
    const handled = secure.handled();
    const client = new ServiceAPIClient({
      url: secure.endpoint,
      binding: 'soap11',
      proxy: proxy.url,
      tls: { ca: certs.otherCa },
    });
    try {
      const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
      expect(error.code).toBe('TLS');
      expect(error.message).toMatch(/unknown CA/);
      expect(error.message).toContain(`through the proxy ${proxy.url}/`);
    } finally {
      await client.close();
    }
    expect(secure.handled()).toBe(handled);
  });

  describe('with credentials in the proxy URL', () => {
    const user = 'proxy-user';
    const password = 'proxy pässword:42';
    const encoded = encodeURIComponent(password);
    const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    let guarded: ForwardProxy;
    beforeAll(async () => {
      guarded = await startForwardProxy({ requireAuthorization: expected });
    });
    afterAll(() => guarded?.close());
    const withCredentials = (secret: string): string => guarded.url.replace('http://', `http://${user}:${secret}@`);

    it('sends them as Proxy-Authorization, for CONNECT and for absolute-form requests', async () => {
      expect(
        await send(
          new ServiceAPIClient({
            url: secure.endpoint,
            binding: 'soap11',
            proxy: withCredentials(encoded),
            tls: { ca: certs.ca },
          }),
        ),
      ).toMatch(MESSAGE_ID);
      expect(
        await send(new ServiceAPIClient({ url: plain.endpoint, binding: 'http-get', proxy: withCredentials(encoded) })),
      ).toMatch(MESSAGE_ID);
      expect(guarded.proxyAuthorizations.slice(-2)).toEqual([expected, expected]);
    });

    it.each([
      ['https', () => secure.endpoint],
      ['http', () => plain.endpoint],
    ])('a refusal (407) of an %s request is REFUSED, without the credentials', async (_scheme, endpoint) => {
      const wrong = 'wrong-proxy-secret-77';
      const client = new ServiceAPIClient({
        url: endpoint(),
        binding: 'soap11',
        proxy: withCredentials(wrong),
        tls: { ca: certs.ca },
      });
      try {
        const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('REFUSED');
        expect(error.message).toContain('407');
        const shown = `${error.message}\n${String(error.stack)}`;
        for (const secret of [wrong, Buffer.from(`${user}:${wrong}`).toString('base64')])
          expect(shown).not.toContain(secret);
      } finally {
        await client.close();
      }
    });
  });

  it('names the proxy when it cannot be reached, and never its credentials', async () => {
    const gone = await startForwardProxy();
    const url = gone.url.replace('http://', 'http://someone:gone-secret-5@');
    await gone.close();
    const client = new ServiceAPIClient({ url: plain.endpoint, binding: 'soap11', proxy: url });
    try {
      const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
      expect(error.code).toBe('REFUSED');
      expect(error.message).toContain(`(through the proxy ${gone.url}/)`);
      expect(`${error.message}${String(error.stack)}`).not.toContain('gone-secret-5');
    } finally {
      await client.close();
    }
  });

  it.each(['https', 'http'])(
    'ends a call through a proxy that never answers at the time limit (%s target)',
    async (scheme) => {
      const held: Socket[] = [];
      const silent = createServer((socket) => held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as AddressInfo).port;
      const target = scheme === 'https' ? secure : plain;
      const client = new ServiceAPIClient({
        url: target.endpoint,
        binding: 'soap11',
        proxy: `http://127.0.0.1:${port}`,
        timeoutMs: 1_000,
        ...(scheme === 'https' ? { tls: { ca: certs.ca } } : {}),
      });
      try {
        const error = await transportFailure(client.SMSSend(GOOD_MESSAGE));
        expect(error.code).toBe('TIMEOUT');
      } finally {
        await client.close();
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    },
    5_000,
  );

  describe('from the environment ({ fromEnv: true })', () => {
    const setProxyVariables = (values: Partial<Record<(typeof PROXY_VARIABLES)[number], string>>): void => {
      for (const name of PROXY_VARIABLES) delete process.env[name];
      Object.assign(process.env, values);
    };

    it('uses HTTPS_PROXY for https and HTTP_PROXY for http targets', async () => {
      setProxyVariables({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
      const [tunnels, forwarded] = [proxy.connects.length, proxy.requests.length];
      expect(
        await send(
          new ServiceAPIClient({
            url: secure.endpoint,
            binding: 'soap12',
            proxy: { fromEnv: true },
            tls: { ca: certs.ca },
          }),
        ),
      ).toMatch(MESSAGE_ID);
      expect(
        await send(new ServiceAPIClient({ url: plain.endpoint, binding: 'http-post', proxy: { fromEnv: true } })),
      ).toMatch(MESSAGE_ID);
      expect(proxy.connects.slice(tunnels)).toEqual([hostOf(secure)]);
      expect(proxy.requests.slice(forwarded)).toHaveLength(1);
    });

    it('honours NO_PROXY: an excluded host is reached directly', async () => {
      setProxyVariables({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
      const [tunnels, forwarded, handled] = [proxy.connects.length, proxy.requests.length, plain.handled()];
      expect(
        await send(
          new ServiceAPIClient({
            url: secure.endpoint,
            binding: 'soap11',
            proxy: { fromEnv: true },
            tls: { ca: certs.ca },
          }),
        ),
      ).toMatch(MESSAGE_ID);
      expect(
        await send(new ServiceAPIClient({ url: plain.endpoint, binding: 'http-get', proxy: { fromEnv: true } })),
      ).toMatch(MESSAGE_ID);
      expect(proxy.connects.length).toBe(tunnels);
      expect(proxy.requests.length).toBe(forwarded);
      expect(plain.handled()).toBe(handled + 1);
    });

    it('goes direct when no variable is set', async () => {
      setProxyVariables({});
      const [tunnels, forwarded] = [proxy.connects.length, proxy.requests.length];
      expect(
        await send(new ServiceAPIClient({ url: plain.endpoint, binding: 'soap11', proxy: { fromEnv: true } })),
      ).toMatch(MESSAGE_ID);
      expect([proxy.connects.length, proxy.requests.length]).toEqual([tunnels, forwarded]);
    });

    it('refuses a variable that is not a proxy URL, naming the variable and not its value', () => {
      setProxyVariables({ HTTPS_PROXY: 'socks://user:env-secret@host:1/' });
      let message = '';
      try {
        new ServiceAPIClient({ url: secure.endpoint, binding: 'soap11', proxy: { fromEnv: true } });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/HTTPS_PROXY environment variable must be an http:\/\/ or https:\/\/ proxy URL/);
      expect(message).not.toContain('env-secret');
    });
  });

  it.each([
    ['not a URL', 'http://proxy example:3128', /options\.proxy is not a URL/],
    ['without a scheme', 'proxy.example:3128', /must be an http:\/\/ or https:\/\/ proxy URL/],
    ['a path', 'http://proxy.example:3128/path', /no path or query/],
    ['an object other than { fromEnv: true }', { fromEnv: false }, /a proxy URL or \{ fromEnv: true \}/],
  ])('refuses a proxy option that is %s', (_name, option, message) => {
    expect(() => new ServiceAPIClient({ url: plain.endpoint, binding: 'soap11', proxy: option as never })).toThrow(
      message,
    );
  });
});
