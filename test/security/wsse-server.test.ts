/**
 * The server's UsernameToken check (`ServerOptions.wsSecurity`) on the generated SMS skeleton:
 * a right token reaches the handler as `context.identity`; every wrong one is a SOAP fault with
 * the WSS 1.0 fault code (SOAP 1.1 faultcode, SOAP 1.2 Subcode under Sender) and the handler is
 * never called. Tokens are written here by hand, digests computed here with node:crypto, so the
 * server is not only checked against smskit's own client.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceAPIListener } from '../../generated/service-api/index.js';
import { soap11, soap12, type SoapVersion } from '../../runtime/index.js';
import { child, qnameText, textOf } from '../../runtime/soap-version/version.js';
import { readXml } from '../../runtime/xml/reader.js';
import {
  BASE64_BINARY,
  NS,
  PASSWORD,
  PASSWORD_DIGEST,
  PASSWORD_TEXT,
  postSend,
  type RawAnswer,
  SEND_INPUT,
  startWsseServer,
  USER,
  VERSIONS,
  type WsseServer,
  WSDL_TEXT,
  WSSE_NS,
  WSU_NS,
} from './wsse-fixture.js';

interface TokenParts {
  readonly username?: string;
  readonly password?: string;
  readonly passwordType?: 'PasswordDigest' | 'PasswordText';
  /** null: no Nonce element. */
  readonly nonce?: Buffer | null;
  /** null: no Created element. */
  readonly created?: string | null;
  readonly mustUnderstand?: boolean;
  /** Replaces the computed Password text. */
  readonly passwordText?: string;
  /** More children of wsse:Security after the token. */
  readonly extra?: string;
}

/** Everything secret a test sent (passwords, digests, nonces): none may come back or be logged. */
const secrets = new Set<string>([PASSWORD, 'wrong password']);
const answers: string[] = [];

const digestOf = (nonce: Buffer, created: string, password: string): string =>
  createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(created, 'utf8'), Buffer.from(password, 'utf8')]))
    .digest('base64');

const xmlEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A `wsse:Security` block as mainstream stacks write it (digest by default, fresh nonce and Created). */
function tokenHeader(version: SoapVersion, parts: TokenParts = {}): string {
  const type = parts.passwordType ?? 'PasswordDigest';
  const nonce = parts.nonce === undefined ? randomBytes(16) : parts.nonce;
  const created = parts.created === undefined ? new Date().toISOString() : parts.created;
  const password = parts.password ?? PASSWORD;
  const passwordText =
    parts.passwordText ??
    (type === 'PasswordText' ? xmlEscape(password) : digestOf(nonce ?? Buffer.alloc(0), created ?? '', password));
  if (nonce !== null) secrets.add(nonce.toString('base64'));
  secrets.add(passwordText);
  const must = parts.mustUnderstand === false ? '' : ` soap:mustUnderstand="${version === soap11 ? '1' : 'true'}"`;
  return (
    `<wsse:Security${must} xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}"><wsse:UsernameToken>` +
    `<wsse:Username>${xmlEscape(parts.username ?? USER)}</wsse:Username>` +
    `<wsse:Password Type="${type === 'PasswordText' ? PASSWORD_TEXT : PASSWORD_DIGEST}">${passwordText}</wsse:Password>` +
    (nonce === null ? '' : `<wsse:Nonce EncodingType="${BASE64_BINARY}">${nonce.toString('base64')}</wsse:Nonce>`) +
    (created === null ? '' : `<wsu:Created>${created}</wsu:Created>`) +
    `</wsse:UsernameToken>${parts.extra ?? ''}</wsse:Security>`
  );
}

interface ReadFault {
  /** SOAP 1.1 faultcode / SOAP 1.2 Code/Value, resolved. */
  readonly code: string;
  /** SOAP 1.2 Subcode/Value, resolved. */
  readonly subcode: string | undefined;
  readonly reason: string;
}

/** The fault an answer carries, QNames as `{ns}local`. */
function faultOf(answer: RawAnswer): ReadFault {
  const root = readXml(Buffer.from(answer.text)).root;
  const body = child(root, root.ns, 'Body')!;
  const fault = child(body, root.ns, 'Fault')!;
  const name = (q: { ns: string; local: string }) => `{${q.ns}}${q.local}`;
  if (root.ns === soap11.envNs)
    return {
      code: name(qnameText(child(fault, '', 'faultcode'))),
      subcode: undefined,
      reason: textOf(child(fault, '', 'faultstring')),
    };
  const code = child(fault, root.ns, 'Code')!;
  const subcode = child(code, root.ns, 'Subcode');
  return {
    code: name(qnameText(child(code, root.ns, 'Value'))),
    subcode: subcode === undefined ? undefined : name(qnameText(child(subcode, root.ns, 'Value'))),
    reason: textOf(child(child(fault, root.ns, 'Reason')!, root.ns, 'Text')),
  };
}

async function send(server: WsseServer, version: SoapVersion, header: string): Promise<RawAnswer> {
  const answer = await postSend(server.endpoint, version, header);
  answers.push(answer.text);
  return answer;
}

/** Expects the WSS fault `code` in the request's version (1.1: faultcode; 1.2: Sender + Subcode). */
function expectWsseFault(answer: RawAnswer, version: SoapVersion, code: string): ReadFault {
  expect(answer.status).toBe(500);
  expect(answer.contentType).toBe(version.contentType);
  const fault = faultOf(answer);
  if (version === soap11) {
    expect(fault.code).toBe(`{${WSSE_NS}}${code}`);
  } else {
    expect(fault.code).toBe(`{${soap12.envNs}}Sender`);
    expect(fault.subcode).toBe(`{${WSSE_NS}}${code}`);
  }
  return fault;
}

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

describe.each(VERSIONS)('%s: a server with wsSecurity (required, digest only)', (_name, version) => {
  let server: WsseServer;
  beforeAll(async () => {
    server = await startWsseServer({});
  });
  afterAll(async () => {
    answers.push(...server.logged);
    await server.close();
  });

  it('a right PasswordDigest (marked mustUnderstand) reaches the handler with the identity', async () => {
    const answer = await send(server, version, tokenHeader(version));
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`sent as ${USER}`);
    expect(server.calls).toEqual([
      { operation: 'SMSSend', identity: { username: USER, passwordType: 'PasswordDigest' } },
    ]);
  });

  it("zeep's Created form (+00:00, whole seconds) and no mustUnderstand are accepted", async () => {
    const created = `${new Date().toISOString().slice(0, 19)}+00:00`;
    const answer = await send(server, version, tokenHeader(version, { created, mustUnderstand: false }));
    expect(answer.status).toBe(200);
    expect(server.calls).toHaveLength(2);
  });

  const refused: [string, () => string, string, RegExp][] = [
    [
      'a wrong password',
      () => tokenHeader(version, { password: 'wrong password' }),
      'FailedAuthentication',
      /^The security token could not be authenticated or authorized\.$/,
    ],
    [
      'an unknown user',
      () => tokenHeader(version, { username: 'mallory@example.com' }),
      'FailedAuthentication',
      /^The security token could not be authenticated or authorized\.$/,
    ],
    [
      'a digest of other bytes',
      () => tokenHeader(version, { passwordText: digestOf(randomBytes(16), 'x', PASSWORD) }),
      'FailedAuthentication',
      /could not be authenticated/,
    ],
    [
      'a Created 10 minutes old',
      () => tokenHeader(version, { created: minutes(-10) }),
      'MessageExpired',
      /created more than 300 s ago/,
    ],
    [
      'a Created 10 minutes ahead',
      () => tokenHeader(version, { created: minutes(10) }),
      'MessageExpired',
      /created in the future/,
    ],
    [
      'PasswordText, not allowed here',
      () => tokenHeader(version, { passwordType: 'PasswordText' }),
      'FailedAuthentication',
      /does not accept PasswordText/,
    ],
    ['no token at all', () => '', 'InvalidSecurity', /requires a WS-Security UsernameToken/],
    [
      'a Security header without a token',
      () => `<wsse:Security xmlns:wsse="${WSSE_NS}"/>`,
      'InvalidSecurity',
      /requires a WS-Security UsernameToken/,
    ],
    [
      'a digest without Nonce',
      () => tokenHeader(version, { nonce: null }),
      'InvalidSecurityToken',
      /needs a wsse:Nonce and a wsu:Created/,
    ],
    [
      'a digest without Created',
      () => tokenHeader(version, { created: null }),
      'InvalidSecurityToken',
      /needs a wsse:Nonce and a wsu:Created/,
    ],
    [
      'a Created without a time zone',
      () => tokenHeader(version, { created: new Date().toISOString().slice(0, 19) }),
      'InvalidSecurityToken',
      /wsu:Created must be an xsd:dateTime with a time zone/,
    ],
    [
      'a digest that is not Base64 SHA-1',
      () => tokenHeader(version, { passwordText: 'not-a-digest' }),
      'InvalidSecurityToken',
      /not Base64 of SHA-1/,
    ],
    [
      'a signature this server does not verify',
      () => tokenHeader(version, { extra: '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>' }),
      'UnsupportedSecurityToken',
      /Signature in <wsse:Security> is not processed/,
    ],
    [
      'an expired wsu:Timestamp',
      () =>
        tokenHeader(version, {
          extra: `<wsu:Timestamp><wsu:Created>${minutes(-20)}</wsu:Created><wsu:Expires>${minutes(-15)}</wsu:Expires></wsu:Timestamp>`,
        }),
      'MessageExpired',
      /wsu:Timestamp has expired/,
    ],
    [
      'two Security headers',
      () => tokenHeader(version) + tokenHeader(version),
      'InvalidSecurity',
      /there is more than one for this node/,
    ],
  ];
  it.each(refused)('%s: the fault and no handler call', async (_what, header, code, reason) => {
    const before = server.calls.length;
    const fault = expectWsseFault(await send(server, version, header()), version, code);
    expect(fault.reason).toMatch(reason);
    expect(server.calls.length).toBe(before);
  });

  it('an unknown user and a wrong password get the very same answer', async () => {
    const wrong = await send(server, version, tokenHeader(version, { password: 'wrong password' }));
    const unknown = await send(server, version, tokenHeader(version, { username: 'nobody@example.com' }));
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.text).toBe(wrong.text);
  });

  it('a replayed request (the same nonce again) is refused and not handled twice', async () => {
    const header = tokenHeader(version);
    const first = await send(server, version, header);
    expect(first.status).toBe(200);
    const before = server.calls.length;
    const fault = expectWsseFault(await send(server, version, header), version, 'InvalidSecurity');
    expect(fault.reason).toMatch(/nonce was already used \(a replayed request\)/);
    expect(server.calls.length).toBe(before);
  });

  it('HTTP GET and POST are answered 403 (they cannot carry a token) without calling the handler', async () => {
    const before = server.calls.length;
    const query = new URLSearchParams(SEND_INPUT).toString();
    const get = await fetch(`${server.endpoint}/SMSSend?${query}`);
    const post = await fetch(`${server.endpoint}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query,
    });
    for (const [res, method] of [
      [get, 'GET'],
      [post, 'POST'],
    ] as const) {
      expect(res.status).toBe(403);
      expect(await res.text()).toBe(
        `SMSSend requires a WS-Security UsernameToken, which HTTP ${method} cannot carry: call it over SOAP.`,
      );
    }
    expect(server.calls.length).toBe(before);
  });
});

describe.each(VERSIONS)('%s: wsSecurity options', (_name, version) => {
  it('allowPasswordText: a right PasswordText passes, a wrong one is refused', async () => {
    const server = await startWsseServer({ allowPasswordText: true });
    try {
      expect((await send(server, version, tokenHeader(version, { passwordType: 'PasswordText' }))).status).toBe(200);
      // Without Nonce and Created, as zeep sends it.
      const bare = tokenHeader(version, { passwordType: 'PasswordText', nonce: null, created: null });
      expect((await send(server, version, bare)).status).toBe(200);
      const wrong = tokenHeader(version, { passwordType: 'PasswordText', password: 'wrong password' });
      expectWsseFault(await send(server, version, wrong), version, 'FailedAuthentication');
      expect(server.calls.map((c) => c.identity)).toEqual([
        { username: USER, passwordType: 'PasswordText' },
        { username: USER, passwordType: 'PasswordText' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('required: false lets a request without a token through with no identity; a bad token is still refused', async () => {
    const server = await startWsseServer({ required: false });
    try {
      expect((await send(server, version, '')).status).toBe(200);
      expectWsseFault(
        await send(server, version, tokenHeader(version, { password: 'wrong password' })),
        version,
        'FailedAuthentication',
      );
      expect(server.calls).toEqual([{ operation: 'SMSSend', identity: null }]);
      const get = await fetch(`${server.endpoint}/SMSSend?${new URLSearchParams(SEND_INPUT)}`);
      expect(get.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('maxNonces: a full cache drops the oldest nonce, whose replay is then refused as expired (logged)', async () => {
    const server = await startWsseServer({ maxNonces: 2, maxNoncesPerUser: 2 });
    try {
      const headers = [-3, -2, -1].map((n) => tokenHeader(version, { created: minutes(n) }));
      for (const header of headers) expect((await send(server, version, header)).status).toBe(200);
      const fault = expectWsseFault(await send(server, version, headers[0]!), version, 'MessageExpired');
      expect(fault.reason).toMatch(/older than this server now accepts/);
      expect(server.calls).toHaveLength(3);
      expect(server.logged).toEqual([expect.stringMatching(/^ws-security: the nonce cache is full \(2 nonces/)]);
      answers.push(...server.logged);
    } finally {
      await server.close();
    }
  });

  it('maxNoncesPerUser: one user flooding with future-dated tokens is refused alone; others still pass', async () => {
    const passwordOf = (user: string) => (user === USER || user === 'bob' ? PASSWORD : undefined);
    const server = await startWsseServer({ passwordOf, maxNonces: 4, maxNoncesPerUser: 2 });
    try {
      const flood = [0, 1, 2, 3, 4].map(() => tokenHeader(version, { created: minutes(0.9) }));
      expect((await send(server, version, flood[0]!)).status).toBe(200);
      expect((await send(server, version, flood[1]!)).status).toBe(200);
      for (const header of flood.slice(2)) {
        const fault = expectWsseFault(await send(server, version, header), version, 'InvalidSecurity');
        expect(fault.reason).toMatch(/more UsernameTokens within 300 s than this server remembers for one user/);
      }
      expect((await send(server, version, tokenHeader(version, { username: 'bob' }))).status).toBe(200);
      expectWsseFault(await send(server, version, flood[0]!), version, 'InvalidSecurity');
      expect(server.logged).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a PasswordText Nonce without Created is refused (it could be replayed once forgotten)', async () => {
    const server = await startWsseServer({ allowPasswordText: true });
    try {
      const header = tokenHeader(version, { passwordType: 'PasswordText', created: null });
      const fault = expectWsseFault(await send(server, version, header), version, 'InvalidSecurityToken');
      expect(fault.reason).toMatch(/a wsse:Nonce needs a wsu:Created/);
      expect(server.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('a bad token with an undecodable Body gets the WSS fault, not a codec fault', async () => {
    const server = await startWsseServer({});
    try {
      const header = tokenHeader(version, { password: 'wrong password' });
      const envelope =
        `<soap:Envelope xmlns:soap="${version.envNs}"><soap:Header>${header}</soap:Header>` +
        `<soap:Body><SMSSend xmlns="${NS}"><nosuchfield>1</nosuchfield></SMSSend></soap:Body></soap:Envelope>`;
      const res = await fetch(server.endpoint, {
        method: 'POST',
        headers:
          version === soap11
            ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}SMSSend"` }
            : { 'content-type': `application/soap+xml; charset=utf-8; action="${NS}SMSSend"` },
        body: envelope,
      });
      const answer = { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
      answers.push(answer.text);
      expectWsseFault(answer, version, 'FailedAuthentication');
      expect(server.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('passwordOf failing is a Server fault, logged without the password, and no handler call', async () => {
    const server = await startWsseServer({
      passwordOf: async () => {
        throw new Error(`database down while reading ${PASSWORD}`);
      },
    });
    try {
      const answer = await send(server, version, tokenHeader(version));
      expect(answer.status).toBe(500);
      expect(faultOf(answer).code).toBe(`{${version.envNs}}${version === soap11 ? 'Server' : 'Receiver'}`);
      expect(server.logged).toHaveLength(1);
      expect(server.logged[0]).toMatch(/^SMSSend \(soap1[12]\): wsSecurity.passwordOf failed: Error/);
      answers.push(...server.logged);
      expect(server.calls).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe.each(VERSIONS)('%s: a server without wsSecurity', (_name, version) => {
  let server: WsseServer;
  beforeAll(async () => {
    server = await startWsseServer(undefined);
  });
  afterAll(async () => {
    await server.close();
  });

  it('faults MustUnderstand on a wsse:Security header marked mustUnderstand, without calling the handler', async () => {
    const answer = await send(server, version, tokenHeader(version));
    expect(answer.status).toBe(500);
    expect(faultOf(answer).code).toBe(`{${version.envNs}}MustUnderstand`);
    expect(server.calls).toHaveLength(0);
  });

  it('ignores one that is not marked (identity undefined)', async () => {
    const answer = await send(server, version, tokenHeader(version, { mustUnderstand: false }));
    expect(answer.status).toBe(200);
    expect(server.calls).toEqual([{ operation: 'SMSSend', identity: null }]);
  });
});

describe('options are checked when the listener is made', () => {
  const make = (wsSecurity: unknown) => () =>
    createServiceAPIListener(
      { SMSSend: () => ({}), SMSSendToPort: () => ({}) },
      // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong options
      { wsdl: WSDL_TEXT, wsSecurity: wsSecurity as any },
    );
  const passwordOf = (): string => 'x';
  it.each<[object, RegExp]>([
    [{}, /passwordOf must be a function/],
    [{ passwordOf, nonceWindowMs: 1 }, /Unknown wsSecurity option: nonceWindowMs/],
    [{ passwordOf, maxNonces: 0 }, /maxNonces must be a positive number/],
    [{ passwordOf, required: 'yes' }, /required must be a boolean/],
  ])('%o', (options, message) => {
    expect(make(options)).toThrow(message);
  });
});

it('no password, digest or nonce appears in any answer or log line', () => {
  expect(answers.length).toBeGreaterThan(40);
  for (const text of answers)
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(xmlEscape(secret));
    }
});
