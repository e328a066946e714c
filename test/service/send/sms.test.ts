import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts } from '../../../service/accounts/accounts.js';
import { createCarrierTable } from '../../../service/delivery/carriers.js';
import { SmsRefusal, SmsUnavailable } from '../../../service/errors.js';
import { MESSAGE_ID_PATTERN } from '../../../service/store/ids.js';
import { formatOutboxJson, formatOutboxTable, outboxEntries } from '../../../service/outbox/report.js';
import type { SMSSend, SMSSendToPort } from '../../../generated/service-api/types.js';
import { createSmsService, type Given, type SendRequest, type SmsService } from '../../../service/send/sms.js';
import { openSqliteStore, type SqliteStore as Store, type StoredMessage } from '../../../service/store/index.js';
import { contractParams } from '../../../tools/contract.js';

const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'smskit-sms-'));
let store: Store;
let sms: SmsService;

beforeAll(async () => {
  store = openSqliteStore({ path: join(dir, 'sms.db') });
  const limits = {
    perAccount: { maxFailures: 3, windowMs: 60_000 },
    perAddress: { maxFailures: 1000, windowMs: 60_000 },
  };
  const accounts = createAccounts({ store, scrypt: { logN: 10, r: 8, p: 1 }, limits });
  await accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME', 'NEWS'] });
  await accounts.add({ email: 'dave@example.com', password: PASSWORD, keywords: ['DAVE'] });
  await accounts.setDisabled('dave@example.com', true);
  sms = createSmsService({ store, accounts, carriers: createCarrierTable() });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const valid: Required<SMSSend> = {
  keyword: 'acme',
  emailAddress: 'alice@example.com',
  password: PASSWORD,
  smsto: '+1 (415) 555-0123',
  carrierCode: 'ATT',
  smsmsg: 'Hello',
};

const smsSend = (input: Given<SMSSend>): SendRequest => ({ operation: 'SMSSend', input });
const smsSendToPort = (input: Given<SMSSendToPort>): SendRequest => ({ operation: 'SMSSendToPort', input });

type Want = { id: true; stored: Partial<StoredMessage> } | { code: string; field?: string };
const cases: Array<[string, { given: SendRequest; want: Want }]> = [
  [
    'SMSSend',
    {
      given: smsSend(valid),
      want: {
        id: true,
        stored: {
          account: 'alice@example.com',
          keyword: 'ACME',
          smsto: '+14155550123',
          carrierCode: 'att',
          encoding: 'gsm7',
          segments: 1,
          port: null,
        },
      },
    },
  ],
  [
    'SMSSendToPort',
    { given: smsSendToPort({ ...valid, port: '2948' }), want: { id: true, stored: { port: 2948, segments: 1 } } },
  ],
  [
    'non-ASCII text',
    {
      given: smsSend({ ...valid, smsmsg: 'Привет, мир! 😀' }),
      want: { id: true, stored: { encoding: 'ucs2', segments: 1 } },
    },
  ],
  [
    'long text',
    {
      given: smsSend({ ...valid, smsmsg: 'a'.repeat(161) }),
      want: { id: true, stored: { encoding: 'gsm7', segments: 2 } },
    },
  ],
  [
    'port shrinks segments',
    {
      given: smsSendToPort({ ...valid, smsmsg: 'a'.repeat(153), port: '0' }),
      want: { id: true, stored: { segments: 2, port: 0 } },
    },
  ],
  [
    'carrier auto',
    { given: smsSend({ ...valid, carrierCode: 'auto' }), want: { id: true, stored: { carrierCode: 'auto' } } },
  ],
  [
    'missing keyword',
    { given: smsSend({ ...valid, keyword: undefined }), want: { code: 'MissingParameter', field: 'keyword' } },
  ],
  [
    'null password',
    { given: smsSend({ ...valid, password: null }), want: { code: 'MissingParameter', field: 'password' } },
  ],
  ['empty smsto', { given: smsSend({ ...valid, smsto: '' }), want: { code: 'MissingParameter', field: 'smsto' } }],
  [
    'missing smsmsg',
    { given: smsSend({ ...valid, smsmsg: undefined }), want: { code: 'MissingParameter', field: 'smsmsg' } },
  ],
  [
    'SMSSendToPort without port',
    { given: smsSendToPort({ ...valid, port: null }), want: { code: 'MissingParameter', field: 'port' } },
  ],
  [
    'SMSSendToPort with no port field',
    { given: smsSendToPort(valid), want: { code: 'MissingParameter', field: 'port' } },
  ],
  [
    'missing beats bad credentials',
    {
      given: smsSend({ ...valid, password: 'wrong password', carrierCode: undefined }),
      want: { code: 'MissingParameter', field: 'carrierCode' },
    },
  ],
  [
    'wrong password',
    { given: smsSend({ ...valid, password: 'wrong password' }), want: { code: 'AuthenticationFailed' } },
  ],
  [
    'unknown account',
    { given: smsSend({ ...valid, emailAddress: 'nobody@example.com' }), want: { code: 'AuthenticationFailed' } },
  ],
  [
    'disabled account',
    {
      given: smsSend({ ...valid, emailAddress: 'dave@example.com', keyword: 'DAVE' }),
      want: { code: 'AccountDisabled' },
    },
  ],
  [
    'auth beats field errors',
    {
      given: smsSend({ ...valid, emailAddress: 'nobody@example.com', smsto: 'junk' }),
      want: { code: 'AuthenticationFailed' },
    },
  ],
  [
    'malformed keyword',
    { given: smsSend({ ...valid, keyword: 'AC ME' }), want: { code: 'InvalidKeyword', field: 'keyword' } },
  ],
  [
    "another account's keyword",
    { given: smsSend({ ...valid, keyword: 'DAVE' }), want: { code: 'KeywordNotAllowed', field: 'keyword' } },
  ],
  [
    'bad recipient',
    { given: smsSend({ ...valid, smsto: '555-0123' }), want: { code: 'InvalidRecipient', field: 'smsto' } },
  ],
  [
    'unknown carrier',
    { given: smsSend({ ...valid, carrierCode: 'sprint' }), want: { code: 'UnknownCarrier', field: 'carrierCode' } },
  ],
  ['empty message', { given: smsSend({ ...valid, smsmsg: '' }), want: { code: 'EmptyMessage', field: 'smsmsg' } }],
  [
    'unpaired surrogate',
    { given: smsSend({ ...valid, smsmsg: 'hi \uD83D' }), want: { code: 'InvalidMessage', field: 'smsmsg' } },
  ],
  [
    'too long',
    { given: smsSend({ ...valid, smsmsg: 'ж'.repeat(671) }), want: { code: 'MessageTooLong', field: 'smsmsg' } },
  ],
  ['bad port', { given: smsSendToPort({ ...valid, port: '65536' }), want: { code: 'InvalidPort', field: 'port' } }],
  [
    'port checked before message',
    { given: smsSendToPort({ ...valid, port: 'x', smsmsg: '' }), want: { code: 'InvalidPort', field: 'port' } },
  ],
];

describe('a keyword refused on a kept account row', () => {
  it('is taken when the row read now has it (another process has just added it), and refused when not', async () => {
    // The store a moment after another process changed alice's keywords: authentication gets the
    // row from before the change, a fresh read gets it as it is now.
    const before = await store.getAccount('alice@example.com');
    const fresh: string[] = [];
    const lagging: Pick<Store, 'enqueue' | 'getAccount' | 'listAccounts' | 'insertAccount' | 'updateAccount'> = {
      enqueue: (message, state) => store.enqueue(message, state),
      getAccount: async (email, options) => {
        if (options?.fresh !== true) return email === 'alice@example.com' ? before : store.getAccount(email);
        fresh.push(email);
        return store.getAccount(email);
      },
      listAccounts: () => store.listAccounts(),
      insertAccount: (row) => store.insertAccount(row),
      updateAccount: (email, change) => store.updateAccount(email, change),
    };
    const accounts = createAccounts({ store: lagging, scrypt: { logN: 10, r: 8, p: 1 } });
    const service = createSmsService({ store: lagging, accounts, carriers: createCarrierTable() });
    await store.updateAccount('alice@example.com', { keywords: ['ACME', 'NEWS', 'PROMO'] });
    try {
      const id = await service.send(smsSend({ ...valid, keyword: 'promo' }));
      expect((await store.getMessage(id))?.keyword).toBe('PROMO');
      expect(fresh).toEqual(['alice@example.com']);
      await expect(service.send(smsSend({ ...valid, keyword: 'other' }))).rejects.toMatchObject({
        code: 'KeywordNotAllowed',
      });
    } finally {
      await store.updateAccount('alice@example.com', { keywords: ['ACME', 'NEWS'] });
    }
  });
});

describe('sms.send', () => {
  it.each(cases)('%s', async (_name, { given, want }) => {
    const before = await store.countOutbox();
    const outcome = await sms.send(given, { remoteAddress: '192.0.2.10' }).then(
      (id) => ({ id }),
      (error: unknown) => error,
    );
    if ('stored' in want) {
      const { id } = outcome as { id: string };
      expect(id).toMatch(MESSAGE_ID_PATTERN);
      const stored = (await store.listOutbox()).find((m) => m.id === id);
      expect(stored).toMatchObject({ ...want.stored, smsmsg: given.input.smsmsg, state: 'queued' });
      return;
    }
    expect(outcome).toBeInstanceOf(SmsRefusal);
    expect(outcome).toMatchObject({ code: want.code, field: want.field });
    expect((outcome as Error).message).not.toContain(PASSWORD);
    expect((outcome as Error).message).not.toContain('\n');
    expect(await store.countOutbox()).toBe(before); // nothing stored for a refusal
  });

  it.each(['SMSSend', 'SMSSendToPort'] as const)(
    '%s: every parameter the WSDL declares is required',
    async (operation) => {
      const params = contractParams(operation);
      expect(params.length).toBeGreaterThanOrEqual(6);
      const full: Record<string, string> = { ...valid, port: '2948' };
      for (const param of params) {
        const { [param]: _left, ...input } = full;
        const request = { operation, input } as SendRequest;
        await expect(sms.send(request), param).rejects.toMatchObject({ code: 'MissingParameter', field: param });
      }
    },
  );

  it('repeated failures lock the account: TooManyAttempts', async () => {
    const target = { ...valid, emailAddress: 'locked@example.com', password: 'guess guess' };
    for (let i = 0; i < 3; i++)
      await expect(sms.send(smsSend(target))).rejects.toMatchObject({ code: 'AuthenticationFailed' });
    await expect(sms.send(smsSend(target))).rejects.toMatchObject({ code: 'TooManyAttempts' });
  });

  it('a storage failure is SmsUnavailable and acknowledges nothing', async () => {
    store.database.exec(`CREATE TRIGGER sms_fail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'simulated'); END;`);
    try {
      const before = await store.countOutbox();
      const outcomes = await Promise.allSettled([sms.send(smsSend(valid)), sms.send(smsSend(valid))]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(SmsUnavailable);
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({
          code: 'ServiceUnavailable',
          reason: 'StorageError',
        });
      }
      expect(await store.countOutbox()).toBe(before);
    } finally {
      store.database.exec('DROP TRIGGER sms_fail');
    }
    await expect(sms.send(smsSend(valid))).resolves.toMatch(MESSAGE_ID_PATTERN);
  });

  it('outbox report lists messages without text or secrets', async () => {
    const id = await sms.send(smsSendToPort({ ...valid, smsmsg: 'secret-ish body', port: '5000' }));
    const entries = await outboxEntries(store);
    const entry = entries.find((e) => e.id === id);
    expect(entry).toEqual({
      id,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      account: 'alice@example.com',
      keyword: 'ACME',
      smsto: '+14155550123',
      carrierCode: 'att',
      encoding: 'gsm7',
      segments: 1,
      port: 5000,
      state: 'queued',
    });
    const table = formatOutboxTable(entries);
    const json = formatOutboxJson(entries);
    for (const text of [table, json]) {
      expect(text).toContain(id);
      expect(text).not.toContain('secret-ish body');
      expect(text).not.toContain(PASSWORD);
    }
    expect(table.split('\n')[0]).toMatch(
      /^ID\s+TIME\s+ACCOUNT\s+KEYWORD\s+SMSTO\s+CARRIERCODE\s+ENCODING\s+SEGMENTS\s+PORT\s+STATE$/,
    );
    expect(JSON.parse(json)).toHaveLength(entries.length);
  });
});
