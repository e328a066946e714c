/**
 * The service over the real wire runtime (node:http on port 0): SOAP 1.1, SOAP 1.2, HTTP GET and
 * POST, success and refusal; the server is the generated skeleton with the service's handlers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_ID_PATTERN } from '../../service/store/ids.js';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { openSqliteStore, sqliteDatabaseOf } from '../../service/store/index.js';

const NS = 'http://smskit.dev/serviceapi/';
const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'smskit-server-'));
const logged: string[] = [];
let server: SmsServer;

beforeAll(async () => {
  server = await startSmsServer({
    dbPath: join(dir, 'server.db'),
    scrypt: { logN: 10, r: 8, p: 1 },
    http: { logger: { error: (line) => logged.push(line) } },
  });
  await server.app.accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME'] });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

type Params = Record<string, string>;
const good: Params = {
  keyword: 'ACME',
  emailAddress: 'alice@example.com',
  password: PASSWORD,
  smsto: '+14155550123',
  carrierCode: 'att',
  smsmsg: 'Grüße 😀',
};
const xmlEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function soapBody(version: '1.1' | '1.2', op: string, params: Params): string {
  const env =
    version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  const children = Object.entries(params)
    .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
    .join('');
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${env}"><s:Body><${op} xmlns="${NS}">${children}</${op}></s:Body></s:Envelope>`;
}

type Binding = 'soap11' | 'soap12' | 'http-get' | 'http-post';
async function call(
  binding: Binding,
  op: string,
  params: Params,
): Promise<{ status: number; type: string; body: string }> {
  let response: Response;
  if (binding === 'soap11') {
    response = await fetch(`${server.url}/serviceapi.asmx`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${NS}${op}"` },
      body: soapBody('1.1', op, params),
    });
  } else if (binding === 'soap12') {
    response = await fetch(`${server.url}/serviceapi.asmx`, {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml; charset=utf-8' },
      body: soapBody('1.2', op, params),
    });
  } else if (binding === 'http-get') {
    response = await fetch(`${server.url}/serviceapi.asmx/${op}?${new URLSearchParams(params).toString()}`);
  } else {
    response = await fetch(`${server.url}/serviceapi.asmx/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

const BINDINGS: Binding[] = ['soap11', 'soap12', 'http-get', 'http-post'];

describe('SMS service on every binding', () => {
  const cases: Array<[string, { given: { op: string; params: Params }; want: { id: true } | { code: string } }]> = [
    ['SMSSend success', { given: { op: 'SMSSend', params: good }, want: { id: true } }],
    [
      'SMSSendToPort success',
      { given: { op: 'SMSSendToPort', params: { ...good, port: '2948' } }, want: { id: true } },
    ],
    [
      'wrong password',
      {
        given: { op: 'SMSSend', params: { ...good, password: 'wrong password' } },
        want: { code: 'AuthenticationFailed' },
      },
    ],
    [
      'bad recipient',
      { given: { op: 'SMSSend', params: { ...good, smsto: 'call me' } }, want: { code: 'InvalidRecipient' } },
    ],
    ['bad port', { given: { op: 'SMSSendToPort', params: { ...good, port: '65536' } }, want: { code: 'InvalidPort' } }],
  ];
  const table = BINDINGS.flatMap((binding) =>
    cases.map(([name, c]): [string, Binding, typeof c] => [`${binding}: ${name}`, binding, c]),
  );

  it.each(table)('%s', async (_name, binding, { given, want }) => {
    const before = await server.app.store.countOutbox();
    const { status, type, body } = await call(binding, given.op, given.params);
    expect(body).not.toContain(PASSWORD);
    if ('id' in want) {
      expect(status).toBe(200);
      const id = /(SMS-[0-9A-Z]{26})</.exec(body)?.[1] ?? '';
      expect(id).toMatch(MESSAGE_ID_PATTERN);
      expect((await server.app.store.listOutbox({ afterId: '' })).find((m) => m.id === id)?.smsmsg).toBe(good.smsmsg);
      return;
    }
    expect(status).toBe(500);
    if (binding === 'soap11' || binding === 'soap12') {
      expect(body).toMatch(binding === 'soap11' ? /<faultcode>[^<]*Client<\/faultcode>/ : /Sender/);
      expect(body).toContain(want.code);
      expect(body).toMatch(
        new RegExp(
          `<faultstring>${want.code}: |<soap:Text xml:lang="en">${want.code}: |<[a-z0-9]+:Text[^>]*>${want.code}: `,
        ),
      );
    } else {
      expect(type).toMatch(/^text\/plain/);
      expect(body).toMatch(new RegExp(`^${want.code}: [^\n]+$`));
    }
    expect(await server.app.store.countOutbox()).toBe(before);
  });

  it('a storage failure is a Server fault with a log line, and nothing is stored', async () => {
    sqliteDatabaseOf(server.app.store).exec(
      `CREATE TRIGGER s_fail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'simulated'); END;`,
    );
    try {
      const before = await server.app.store.countOutbox();
      const { status, body } = await call('soap11', 'SMSSend', good);
      expect(status).toBe(500);
      expect(body).toMatch(/<faultcode>[^<]*Server<\/faultcode>/);
      expect(await server.app.store.countOutbox()).toBe(before);
      expect(logged.some((line) => line.includes('StorageError') && line.includes('SQLITE_CONSTRAINT_TRIGGER'))).toBe(
        true,
      );
    } finally {
      sqliteDatabaseOf(server.app.store).exec('DROP TRIGGER s_fail');
    }
    expect((await call('soap11', 'SMSSend', good)).status).toBe(200);
  });
});

describe('graceful close', () => {
  it('answers every accepted request and stores it before the outbox closes', async () => {
    const dbPath = join(dir, 'graceful.db');
    const local = await startSmsServer({
      dbPath,
      scrypt: { logN: 10, r: 8, p: 1 },
      http: { logger: { error: (line) => logged.push(line) } },
    });
    await local.app.accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME'] });
    const total = 200;
    let received = 0;
    let closing: Promise<void> | undefined;
    // Close the moment the last request has been received: all of them are then in flight.
    local.server.on('request', () => {
      if (++received === total) closing = local.close();
    });
    const form = new URLSearchParams(good).toString();
    const outcomes = await Promise.all(
      Array.from({ length: total }, () => postOnce(`${local.url}/serviceapi.asmx/SMSSend`, form)),
    );
    await closing;
    const ids = outcomes.map((o) => /(SMS-[0-9A-Z]{26})</.exec(o.body)?.[1]);
    expect(outcomes.filter((o) => o.status !== 200)).toEqual([]);
    const reopened = openSqliteStore({ path: dbPath });
    const stored = new Set((await reopened.listOutbox()).map((m) => m.id));
    await reopened.close();
    expect(ids.filter((id) => id === undefined || !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(total);
  });
});

/** One POST on its own connection (no pooling, so no keep-alive reuse races). */
function postOnce(url: string, form: string): Promise<{ status: number; body: string }> {
  return new Promise((resolvePost) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) },
      },
      (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk: string) => (body += chunk))
          .on('end', () => resolvePost({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', (error) => resolvePost({ status: 0, body: error.message }));
    req.end(form);
  });
}
