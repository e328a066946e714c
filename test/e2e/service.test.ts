/**
 * End to end: `smskit serve` runs as a real process on an ephemeral port
 * with a temporary database; we drive it over all four bindings with the generated client and
 * with `smskit send`, and read the results back with `smskit outbox --json`. One server for the
 * whole file (a fresh login costs an scrypt run; the service caches successful ones).
 *
 * Covered: success (ids, normalised fields in the outbox), every refusal class of
 * docs/service.md with the same code on every binding and nothing stored, non-ASCII texts and
 * their encodings, segment counting at the boundaries (with and without a port, up to the cap),
 * `smskit send` exit codes 0/1/2, account disable/enable on a running server, the password never
 * appearing in any output, and a graceful SIGTERM stop.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import type { SMSSendToPort } from '../../generated/service-api/types.js';
import { SoapFaultError, type Protocol } from '../../runtime/index.js';
import type { CliResult } from '../helpers/cli.js';
import {
  addAccount,
  mapLimit,
  readOutbox,
  runCliAsync,
  startServe,
  tempDir,
  type OutboxJsonEntry,
  type ServeProcess,
} from '../../tools/serve-process.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const MESSAGE_ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
/** Distinctive, with a space and non-ASCII, so a leak is easy to spot and quoting bugs show. */
const PASSWORD = `e2e pässword ${randomBytes(6).toString('hex')}`;
const WRONG_PASSWORD = `wrong pässword ${randomBytes(6).toString('hex')}`;
const SENDER = { email: 'E2E.Sender@Example.com', keywords: ['ACME', 'promo7'], password: PASSWORD };
const PAUSED = { email: 'paused@example.com', keywords: ['PAUSE'], password: PASSWORD };

/** A request that succeeds; each test overrides what it is about. */
const GOOD = {
  keyword: 'acme',
  emailAddress: 'e2e.sender@EXAMPLE.com',
  password: PASSWORD,
  smsto: '+1 (415) 555-0123',
  carrierCode: 'ATT',
  smsmsg: 'Hello from the e2e suite',
} as const;

const dir = tempDir('e2e-service');
const db = join(dir.path, 'service.sqlite');
let server: ServeProcess;
const clients = new Map<Protocol, ServiceAPIClient>();
/** Every text the system showed us (CLI output, fault messages, outbox JSON), for the leak check. */
const transcript: string[] = [];

function client(binding: Protocol): ServiceAPIClient {
  const c = clients.get(binding);
  if (c === undefined) throw new Error(`no client for ${binding}`);
  return c;
}

type Input = Partial<Record<keyof SMSSendToPort, string | undefined>>;

/** SMSSendToPort when the input has a `port` key (even undefined: then it is a missing port), else SMSSend. */
async function send(binding: Protocol, input: Input): Promise<string> {
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if ('port' in input) {
    const { SMSSendToPortResult } = await client(binding).SMSSendToPort(given);
    return SMSSendToPortResult ?? '';
  }
  const { SMSSendResult } = await client(binding).SMSSend(given);
  return SMSSendResult ?? '';
}

/** The fault of a call that must be refused (fails the test with the result if it succeeded). */
async function refusal(binding: Protocol, input: Input): Promise<SoapFaultError> {
  let result: string;
  try {
    result = await send(binding, input);
  } catch (error) {
    if (error instanceof SoapFaultError) {
      transcript.push(error.message, JSON.stringify(error.detail));
      return error;
    }
    throw error;
  }
  throw new Error(`expected a refusal over ${binding}, got the result ${JSON.stringify(result)}`);
}

/** What a refusal with `code` looks like on `binding` (docs/service.md, "Validation order and refusals"). */
function expectRefusal(fault: SoapFaultError, binding: Protocol, code: string, field?: string): void {
  const where = `${binding} ${code}`;
  expect(fault.httpStatus, where).toBe(500);
  expect(fault.code, where).toBe(binding === 'soap12' ? 'Sender' : 'Client');
  expect(fault.detail.code, where).toBe(code);
  expect(fault.message, where).toMatch(new RegExp(`^${code}: \\S[^\\n]*$`));
  if (field !== undefined && (binding === 'soap11' || binding === 'soap12'))
    expect(fault.detail.field, where).toBe(field);
}

function sendArgs(
  binding: Protocol,
  overrides: Partial<Record<'keyword' | 'email' | 'to' | 'carrier' | 'message' | 'port', string>> = {},
): string[] {
  const options = {
    keyword: GOOD.keyword,
    email: GOOD.emailAddress,
    to: GOOD.smsto,
    carrier: GOOD.carrierCode,
    message: GOOD.smsmsg,
    ...overrides,
  };
  return [
    'send',
    '--url',
    server.url,
    '--binding',
    binding,
    ...Object.entries(options).flatMap(([name, value]) => [`--${name}`, value]),
  ];
}

/** `smskit send` with the password in SMSKIT_PASSWORD; its output joins the transcript. */
async function cliSend(args: string[], password = PASSWORD, via: 'env' | 'stdin' = 'env'): Promise<CliResult> {
  const result = await runCliAsync(
    via === 'env' ? args : [...args, '--password-stdin'],
    via === 'env'
      ? { env: { SMSKIT_PASSWORD: password }, timeoutMs: 30_000 }
      : { input: `${password}\n`, timeoutMs: 30_000 },
  );
  transcript.push(result.stdout, result.stderr);
  return result;
}

/** Every acknowledged id with what its outbox entry must say; the final `smskit outbox --json` is checked against it. */
const acknowledged = new Map<string, Partial<OutboxJsonEntry>>();

function acknowledge(id: string, want: Partial<OutboxJsonEntry>): void {
  expect(id).toMatch(MESSAGE_ID);
  expect(acknowledged.has(id), `id ${id} returned twice`).toBe(false);
  acknowledged.set(id, want);
}

/** The outbox table read directly (cheap, for checks along the way; the CLI report is checked once at the end). */
function stored(): Map<string, OutboxJsonEntry & { smsmsg: string }> {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = conn
      .prepare(
        'SELECT id, created_at, account, keyword, smsto, carrier_code AS carrierCode, encoding, segments, port, state, smsmsg FROM outbox ORDER BY id',
      )
      .all() as Array<OutboxJsonEntry & { created_at: number; smsmsg: string }>;
    return new Map(
      rows.map(({ created_at, ...row }) => [row.id, { ...row, time: new Date(created_at).toISOString() }]),
    );
  } finally {
    conn.close();
  }
}

function storedWithMarker(marker: string): string[] {
  return [...stored().values()].filter((row) => row.smsmsg.includes(marker)).map((row) => row.id);
}

beforeAll(async () => {
  server = await startServe({ db });
  await Promise.all(
    [SENDER, PAUSED].map((account) => addAccount(db, account).then((r) => transcript.push(r.stdout, r.stderr))),
  );
  for (const binding of BINDINGS)
    clients.set(binding, new ServiceAPIClient({ url: server.url, binding, timeoutMs: 15_000 }));
}, 120_000);

afterAll(async () => {
  await Promise.all([...clients.values()].map((c) => c.close()));
  try {
    await server?.stop('SIGKILL');
  } finally {
    dir.remove();
  }
});

describe('smskit serve as a process', () => {
  it('prints its URL, the database and how to add an account', () => {
    const { stdout } = server.output();
    expect(server.url).toBe(`http://127.0.0.1:${server.address.port}/serviceapi.asmx`);
    expect(server.address.port).toBeGreaterThan(0);
    expect(stdout).toContain(`database:  ${db}`);
    expect(stdout).toContain('smskit account add');
    // Without a routes file nothing is sent, and the start says so in one line.
    expect(stdout.split('\n').filter((line) => line.includes('delivery:'))).toEqual([
      '  delivery:  none: no routes file (--routes), accepted messages stay queued',
    ]);
  });

  it('a start that fails or prints nothing in time is reported with what the process printed (bounded waits)', async () => {
    const [usage, slow] = await Promise.allSettled([
      startServe({ db: join(dir.path, 'unused.sqlite'), args: ['--max-segments', '0'] }),
      startServe({ db: join(dir.path, 'unused.sqlite'), startTimeoutMs: 50 }),
    ]);
    expect(usage.status === 'rejected' && String(usage.reason)).toMatch(
      /exited before listening \(code 2, [^)]*\); stderr:\nsmskit: --max-segments must be an integer from 1 to 255/,
    );
    expect(slow.status === 'rejected' && String(slow.reason)).toMatch(/printed no URL within 50 ms/);
    expect(existsSync(join(dir.path, 'unused.sqlite'))).toBe(false);
  });

  it('publishes the contract at ?wsdl with its own address', async () => {
    const response = await fetch(`${server.url}?wsdl`);
    expect(response.status).toBe(200);
    const wsdl = await response.text();
    expect(wsdl).toContain('SMSSendToPort');
    expect(wsdl).toContain(server.url);
  });
});

describe('success', () => {
  it('stores one message per call over every binding with the generated client, fields normalised', async () => {
    const sent: string[] = [];
    for (const binding of BINDINGS) {
      const plain = await send(binding, GOOD);
      acknowledge(plain, { smsto: '+14155550123', port: null });
      const toPort = await send(binding, { ...GOOD, smsto: '0044 7700 900123', port: '2948' });
      acknowledge(toPort, { smsto: '+447700900123', port: 2948 });
      sent.push(plain, toPort);
    }
    const rows = stored();
    for (const id of sent) {
      expect(rows.get(id), id).toEqual({
        id,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        account: 'e2e.sender@example.com',
        keyword: 'ACME',
        smsto: acknowledged.get(id)!.smsto,
        carrierCode: 'att',
        encoding: 'gsm7',
        segments: 1,
        port: acknowledged.get(id)!.port,
        state: 'queued',
        smsmsg: GOOD.smsmsg,
      });
    }
    // ids sort by creation time as plain strings
    expect(sent).toEqual([...sent].sort());
  });

  it('smskit send prints the id and exits 0 over every binding (SMSSend and SMSSendToPort)', async () => {
    const cases: Array<{ binding: Protocol; overrides: Record<string, string>; want: Partial<OutboxJsonEntry> }> = [
      {
        binding: 'soap11',
        overrides: {},
        want: { smsto: '+14155550123', carrierCode: 'att', encoding: 'gsm7', segments: 1, port: null },
      },
      {
        binding: 'soap12',
        overrides: { port: '2948', to: '+44 7700 900123', carrier: 'vodafone-uk' },
        want: { smsto: '+447700900123', carrierCode: 'vodafone-uk', port: 2948 },
      },
      {
        binding: 'http-get',
        overrides: { message: 'Grüße aus Köln, où est-il? ¿Qué tal? €5 {ok}', carrier: 'auto' },
        want: { encoding: 'gsm7', segments: 1, carrierCode: 'auto', port: null },
      },
      {
        binding: 'http-post',
        overrides: { message: '你好，世界 👋 & <b>"é"</b>', port: '0', keyword: 'PROMO7' },
        want: { encoding: 'ucs2', segments: 1, port: 0, keyword: 'PROMO7' },
      },
    ];
    // one of them reads the password from standard input instead of SMSKIT_PASSWORD
    const results = await Promise.all(
      cases.map(({ binding, overrides }, i) =>
        cliSend(sendArgs(binding, overrides), PASSWORD, i === 1 ? 'stdin' : 'env'),
      ),
    );
    const rows = stored();
    cases.forEach(({ binding, overrides, want }, i) => {
      const result = results[i]!;
      expect(result.stderr, binding).toBe('');
      expect(result.status, binding).toBe(0);
      expect(result.stdout, binding).toMatch(/^SMS-[0-9A-HJKMNP-TV-Z]{26}\n$/);
      const id = result.stdout.trim();
      acknowledge(id, { account: 'e2e.sender@example.com', ...want });
      expect(rows.get(id), binding).toMatchObject({
        account: 'e2e.sender@example.com',
        state: 'queued',
        smsmsg: overrides.message ?? GOOD.smsmsg,
        ...want,
      });
    });
  }, 120_000);
});

const SOAP_BINDINGS: readonly Protocol[] = ['soap11', 'soap12'];

/**
 * [name, code, field, input, bindings]: the refusal classes of docs/service.md and their
 * variants. Absent parameters are tried over SOAP here; over GET/POST the runtime answers before
 * the service does (see missing-parameter.test.ts). Empty strings reach the service on every binding.
 * The cases run in order; the sender's wrong-password cases (4 failures each, one per binding)
 * are kept apart by cases that log in successfully, which reset the account's failure count,
 * so the per-account limit (10) never turns them into TooManyAttempts.
 */
const REFUSALS: ReadonlyArray<[string, string, string | undefined, Input, readonly Protocol[]]> = [
  ['keyword empty', 'MissingParameter', 'keyword', { ...GOOD, keyword: '' }, BINDINGS],
  ['emailAddress empty', 'MissingParameter', 'emailAddress', { ...GOOD, emailAddress: '' }, BINDINGS],
  ['password empty', 'MissingParameter', 'password', { ...GOOD, password: '' }, BINDINGS],
  ['smsto empty', 'MissingParameter', 'smsto', { ...GOOD, smsto: '' }, BINDINGS],
  ['carrierCode empty', 'MissingParameter', 'carrierCode', { ...GOOD, carrierCode: '' }, BINDINGS],
  ['port empty (SMSSendToPort)', 'MissingParameter', 'port', { ...GOOD, port: '' }, BINDINGS],
  ['emailAddress absent', 'MissingParameter', 'emailAddress', { ...GOOD, emailAddress: undefined }, SOAP_BINDINGS],
  ['password absent', 'MissingParameter', 'password', { ...GOOD, password: undefined }, SOAP_BINDINGS],
  ['smsmsg absent', 'MissingParameter', 'smsmsg', { ...GOOD, smsmsg: undefined }, SOAP_BINDINGS],
  ['port absent (SMSSendToPort)', 'MissingParameter', 'port', { ...GOOD, port: undefined }, SOAP_BINDINGS],
  [
    'the first missing one in wire order',
    'MissingParameter',
    'smsto',
    { ...GOOD, smsto: '', carrierCode: '', smsmsg: '' },
    BINDINGS,
  ],
  ['wrong password', 'AuthenticationFailed', undefined, { ...GOOD, password: WRONG_PASSWORD }, BINDINGS],
  ['unknown account', 'AuthenticationFailed', undefined, { ...GOOD, emailAddress: 'nobody@example.com' }, BINDINGS],
  [
    'address over 254 characters',
    'AuthenticationFailed',
    undefined,
    { ...GOOD, emailAddress: `${'a'.repeat(250)}@example.com` },
    BINDINGS,
  ],
  ['keyword with punctuation', 'InvalidKeyword', 'keyword', { ...GOOD, keyword: 'ACME!' }, BINDINGS],
  [
    'password over 1024 characters',
    'AuthenticationFailed',
    undefined,
    { ...GOOD, password: PASSWORD.padEnd(1025, 'x') },
    BINDINGS,
  ],
  ['keyword over 11 characters', 'InvalidKeyword', 'keyword', { ...GOOD, keyword: 'ABCDEFGHIJKL' }, BINDINGS],
  ['keyword with a non-ASCII letter', 'InvalidKeyword', 'keyword', { ...GOOD, keyword: 'ÄCME' }, BINDINGS],
  ['keyword of another account', 'KeywordNotAllowed', 'keyword', { ...GOOD, keyword: 'PAUSE' }, BINDINGS],
  [
    'national number without a default country',
    'InvalidRecipient',
    'smsto',
    { ...GOOD, smsto: '(415) 555-0123' },
    BINDINGS,
  ],
  ['letters in the number', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+1 415 CALL NOW' }, BINDINGS],
  ['an extension', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+14155550123 ext 5' }, BINDINGS],
  [
    'authentication before the other fields',
    'AuthenticationFailed',
    undefined,
    { ...GOOD, password: WRONG_PASSWORD, keyword: 'bad!', smsto: 'x', carrierCode: 'x' },
    BINDINGS,
  ],
  ['too few digits', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+1234567' }, BINDINGS],
  ['too many digits', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+1234567890123456' }, BINDINGS],
  ['country code 0', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+04155550123' }, BINDINGS],
  ['a plus inside', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '1+4155550123' }, BINDINGS],
  ['non-ASCII digits', 'InvalidRecipient', 'smsto', { ...GOOD, smsto: '+١٤١٥٥٥٥٠١٢٣' }, BINDINGS],
  [
    'over 40 characters of input',
    'InvalidRecipient',
    'smsto',
    { ...GOOD, smsto: `+1 415 555 0123${' '.repeat(30)}` },
    BINDINGS,
  ],
  ['unknown carrier', 'UnknownCarrier', 'carrierCode', { ...GOOD, carrierCode: 'acme-mobile' }, BINDINGS],
  ['carrier in full-width letters', 'UnknownCarrier', 'carrierCode', { ...GOOD, carrierCode: 'ＡＴＴ' }, BINDINGS],
  ['port over 65535', 'InvalidPort', 'port', { ...GOOD, port: '65536' }, BINDINGS],
  ['port with a leading zero', 'InvalidPort', 'port', { ...GOOD, port: '080' }, BINDINGS],
  ['negative port', 'InvalidPort', 'port', { ...GOOD, port: '-1' }, BINDINGS],
  ['port with a sign', 'InvalidPort', 'port', { ...GOOD, port: '+80' }, BINDINGS],
  ['port with a space', 'InvalidPort', 'port', { ...GOOD, port: ' 80' }, BINDINGS],
  ['port before the message', 'InvalidPort', 'port', { ...GOOD, port: 'x', smsmsg: '' }, BINDINGS],
  ['empty text', 'EmptyMessage', 'smsmsg', { ...GOOD, smsmsg: '' }, BINDINGS],
  ['empty text on SMSSendToPort', 'EmptyMessage', 'smsmsg', { ...GOOD, smsmsg: '', port: '2948' }, BINDINGS],
  ['11 GSM segments', 'MessageTooLong', 'smsmsg', { ...GOOD, smsmsg: 'a'.repeat(1531) }, BINDINGS],
  ['11 UCS-2 segments', 'MessageTooLong', 'smsmsg', { ...GOOD, smsmsg: '中'.repeat(671) }, BINDINGS],
  [
    '11 GSM segments with a port',
    'MessageTooLong',
    'smsmsg',
    { ...GOOD, smsmsg: 'a'.repeat(1461), port: '5000' },
    BINDINGS,
  ],
  [
    '11 UCS-2 segments with a port',
    'MessageTooLong',
    'smsmsg',
    { ...GOOD, smsmsg: '中'.repeat(641), port: '5000' },
    BINDINGS,
  ],
];

describe('refusals', () => {
  it.each(REFUSALS)('%s: %s, the same on every binding, nothing stored', async (name, code, field, input, bindings) => {
    const marker = `refused-${randomBytes(5).toString('hex')}`;
    const marked: Input =
      input.smsmsg !== undefined && input.smsmsg !== '' ? { ...input, smsmsg: `${input.smsmsg} ${marker}` } : input;
    const faults = await Promise.all(bindings.map((binding) => refusal(binding, marked)));
    for (const [i, fault] of faults.entries()) expectRefusal(fault, bindings[i]!, code, field);
    expect(new Set(faults.map((f) => f.message)).size, `${name}: one message whatever the binding`).toBe(1);
    expect(storedWithMarker(marker)).toEqual([]);
  });

  it('MessageTooLong names the segments, encoding and characters it takes and the cap, on every binding', async () => {
    const faults = await Promise.all(
      BINDINGS.map((binding) => refusal(binding, { ...GOOD, smsmsg: '中'.repeat(1002) })),
    );
    for (const fault of faults)
      expect(fault.message).toBe('MessageTooLong: smsmsg needs 15 segments (UCS-2, 1,002 characters); at most 10');
  });

  it('GET and POST refusals are a 500 text/plain line with the code in X-Smskit-Error-Code', async () => {
    const params = new URLSearchParams({ ...GOOD, carrierCode: 'acme-mobile' });
    const get = await fetch(`${server.url}/SMSSend?${params}`);
    const post = await fetch(`${server.url}/SMSSend`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
    });
    for (const response of [get, post]) {
      const body = await response.text();
      transcript.push(body);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/);
      expect(response.headers.get('x-smskit-error-code')).toBe('UnknownCarrier');
      expect(response.headers.get('x-smskit-fault-code')).toBe('Client');
      expect(body.trimEnd()).toMatch(/^UnknownCarrier: [^\n]+$/);
    }
  });

  it('smskit send exits 1 with "smskit: fault <Code>: <message>" for each refusal class, bindings in turn', async () => {
    const marker = `cli-refused-${randomBytes(5).toString('hex')}`;
    const text = `${GOOD.smsmsg} ${marker}`;
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['MissingParameter', { keyword: '', message: text }],
      ['AuthenticationFailed', { message: text }, WRONG_PASSWORD],
      ['InvalidKeyword', { keyword: 'A-C-M-E', message: text }],
      ['KeywordNotAllowed', { keyword: 'PAUSE', message: text }],
      ['InvalidRecipient', { to: 'call me', message: text }],
      ['UnknownCarrier', { carrier: 'nope', message: text }],
      ['InvalidPort', { port: '70000', message: text }],
      ['EmptyMessage', { message: '' }],
      ['MessageTooLong', { message: `${'b'.repeat(1531)} ${marker}` }],
    ];
    const results = await mapLimit(cases, 4, ([, overrides, password], i) =>
      cliSend(sendArgs(BINDINGS[i % BINDINGS.length]!, overrides), password),
    );
    cases.forEach(([code], i) => {
      const result = results[i]!;
      const where = `${code} over ${BINDINGS[i % BINDINGS.length]}`;
      expect(result.stdout, where).toBe('');
      expect(result.stderr, where).toMatch(new RegExp(`^smskit: fault ${code}: [^\\n]+\\n$`));
      expect(result.status, where).toBe(1);
    });
    expect(storedWithMarker(marker)).toEqual([]);
  }, 120_000);
});

describe('accounts on a running server', () => {
  it('account disable refuses the next request with AccountDisabled everywhere; enable lets it through again', async () => {
    const paused = { ...GOOD, emailAddress: PAUSED.email, keyword: 'PAUSE' };
    const want = { account: PAUSED.email, keyword: 'PAUSE' };
    acknowledge(await send('soap11', paused), want); // now cached as a verified login

    const disable = await runCliAsync(['account', 'disable', '--db', db, '--email', PAUSED.email]);
    transcript.push(disable.stdout, disable.stderr);
    expect(disable.status, disable.stderr).toBe(0);
    for (const binding of BINDINGS) expectRefusal(await refusal(binding, paused), binding, 'AccountDisabled');
    const viaCli = await cliSend(sendArgs('http-post', { email: PAUSED.email, keyword: 'PAUSE' }));
    expect(viaCli.stderr).toMatch(/^smskit: fault AccountDisabled: [^\n]+\n$/);
    expect(viaCli.status).toBe(1);

    const enable = await runCliAsync(['account', 'enable', '--db', db, '--email', PAUSED.email]);
    transcript.push(enable.stdout, enable.stderr);
    expect(enable.status, enable.stderr).toBe(0);
    for (const binding of BINDINGS) acknowledge(await send(binding, paused), want);
  }, 120_000);

  it('too many failed logins lock the account, even for the right password, on every binding', async () => {
    // the paused account is not used after this test (its lock lasts 15 minutes)
    const locked = { ...GOOD, emailAddress: PAUSED.email, keyword: 'PAUSE' };
    for (let i = 0; i < 10; i++) {
      const binding = BINDINGS[i % BINDINGS.length]!;
      expectRefusal(
        await refusal(binding, { ...locked, password: `${WRONG_PASSWORD}-${i}` }),
        binding,
        'AuthenticationFailed',
      );
    }
    for (const binding of BINDINGS) expectRefusal(await refusal(binding, locked), binding, 'TooManyAttempts');
  });
});

const HTTP_BINDINGS: readonly Protocol[] = ['http-get', 'http-post'];

/** [name, text, encoding, segments, port?, bindings?]: each sent over every binding (unless limited) and read back. */
const TEXTS: ReadonlyArray<[string, string, 'gsm7' | 'ucs2', number, (string | undefined)?, (readonly Protocol[])?]> = [
  // encodings
  ['accents of the GSM alphabet', 'Café crème à Köln: Grüße, señor! ¿Qué? Ça va. ÆØÅ æøå ß', 'gsm7', 1],
  ['GSM Greek capitals', 'ΔΦΓΛΩΠΨΣΘΞ', 'gsm7', 1],
  ['GSM extension characters', '€10 {x} [y] ~z^ \\ |', 'gsm7', 1],
  ['ç (only Ç is GSM)', 'façade', 'ucs2', 1],
  ['á (not in GSM)', 'mamá', 'ucs2', 1],
  ['Greek lower case', 'Ελλάδα', 'ucs2', 1],
  ['CJK', '日本語のメッセージ', 'ucs2', 1],
  ['emoji', 'ok 👍', 'ucs2', 1],
  // U+001B cannot travel in XML 1.0, so only GET/POST can carry it (the SOAP client refuses it locally)
  ['ESC itself', 'a\u001bb', 'ucs2', 1, undefined, HTTP_BINDINGS],
  // GSM 7-bit, no port: 160 single, 153 per concatenated segment, cap 10
  ['gsm7 160', 'a'.repeat(160), 'gsm7', 1],
  ['gsm7 161', 'a'.repeat(161), 'gsm7', 2],
  ['gsm7 153*2', 'a'.repeat(306), 'gsm7', 2],
  ['gsm7 153*2+1', 'a'.repeat(307), 'gsm7', 3],
  ['gsm7 153*3', 'a'.repeat(459), 'gsm7', 3],
  ['gsm7 153*3+1', 'a'.repeat(460), 'gsm7', 4],
  ['gsm7 153*10 (the cap)', 'a'.repeat(1530), 'gsm7', 10],
  ['gsm7 80 extension chars = 160 septets', '€'.repeat(80), 'gsm7', 1],
  ['gsm7 159 + one extension char = 161 septets', `${'a'.repeat(159)}€`, 'gsm7', 2],
  ['gsm7 ESC pair never split at a boundary', `${'a'.repeat(152)}€${'a'.repeat(152)}`, 'gsm7', 3],
  ['gsm7 accents count one septet', 'é'.repeat(160), 'gsm7', 1],
  // UCS-2, no port: 70 single, 67 concatenated
  ['ucs2 70', '中'.repeat(70), 'ucs2', 1],
  ['ucs2 71', '中'.repeat(71), 'ucs2', 2],
  ['ucs2 67*2', '中'.repeat(134), 'ucs2', 2],
  ['ucs2 67*2+1', '中'.repeat(135), 'ucs2', 3],
  ['ucs2 67*10 (the cap)', '中'.repeat(670), 'ucs2', 10],
  ['ucs2 35 emoji = 70 units', '😀'.repeat(35), 'ucs2', 1],
  ['ucs2 36 emoji = 72 units, 33 per segment', '😀'.repeat(36), 'ucs2', 2],
  ['ucs2 surrogate pair never split at a boundary', `${'中'.repeat(66)}😀${'中'.repeat(66)}`, 'ucs2', 3],
  ['ucs2 one non-GSM accent makes 71 characters UCS-2', `${'a'.repeat(70)}á`, 'ucs2', 2],
  // with a port: 152 single, 146 concatenated (GSM); 66 / 64 (UCS-2)
  ['port gsm7 152', 'p'.repeat(152), 'gsm7', 1, '2948'],
  ['port gsm7 153', 'p'.repeat(153), 'gsm7', 2, '2948'],
  ['port gsm7 146*2', 'p'.repeat(292), 'gsm7', 2, '2948'],
  ['port gsm7 146*2+1', 'p'.repeat(293), 'gsm7', 3, '2948'],
  ['port gsm7 146*10 (the cap)', 'p'.repeat(1460), 'gsm7', 10, '65535'],
  ['port ucs2 66', '中'.repeat(66), 'ucs2', 1, '0'],
  ['port ucs2 67', '中'.repeat(67), 'ucs2', 2, '0'],
  ['port ucs2 64*2+1', '中'.repeat(129), 'ucs2', 3, '0'],
  ['port ucs2 64*10 (the cap)', '中'.repeat(640), 'ucs2', 10, '9200'],
];

describe('texts: encodings and segment counting, read back from the outbox', () => {
  it('every binding stores the same encoding and segment count at each boundary', async () => {
    const sent: Array<{ name: string; binding: Protocol; id: string; text: string; want: string }> = [];
    await mapLimit(TEXTS, 4, async ([name, text, encoding, segments, port, bindings]) => {
      for (const binding of bindings ?? BINDINGS) {
        const input: Input = port === undefined ? { ...GOOD, smsmsg: text } : { ...GOOD, smsmsg: text, port };
        const id = await send(binding, input);
        const portNumber = port === undefined ? null : Number(port);
        acknowledge(id, { encoding, segments, port: portNumber });
        sent.push({ name, binding, id, text, want: `${encoding}/${segments}/${portNumber}` });
      }
    });
    const rows = stored();
    const mismatches = sent.flatMap(({ name, binding, id, text, want }) => {
      const row = rows.get(id);
      const got = row === undefined ? 'not stored' : `${row.encoding}/${row.segments}/${row.port}`;
      const problems = got === want ? [] : [`${name} over ${binding}: want ${want}, got ${got}`];
      if (row !== undefined && row.smsmsg !== text)
        problems.push(`${name} over ${binding}: the stored text differs from the sent one`);
      return problems;
    });
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('texts travel unchanged (XML specials, spaces at the ends, CR LF, tabs) on every binding', async () => {
    const texts = [
      'Grüße €5 {x}',
      '日本語 👍 <&> "q" \'a\' ]]>',
      '  leading and trailing spaces  ',
      'line one\nline two',
      'tab\tand\r\nCRLF and a lone \r',
    ];
    const sent: Array<[string, string]> = [];
    for (const text of texts) {
      for (const binding of BINDINGS) {
        const id = await send(binding, { ...GOOD, smsmsg: text });
        acknowledge(id, {});
        sent.push([id, text]);
      }
    }
    const rows = stored();
    expect(sent.map(([id]) => rows.get(id)?.smsmsg)).toEqual(sent.map(([, text]) => text));
  });

  it('the SOAP client refuses a character XML 1.0 cannot carry before sending anything', async () => {
    for (const binding of SOAP_BINDINGS) {
      await expect(send(binding, { ...GOOD, smsmsg: 'a\u001bb' })).rejects.toMatchObject({
        name: 'CodecError',
        code: 'CODEC_ILLEGAL_CHAR',
      });
    }
  });
});

describe('smskit send exit codes', () => {
  it('exits 2 with a one-line transport error when nothing listens at the URL', async () => {
    const port = await closedPort();
    const result = await cliSend([
      'send',
      '--url',
      `http://127.0.0.1:${port}/serviceapi.asmx`,
      '--binding',
      'http-post',
      '--keyword',
      'ACME',
      '--email',
      SENDER.email,
      '--to',
      '+14155550123',
      '--carrier',
      'att',
      '--message',
      'hi',
      '--timeout',
      '5000',
    ]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^smskit: [^\n]+\n$/);
    expect(result.stderr).not.toMatch(/fault/);
    expect(result.status).toBe(2);
  }, 120_000);
});

describe('smskit outbox --json', () => {
  it('lists exactly the acknowledged messages (nothing refused, nothing lost) with the right fields and no text', async () => {
    const { entries, raw } = await readOutbox(db);
    transcript.push(raw.stdout, raw.stderr);
    expect(raw.stderr).toBe('');
    expect(entries.map((e) => e.id).sort()).toEqual([...acknowledged.keys()].sort());
    const mismatches = entries.flatMap((entry) => {
      const want = {
        account: 'e2e.sender@example.com',
        keyword: 'ACME',
        carrierCode: 'att',
        state: 'queued',
        ...acknowledged.get(entry.id),
      };
      const wrong = Object.entries(want).filter(([key, value]) => entry[key as keyof OutboxJsonEntry] !== value);
      return wrong.map(
        ([key, value]) =>
          `${entry.id}.${key}: want ${JSON.stringify(value)}, got ${JSON.stringify(entry[key as keyof OutboxJsonEntry])}`,
      );
    });
    expect(mismatches).toEqual([]);
    for (const entry of entries) {
      expect(Object.keys(entry)).toEqual([
        'id',
        'time',
        'account',
        'keyword',
        'smsto',
        'carrierCode',
        'encoding',
        'segments',
        'port',
        'state',
        'updated',
        'attempts',
        'route',
        'smscId',
        'smscIds',
        'lastError',
        'possibleDuplicate',
      ]);
      expect(entry.smsto).toMatch(/^\+[1-9]\d{7,14}$/);
    }
    expect(raw.stdout).not.toContain(GOOD.smsmsg);
    expect(acknowledged.size).toBeGreaterThan(150);
  }, 120_000);
});

describe('secrets', () => {
  it('the password appears in no CLI output, fault text, outbox JSON, server output or database file', () => {
    const { stdout, stderr } = server.output();
    const texts = [...transcript, stdout, stderr];
    expect(texts.length).toBeGreaterThan(100);
    // The WAL exists only between checkpoints; the database file always.
    const files = [db, `${db}-wal`].filter((file) => existsSync(file));
    expect(files).toContain(db);
    for (const secret of [PASSWORD, WRONG_PASSWORD]) {
      expect(texts.filter((text) => text.includes(secret))).toEqual([]);
      for (const file of files) expect(readFileSync(file).includes(Buffer.from(secret, 'utf8')), file).toBe(false);
    }
  });
});

describe('shutdown', () => {
  it('SIGTERM stops the server gracefully (exit 0), every acknowledged message still stored', async () => {
    const exit = await server.stop('SIGTERM', 60_000);
    expect(exit.signal).toBeNull();
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stderr).toContain('SIGTERM');
    expect(exit.stderr).toContain('stopped');
    // nothing else was logged: no internal error, no storage trouble, during the whole file
    expect(exit.stderr.split('\n').filter(Boolean)).toEqual([
      'smskit serve: SIGTERM: finishing in-flight requests and deliveries',
      'smskit serve: stopped',
    ]);
    expect([...stored().keys()].sort()).toEqual([...acknowledged.keys()].sort());
  }, 120_000);
});

/** A TCP port on 127.0.0.1 where nothing listens (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
