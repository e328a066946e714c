/**
 * The status service (GetMessageStatus at /statusapi.asmx) on the real wire runtime, called with
 * smskit's generated StatusAPIClient over each of the four bindings: the state of the account's
 * own message (queued, and a rejected one with its error), and every refusal, on every binding,
 * with the same code: wrong password, locked account, another account's message and an unknown
 * id (the same answer, so an account cannot tell them apart), an empty or absent messageId, an
 * over-long or malformed one. Beside it /serviceapi.asmx?wsdl stays the committed contract's bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusAPIClient } from '../../generated/status-api/client.js';
import type { GetMessageStatus } from '../../generated/status-api/types.js';
import { SoapFaultError } from '../../runtime/index.js';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { repoRoot } from '../helpers/cli.js';

const BINDINGS = ['soap11', 'soap12', 'http-get', 'http-post'] as const;
const STATUS_WSDL = readFileSync(join(repoRoot, 'wsdl/statusapi.wsdl'), 'utf8');
const SMS_WSDL = readFileSync(join(repoRoot, 'wsdl/serviceapi.wsdl'), 'utf8');
const ALICE = { emailAddress: 'alice@example.com', password: 'alice password 1' };
const BOB = { emailAddress: 'bob@example.com', password: 'bob password 22' };
const LOCKED = { emailAddress: 'locked@example.com', password: 'locked password 3' };
const UNKNOWN_ID = 'SMS-01ZZZZZZZZZZZZZZZZZZZZZZZZ';
const MAX_FAILURES = 3;

const dir = mkdtempSync(join(tmpdir(), 'smskit-status-'));
let server: SmsServer;
let queuedId: string;
let rejectedId: string;
let bobsId: string;

async function send(account: typeof ALICE): Promise<string> {
  return server.app.sms.send({
    operation: 'SMSSend',
    input: { keyword: 'ACME', ...account, smsto: '+14155550123', carrierCode: 'att', smsmsg: 'hello' },
  });
}

/** One delivery attempt the SMSC refused: the message becomes `rejected` with the SMSC's error. */
async function reject(id: string): Promise<void> {
  const now = Date.now();
  const route = 'test-route';
  const claimed = await server.app.store.delivery.claim({
    route,
    carriers: { except: [] },
    limit: 10,
    owner: 'status-test',
    now,
    leaseUntil: now + 60_000,
  });
  const mine = claimed.find((message) => message.id === id)!;
  const [applied] = await server.app.store.delivery.apply([
    {
      kind: 'final',
      id,
      owner: 'status-test',
      at: now + 1,
      attempt: mine.attempt,
      route,
      state: 'rejected',
      code: '0x0000000B',
      text: 'invalid destination address',
    },
  ]);
  expect(applied).toBe(true);
}

beforeAll(async () => {
  server = await startSmsServer({
    dbPath: join(dir, 'status.db'),
    scrypt: { logN: 10, r: 8, p: 1 },
    authLimits: {
      perAccount: { maxFailures: MAX_FAILURES, windowMs: 60_000 },
      perAddress: { maxFailures: 1_000, windowMs: 60_000 },
    },
    statusWsdl: STATUS_WSDL,
    http: { wsdl: SMS_WSDL, logger: { error: () => {} } },
  });
  for (const account of [ALICE, BOB, LOCKED])
    await server.app.accounts.add({ email: account.emailAddress, password: account.password, keywords: ['ACME'] });
  rejectedId = await send(ALICE);
  await reject(rejectedId);
  queuedId = await send(ALICE);
  bobsId = await send(BOB);
  for (let i = 0; i < MAX_FAILURES; i++)
    await expect(server.app.accounts.authenticate(LOCKED.emailAddress, 'wrong')).rejects.toThrow();
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(binding: (typeof BINDINGS)[number]): StatusAPIClient {
  return new StatusAPIClient({ url: `${server.url}/statusapi.asmx`, binding });
}

/** The refusal's code as the client sees it (SOAP detail, or the GET/POST error header). */
async function refusal(binding: (typeof BINDINGS)[number], input: GetMessageStatus): Promise<string> {
  const c = client(binding);
  try {
    await c.GetMessageStatus(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SoapFaultError);
    const fault = error as SoapFaultError;
    if (input.password) expect(fault.message).not.toContain(input.password);
    return `${fault.code}/${fault.detail.code ?? fault.subcode}`;
  } finally {
    await c.close();
  }
  throw new Error(`${binding}: GetMessageStatus answered, a fault was expected`);
}

describe.each(BINDINGS)('GetMessageStatus over %s', (binding) => {
  const clientFault = binding === 'soap12' ? 'Sender' : 'Client';

  it("reads the account's own messages: their state, when it changed, attempts and the SMSC's error", async () => {
    const c = client(binding);
    try {
      const queued = (await c.GetMessageStatus({ ...ALICE, messageId: queuedId })).GetMessageStatusResult;
      const stored = (await server.app.store.getMessage(queuedId))!;
      expect(queued).toEqual({ State: 'queued', Updated: new Date(stored.updatedAt).toISOString(), Attempts: 0 });
      const rejected = (await c.GetMessageStatus({ ...ALICE, messageId: rejectedId })).GetMessageStatusResult;
      expect(rejected).toMatchObject({
        State: 'rejected',
        Attempts: 1,
        ErrorCode: '0x0000000B',
        ErrorText: 'invalid destination address',
      });
      expect(Date.parse(rejected!.Updated)).toBeGreaterThanOrEqual(stored.createdAt - 60_000);
    } finally {
      await c.close();
    }
  });

  it.each([
    ['a wrong password', { ...ALICE, password: 'not the password' }, 'AuthenticationFailed'],
    ['a locked account (even with its password)', LOCKED, 'TooManyAttempts'],
    ['an empty messageId', { ...ALICE, messageId: '' }, 'MissingParameter'],
    ['an empty password', { ...ALICE, password: '' }, 'MissingParameter'],
    ['an over-long messageId', { ...ALICE, messageId: `SMS-${'0'.repeat(5_000)}` }, 'InvalidMessageId'],
    ['a messageId that is no id', { ...ALICE, messageId: 'SMS-01M8JDAQB47FRHYSR4YS1GVSHU' }, 'InvalidMessageId'],
    ['an unknown id', { ...ALICE, messageId: UNKNOWN_ID }, 'UnknownMessage'],
  ] as const)('refuses %s', async (_name, given, code) => {
    const input = { messageId: queuedId, ...given };
    expect(await refusal(binding, input)).toBe(`${clientFault}/${code}`);
  });

  it("answers another account's message exactly as an unknown id", async () => {
    const answers: string[] = [];
    for (const messageId of [bobsId, UNKNOWN_ID]) {
      const response = await fetch(`${server.url}/statusapi.asmx/GetMessageStatus`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...ALICE, messageId }).toString(),
      });
      answers.push(`${response.status} ${response.headers.get('x-smskit-error-code')} ${await response.text()}`);
    }
    expect(answers[0]).toBe(answers[1]);
    expect(answers[0]).toMatch(/^500 UnknownMessage UnknownMessage: /);
    expect(await refusal(binding, { ...ALICE, messageId: bobsId })).toBe(`${clientFault}/UnknownMessage`);
  });
});

describe('the contracts served side by side', () => {
  it('answers ?wsdl of each with its committed bytes (addresses rewritten to the request)', async () => {
    for (const [path, text] of [
      ['statusapi', STATUS_WSDL],
      ['serviceapi', SMS_WSDL],
    ] as const) {
      const served = await (await fetch(`${server.url}/${path}.asmx?wsdl`)).text();
      expect(served).toBe(text.replaceAll('http://localhost:8080', server.url));
    }
  });

  it('serves the status help page and routes nothing else of /serviceapi.asmx to it', async () => {
    const help = await fetch(`${server.url}/StatusAPI.asmx`);
    expect(help.status).toBe(200);
    expect(await help.text()).toContain('GetMessageStatus');
    const sms = await fetch(`${server.url}/statusapi.asmxx/GetMessageStatus`);
    expect(sms.status).toBe(404);
  });

  it('counts each answer in smskit_requests_total as GetMessageStatus, by binding and outcome', async () => {
    const { text } = await server.app.metrics.render();
    for (const binding of BINDINGS) {
      expect(text).toMatch(
        new RegExp(
          `smskit_requests_total\\{[^}]*operation="GetMessageStatus"[^}]*binding="${binding}"[^}]*outcome="accepted"[^}]*\\} [1-9]`,
        ),
      );
      expect(text).toMatch(
        new RegExp(
          `smskit_requests_total\\{[^}]*operation="GetMessageStatus"[^}]*binding="${binding}"[^}]*outcome="UnknownMessage"[^}]*\\} [1-9]`,
        ),
      );
    }
  });

  it('keeps an absent messageId a MissingParameter fault over SOAP', async () => {
    const { messageId: _absent, ...input } = { ...ALICE, messageId: '' };
    expect(await refusal('soap11', input)).toBe('Client/MissingParameter');
  });
});
