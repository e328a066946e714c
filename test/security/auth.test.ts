/**
 * HTTP authentication and one's own dispatcher: `auth` reaches the server as an Authorization
 * header on every binding, a call's own header replaces it, conflicting options are refused;
 * no password, token or its Base64 form appears in any error; a caller's undici dispatcher is
 * used as given and left open by close().
 */
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { TransportError, type Protocol } from '../../runtime/index.js';
import { GOOD_MESSAGE, startTestService, type TestService } from './https-service.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
const USER = 'api-user';
const PASSWORD = 'basic pässword 31';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl';

let service: TestService;
beforeAll(async () => {
  service = await startTestService(undefined);
});
afterAll(() => service?.close());

async function sendOnce(client: ServiceAPIClient, headers?: Record<string, string>): Promise<string | undefined> {
  try {
    return (await client.SMSSend(GOOD_MESSAGE, headers === undefined ? {} : { headers })).SMSSendResult;
  } finally {
    await client.close();
  }
}

const lastAuthorization = (): unknown => service.seenHeaders.at(-1)?.authorization;

describe('HTTP authentication', () => {
  it.each(BINDINGS)('Basic reaches the server as Authorization over %s', async (binding) => {
    const id = await sendOnce(
      new ServiceAPIClient({
        url: service.endpoint,
        binding,
        auth: { type: 'basic', username: USER, password: PASSWORD },
      }),
    );
    expect(id).toMatch(MESSAGE_ID);
    expect(lastAuthorization()).toBe(BASIC);
  });

  it.each(BINDINGS)('Bearer reaches the server as Authorization over %s', async (binding) => {
    const id = await sendOnce(
      new ServiceAPIClient({ url: service.endpoint, binding, auth: { type: 'bearer', token: TOKEN } }),
    );
    expect(id).toMatch(MESSAGE_ID);
    expect(lastAuthorization()).toBe(`Bearer ${TOKEN}`);
  });

  it("sits beside the client's other headers, and a call's own Authorization replaces it for that call", async () => {
    const client = new ServiceAPIClient({
      url: service.endpoint,
      binding: 'soap11',
      auth: { type: 'bearer', token: TOKEN },
      headers: { 'x-tenant': 'acme' },
    });
    try {
      await client.SMSSend(GOOD_MESSAGE);
      expect(service.seenHeaders.at(-1)).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-tenant': 'acme' });
      await client.SMSSend(GOOD_MESSAGE, { headers: { Authorization: 'Bearer refreshed' } });
      expect(lastAuthorization()).toBe('Bearer refreshed');
      await client.SMSSend(GOOD_MESSAGE);
      expect(lastAuthorization()).toBe(`Bearer ${TOKEN}`);
    } finally {
      await client.close();
    }
  });

  describe('options refused when the client is made, never echoing the secret', () => {
    const refusal = (options: object): string => {
      try {
        new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', ...options });
      } catch (error) {
        return (error as Error).message;
      }
      return '(nothing thrown)';
    };

    it.each([
      [
        'auth beside an Authorization header',
        { auth: { type: 'bearer', token: TOKEN }, headers: { authorization: 'Basic x' } },
        /options\.auth and an Authorization header in options\.headers conflict/,
      ],
      [
        'a colon in a Basic user name',
        { auth: { type: 'basic', username: 'a:b', password: PASSWORD } },
        /cannot contain a colon/,
      ],
      [
        'a line break in a password',
        { auth: { type: 'basic', username: USER, password: 'secret-line\r\nX-Injected: 1' } },
        /password cannot contain control characters/,
      ],
      [
        'a token with spaces',
        { auth: { type: 'bearer', token: 'secret token value' } },
        /must be a non-empty bearer token/,
      ],
      [
        'an unknown type',
        { auth: { type: 'digest', token: TOKEN } },
        /options\.auth\.type must be 'basic' or 'bearer'/,
      ],
    ])('%s', (_name, options, message) => {
      const text = refusal(options);
      expect(text).toMatch(message);
      for (const secret of [PASSWORD, TOKEN, 'secret-line', 'secret token value']) expect(text).not.toContain(secret);
    });
  });

  it('keeps every credential out of transport errors, also where a peer echoes it', async () => {
    // A dispatcher whose failure repeats what it was sent, as a careless proxy or server might.
    const echoing = {
      request: (options: Dispatcher.RequestOptions) =>
        Promise.reject(
          Object.assign(new Error(`reset while sending ${JSON.stringify(options.headers)} ${String(options.body)}`), {
            code: 'ECONNRESET',
          }),
        ),
      close: () => Promise.resolve(),
    } as unknown as Dispatcher;
    const wsse = { username: 'wsse-user', password: 'wsse secret 19', passwordType: 'PasswordText' } as const;
    for (const credentials of [
      { auth: { type: 'basic', username: USER, password: PASSWORD } },
      { auth: { type: 'bearer', token: TOKEN } },
      { wsse },
    ] as const) {
      const client = new ServiceAPIClient({
        url: service.endpoint,
        binding: 'soap11',
        ...credentials,
        dispatcher: echoing,
      });
      const error = await client.SMSSend(GOOD_MESSAGE).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      const text = `${(error as Error).message}\n${String((error as Error).stack)}`;
      expect(text).toContain('[redacted]');
      for (const secret of [PASSWORD, TOKEN, BASIC.slice('Basic '.length), wsse.password])
        expect(text).not.toContain(secret);
    }
  });

  it('keeps credentials out of errors when the server is gone', async () => {
    const gone = await startTestService(undefined);
    await gone.close();
    const client = new ServiceAPIClient({
      url: gone.endpoint,
      binding: 'soap12',
      auth: { type: 'basic', username: USER, password: PASSWORD },
    });
    const error = await client.SMSSend(GOOD_MESSAGE).then(
      () => undefined,
      (e: unknown) => e,
    );
    await client.close();
    expect((error as TransportError).code).toBe('REFUSED');
    expect(String((error as Error).message)).not.toContain(PASSWORD);
  });
});

describe("one's own undici dispatcher", () => {
  it('is used for every call and left open by close()', async () => {
    const origins: string[] = [];
    const agent = new Agent();
    const counting = agent.compose((dispatch) => (options, handler) => {
      origins.push(String(options.origin));
      return dispatch(options, handler);
    });
    try {
      for (const binding of BINDINGS) {
        const client = new ServiceAPIClient({ url: service.endpoint, binding, dispatcher: counting });
        expect(await sendOnce(client)).toMatch(MESSAGE_ID);
      }
      expect(origins).toEqual(BINDINGS.map(() => service.origin));
      expect(agent.closed).toBe(false);
    } finally {
      await agent.close();
    }
  });

  it.each([
    ['tls', { tls: { servername: 'x' } }],
    ['proxy', { proxy: 'http://127.0.0.1:1' }],
    ['connections', { connections: 4 }],
  ])('refuses %s beside it (they are the dispatcher’s to set)', async (name, extra) => {
    const agent = new Agent();
    try {
      expect(
        () => new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', dispatcher: agent, ...extra }),
      ).toThrow(`options.dispatcher replaces the client's own connections: options.${name} cannot be given with it`);
    } finally {
      await agent.close();
    }
  });

  it('refuses something that is not a dispatcher', () => {
    expect(
      () => new ServiceAPIClient({ url: service.endpoint, binding: 'soap11', dispatcher: {} as unknown as Dispatcher }),
    ).toThrow(/options\.dispatcher must be an undici Dispatcher/);
  });
});

describe('WS-Security UsernameToken option', () => {
  it('is refused over HTTP GET/POST, which have no SOAP header', () => {
    for (const binding of ['http-get', 'http-post'] as const)
      expect(
        () => new ServiceAPIClient({ url: service.endpoint, binding, wsse: { username: 'u', password: 'p' } }),
      ).toThrow(`wsse (a WS-Security UsernameToken) cannot be sent over ${binding}`);
  });

  it('reaches the SOAP request builder (a wsse:Security header in the envelope)', async () => {
    const { ServiceClient } = await import('../../runtime/index.js');
    const { ServiceAPIDescriptor } = await import('../../generated/service-api/descriptor.js');
    const client = new ServiceClient(ServiceAPIDescriptor, {
      url: service.endpoint,
      binding: 'soap12',
      wsse: { username: 'wsse-user', password: 'wsse-secret', passwordType: 'PasswordText' },
    });
    try {
      const request = client.buildRequest('SMSSend', GOOD_MESSAGE);
      expect(request.body).toMatch(/<wsse:Security[\s>]/);
      expect(request.body).toContain('wsse-user');
    } finally {
      await client.close();
    }
  });
});
