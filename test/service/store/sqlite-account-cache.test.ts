/**
 * Account rows kept on SQLite between changes (service/store/sqlite/account-cache.ts): the
 * accounts' version is read at most once per VERSION_CHECK_MS and each address once per version;
 * a change made by another connection (another process's `smskit account`) is seen once that
 * time has passed, one made through the same store at once; every change to an account row
 * bumps the version (the triggers of migration 9).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountRow } from '../../../service/store/records.js';
import { AccountRowCache, VERSION_CHECK_MS } from '../../../service/store/sqlite/account-cache.js';
import { openSqliteStore } from '../../../service/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-account-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const ALICE: AccountRow = {
  email: 'alice@example.com',
  passwordHash: 'x',
  keywords: ['ACME'],
  disabled: false,
  createdAt: 1,
};

/** A cache over counted reads, on a clock the test moves. */
function counted(rows: Map<string, AccountRow>) {
  let version = 0;
  let now = 1_000;
  const reads = { version: 0, rows: 0 };
  const cache = new AccountRowCache(
    () => {
      reads.version++;
      return version;
    },
    (email) => {
      reads.rows++;
      return rows.get(email);
    },
    () => now,
  );
  return {
    cache,
    reads,
    bump: () => version++,
    wait: (ms: number) => {
      now += ms;
    },
  };
}

describe('the account row cache', () => {
  it('reads the version at most once per VERSION_CHECK_MS and each address (known or not) once per version', () => {
    const t = counted(new Map([[ALICE.email, ALICE]]));
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    expect(t.cache.get('nobody@example.com')).toBeUndefined();
    expect(t.cache.get('nobody@example.com')).toBeUndefined();
    t.wait(VERSION_CHECK_MS - 1);
    t.cache.get(ALICE.email);
    expect(t.reads).toEqual({ version: 1, rows: 2 });
    t.wait(1);
    t.cache.get(ALICE.email);
    t.cache.get('nobody@example.com');
    expect(t.reads).toEqual({ version: 2, rows: 2 });
  });

  it('drops every row when the version moved, once VERSION_CHECK_MS has passed', () => {
    const rows = new Map([[ALICE.email, ALICE]]);
    const t = counted(rows);
    t.cache.get(ALICE.email);
    const disabled = { ...ALICE, disabled: true };
    rows.set(ALICE.email, disabled);
    t.bump();
    // Within the interval: what was kept (as a request that raced the change).
    t.wait(VERSION_CHECK_MS - 1);
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    t.wait(1);
    expect(t.cache.get(ALICE.email)).toBe(disabled);
    expect(t.reads).toEqual({ version: 2, rows: 2 });
  });

  it("after forget() (a change of this connection's) reads the version and the row again at once", () => {
    const rows = new Map([[ALICE.email, ALICE]]);
    const t = counted(rows);
    t.cache.get(ALICE.email);
    const locked = { ...ALICE, lockedUntil: 99 };
    rows.set(ALICE.email, locked);
    t.bump();
    t.cache.forget();
    expect(t.cache.get(ALICE.email)).toBe(locked);
    expect(t.reads).toEqual({ version: 2, rows: 2 });
  });
});

describe('account rows kept by the SQLite store', () => {
  // Well past the interval: a timer may fire up to the event loop's cached time early.
  const interval = () => new Promise((resolve) => setTimeout(resolve, 3 * VERSION_CHECK_MS));

  it("sees another connection's change once VERSION_CHECK_MS has passed, and its own at once", async () => {
    const path = join(dir, `cache-${files++}.db`);
    const store = openSqliteStore({ path });
    const other = new Database(path);
    try {
      await store.insertAccount(ALICE);
      expect((await store.getAccount(ALICE.email))?.disabled).toBe(false);
      other.prepare('UPDATE accounts SET disabled = 1 WHERE email = ?').run(ALICE.email);
      await interval();
      expect((await store.getAccount(ALICE.email))?.disabled).toBe(true);
      expect(await store.getAccount('bob@example.com')).toBeUndefined();
      other
        .prepare('INSERT INTO accounts (email, password_hash, keywords, created_at) VALUES (?, ?, ?, ?)')
        .run('bob@example.com', 'y', 'BOB', 2);
      await interval();
      expect((await store.getAccount('bob@example.com'))?.keywords).toEqual(['BOB']);
      other.prepare('DELETE FROM accounts WHERE email = ?').run('bob@example.com');
      await interval();
      expect(await store.getAccount('bob@example.com')).toBeUndefined();
      // Through the store itself: at once.
      await store.updateAccount(ALICE.email, { disabled: false, keywords: ['NEW'] });
      expect(await store.getAccount(ALICE.email)).toMatchObject({ disabled: false, keywords: ['NEW'] });
    } finally {
      other.close();
      await store.close();
    }
  });

  it('bumps the version at every insert, update and delete of an account, whoever writes', async () => {
    const path = join(dir, `cache-${files++}.db`);
    const store = openSqliteStore({ path });
    const version = () => store.database.prepare('SELECT version FROM accounts_version').pluck().get();
    try {
      expect(version()).toBe(0);
      await store.insertAccount(ALICE);
      expect(version()).toBe(1);
      await store.updateAccount(ALICE.email, { lockedUntil: 5 });
      expect(version()).toBe(2);
      store.database.prepare('DELETE FROM accounts').run();
      expect(version()).toBe(3);
    } finally {
      await store.close();
    }
  });
});
