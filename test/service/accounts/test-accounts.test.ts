/**
 * Test accounts and lockouts, on a real store: a test account's message is validated, stored and
 * answered like any other but in state `test` (the delivery engine never claims it), with the
 * X-Smskit-Delivery header saying so; a lockout is shown by list and lifted by unlock from
 * another Accounts instance on the same database (as `smskit account unlock` does from its own
 * process).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccounts, type AccountsOptions } from '../../../service/accounts/accounts.js';
import { createCarrierTable } from '../../../service/delivery/carriers.js';
import { SmsRefusal } from '../../../service/errors.js';
import { startSmsServer } from '../../../service/server.js';
import { createSmsService } from '../../../service/send/sms.js';
import { openSqliteStore, SCHEMA_VERSION, type SqliteStore } from '../../../service/store/index.js';
import { MIGRATIONS } from '../../../service/store/sqlite/migrations.js';

const FAST = { logN: 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'smskit-test-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: SqliteStore;
let counter = 0;
let now = 1_700_000_000_000;
const clock = (): number => now;
const LIMITS = {
  perAccount: { maxFailures: 3, windowMs: 60_000 },
  perAddress: { maxFailures: 100, windowMs: 60_000 },
};

beforeEach(() => {
  store = openSqliteStore({ path: join(dir, `store-${counter++}.db`), clock });
});
afterEach(async () => store.close());

function accounts(options: Partial<AccountsOptions> = {}) {
  return createAccounts({ store, scrypt: FAST, clock, limits: LIMITS, cacheTtlMs: 0, ...options });
}

const SEND = (email: string) => ({
  operation: 'SMSSend' as const,
  input: {
    keyword: 'ACME',
    emailAddress: email,
    password: PASSWORD,
    smsto: '+15551234567',
    carrierCode: 'auto',
    smsmsg: 'Hi ✓',
  },
});

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'accepted';
  } catch (error) {
    if (error instanceof SmsRefusal) return error.code;
    throw error;
  }
}

describe('test accounts', () => {
  it('the schema migrates to the version with accounts.test', () => {
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const columns = store.database.prepare('PRAGMA table_info(accounts)').all() as { name: string }[];
    expect(columns.map((c) => c.name)).toEqual(expect.arrayContaining(['test', 'locked_until', 'unlocked_at']));
  });

  it('a version 2 database keeps its accounts, live and unlocked, when it moves to the current schema', async () => {
    const path = join(dir, `v2-${counter++}.db`);
    const v2 = new Database(path);
    v2.exec(MIGRATIONS[0] ?? '');
    v2.exec(MIGRATIONS[1] ?? '');
    v2.pragma('user_version = 2');
    v2.prepare(
      "INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ('old@example.com', 'x', 'ACME', 0, 1)",
    ).run();
    v2.close();
    const migrated = openSqliteStore({ path, clock });
    try {
      expect(await migrated.getAccount('old@example.com')).toMatchObject({
        test: false,
        lockedUntil: null,
        unlockedAt: null,
      });
    } finally {
      await migrated.close();
    }
  });

  it("a test account's message is stored in state test and never claimed for delivery; a live one is queued", async () => {
    const admin = accounts();
    await admin.add({ email: 'ci@example.com', password: PASSWORD, keywords: ['acme'], test: true });
    await admin.add({ email: 'live@example.com', password: PASSWORD, keywords: ['acme'] });
    const sms = createSmsService({ store, accounts: admin, carriers: createCarrierTable() });
    const told: string[] = [];
    const testId = await sms.send(SEND('ci@example.com'), { onStored: (state) => told.push(state) });
    const liveId = await sms.send(SEND('live@example.com'), { onStored: (state) => told.push(state) });
    expect(told).toEqual(['test', 'queued']);
    expect(await store.getMessage(testId)).toMatchObject({ state: 'test', smsmsg: 'Hi ✓', smsto: '+15551234567' });
    expect(await store.getMessage(liveId)).toMatchObject({ state: 'queued' });
    const claimed = await store.delivery.claim({
      route: 'r',
      carriers: { except: [] },
      limit: 10,
      owner: 'w',
      now,
      leaseUntil: now + 1000,
    });
    expect(claimed.map((m) => m.id)).toEqual([liveId]);
  });

  it('switching an account to test and back changes where its next message goes', async () => {
    const admin = accounts();
    await admin.add({ email: 'a@example.com', password: PASSWORD, keywords: ['acme'] });
    const sms = createSmsService({ store, accounts: admin, carriers: createCarrierTable() });
    await admin.setTest('a@example.com', true);
    expect((await admin.list())[0]?.test).toBe(true);
    const first = await sms.send(SEND('a@example.com'));
    await admin.setTest('a@example.com', false);
    const second = await sms.send(SEND('a@example.com'));
    expect([(await store.getMessage(first))?.state, (await store.getMessage(second))?.state]).toEqual([
      'test',
      'queued',
    ]);
    await expect(admin.setTest('nobody@example.com', true)).rejects.toThrow(/no account nobody@example.com/);
  });

  it('over the wire the answer is the usual id, and X-Smskit-Delivery says test or queued', async () => {
    const server = await startSmsServer({ dbPath: join(dir, `wire-${counter++}.db`), scrypt: FAST });
    try {
      await server.app.accounts.add({ email: 'ci@example.com', password: PASSWORD, keywords: ['acme'], test: true });
      await server.app.accounts.add({ email: 'live@example.com', password: PASSWORD, keywords: ['acme'] });
      const headers: Array<string | null> = [];
      for (const email of ['ci@example.com', 'live@example.com']) {
        const query = new URLSearchParams({ ...SEND(email).input });
        const response = await fetch(`${server.url}/serviceapi.asmx/SMSSend?${query}`);
        expect(response.status).toBe(200);
        expect(await response.text()).toMatch(/>SMS-[0-9A-HJKMNP-TV-Z]{26}</);
        headers.push(response.headers.get('x-smskit-delivery'));
      }
      expect(headers).toEqual(['test', 'queued']);
    } finally {
      await server.close();
    }
  });
});

describe('lockout, unlock, password change', () => {
  it('list shows a lockout; unlock from another process lifts it at once; earlier failures no longer count', async () => {
    const server = accounts(); // the running service's Accounts (its limiter is in memory)
    await server.add({ email: 'bob@example.com', password: PASSWORD, keywords: ['acme'] });
    for (let i = 0; i < 3; i++)
      expect(await codeOf(() => server.authenticate('bob@example.com', 'wrong password'))).toBe('AuthenticationFailed');
    expect(await codeOf(() => server.authenticate('bob@example.com', PASSWORD))).toBe('TooManyAttempts');
    const cli = accounts(); // `smskit account …`: another Accounts on the same database
    expect((await cli.list())[0]?.lockedUntil).toBe(new Date(now + 60_000).toISOString());
    now += 1;
    await cli.unlock('bob@example.com');
    expect((await cli.list())[0]?.lockedUntil).toBeNull();
    expect(await codeOf(() => server.authenticate('bob@example.com', PASSWORD))).toBe('accepted');
    // After the unlock, new failures count from zero: two are not yet a lockout.
    now += 1;
    for (let i = 0; i < 2; i++) await codeOf(() => server.authenticate('bob@example.com', 'wrong password'));
    expect(await codeOf(() => server.authenticate('bob@example.com', PASSWORD))).toBe('accepted');
  });

  it('enable lifts a lockout too; a lockout ends by itself after the window', async () => {
    const server = accounts();
    await server.add({ email: 'eve@example.com', password: PASSWORD, keywords: ['acme'] });
    for (let i = 0; i < 3; i++) await codeOf(() => server.authenticate('eve@example.com', 'nope nope nope'));
    now += 1;
    await accounts().setDisabled('eve@example.com', false);
    expect(await codeOf(() => server.authenticate('eve@example.com', PASSWORD))).toBe('accepted');
    for (let i = 0; i < 3; i++) await codeOf(() => server.authenticate('eve@example.com', 'nope nope nope'));
    expect((await server.list())[0]?.lockedUntil).not.toBeNull();
    now += 60_001;
    expect((await server.list())[0]?.lockedUntil).toBeNull();
  });

  it('passwd: the new password works at once, the old one no longer does', async () => {
    const server = accounts();
    await server.add({ email: 'pat@example.com', password: PASSWORD, keywords: ['acme'] });
    await accounts().setPassword('pat@example.com', 'a brand new password');
    expect(await codeOf(() => server.authenticate('pat@example.com', PASSWORD))).toBe('AuthenticationFailed');
    expect(await codeOf(() => server.authenticate('pat@example.com', 'a brand new password'))).toBe('accepted');
  });
});
