import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../runtime/errors.js';
import { checkSmsAppOptions, openSmsApp, type SmsApp, type SmsAppOptions } from '../../service/app.js';
import { sqliteDatabaseOf } from '../../service/store/index.js';
import { SmsUnavailable } from '../../service/errors.js';
import { MESSAGE_ID_PATTERN } from '../../service/store/ids.js';

const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'smskit-handlers-'));
const logged: string[] = [];
let app: SmsApp;

beforeAll(async () => {
  app = await openSmsApp({
    dbPath: join(dir, 'app.db'),
    scrypt: { logN: 10, r: 8, p: 1 },
    defaultCountryCode: '44',
    log: (line) => logged.push(line),
  });
  await app.accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME'] });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const input = {
  keyword: 'ACME',
  emailAddress: 'alice@example.com',
  password: PASSWORD,
  smsto: '07700 900123',
  carrierCode: 'auto',
  smsmsg: 'Hi',
};
const ctx = { remoteAddress: '192.0.2.1' };

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

describe('wire handlers', () => {
  const cases: Array<
    [
      string,
      { given: () => Promise<unknown>; want: { result?: string; code?: string; detail?: Record<string, string> } },
    ]
  > = [
    ['SMSSend success', { given: () => app.handlers.SMSSend(input, ctx), want: { result: 'SMSSendResult' } }],
    [
      'SMSSendToPort success',
      {
        given: () => app.handlers.SMSSendToPort({ ...input, port: '2948' }, ctx),
        want: { result: 'SMSSendToPortResult' },
      },
    ],
    [
      'SMSSendToPort without port',
      {
        given: () => app.handlers.SMSSendToPort(input, ctx),
        want: { code: 'MissingParameter', detail: { field: 'port' } },
      },
    ],
    [
      'refusal with a field',
      {
        given: () => app.handlers.SMSSend({ ...input, carrierCode: 'nope' }, ctx),
        want: { code: 'UnknownCarrier', detail: { field: 'carrierCode' } },
      },
    ],
    [
      'refusal without a field',
      {
        given: () => app.handlers.SMSSend({ ...input, password: 'wrong password' }, ctx),
        want: { code: 'AuthenticationFailed' },
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const got = await outcome(given);
    if (want.result !== undefined) {
      expect(Object.keys(got as object)).toEqual([want.result]);
      expect((got as Record<string, string>)[want.result]).toMatch(MESSAGE_ID_PATTERN);
      return;
    }
    expect(got).toBeInstanceOf(ServiceError);
    expect(got).toMatchObject({
      code: want.code,
      detail: want.detail,
      message: expect.stringMatching(new RegExp(`^${want.code}: `)),
    });
    expect((got as Error).message).not.toContain(PASSWORD);
  });

  it('a storage failure is SmsUnavailable (a Server fault), logged once per batch', async () => {
    sqliteDatabaseOf(app.store).exec(
      `CREATE TRIGGER h_fail BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'simulated'); END;`,
    );
    const got = await Promise.all([
      outcome(() => app.handlers.SMSSend(input, ctx)),
      outcome(() => app.handlers.SMSSend(input, ctx)),
    ]);
    sqliteDatabaseOf(app.store).exec('DROP TRIGGER h_fail');
    for (const error of got) {
      expect(error).toBeInstanceOf(SmsUnavailable);
      expect(error).not.toBeInstanceOf(ServiceError);
      expect((error as Error).message).toMatch(/could not be stored \(StorageError, SQLITE_CONSTRAINT_TRIGGER\)/);
    }
    expect(logged).toEqual([
      'outbox commit of 2 message(s) failed: StorageError [SQLITE_CONSTRAINT_TRIGGER]: cannot commit to the outbox: simulated',
    ]);
    expect(logged.join()).not.toContain(PASSWORD);
  });

  it('stores national numbers with the configured country code', async () => {
    const { SMSSendResult: id } = await app.handlers.SMSSend(input, ctx);
    expect((await app.store.listOutbox()).find((m) => m.id === id)?.smsto).toBe('+447700900123');
  });
});

describe('service options', () => {
  const cases: Array<[string, { given: Record<string, unknown>; want: RegExp | null }]> = [
    ['minimal', { given: { dbPath: 'x.db' }, want: null }],
    ['unknown option', { given: { dbPath: 'x.db', maxSegment: 3 }, want: /unknown service option\(s\): maxSegment/ }],
    ['no dbPath', { given: {}, want: /dbPath is required/ }],
    ['bad durability', { given: { dbPath: 'x.db', durability: 'off' }, want: /durability/ }],
    ['bad country code', { given: { dbPath: 'x.db', defaultCountryCode: '044' }, want: /country calling code/ }],
    ['zero segments', { given: { dbPath: 'x.db', maxSegments: 0 }, want: /maxSegments/ }],
    ['256 segments', { given: { dbPath: 'x.db', maxSegments: 256 }, want: /maxSegments/ }],
    ['negative cache ttl', { given: { dbPath: 'x.db', credentialCacheTtlMs: -1 }, want: /credentialCacheTtlMs/ }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const check = () => checkSmsAppOptions(given as unknown as SmsAppOptions);
    if (want === null) expect(check).not.toThrow();
    else expect(check).toThrow(want);
  });
});
