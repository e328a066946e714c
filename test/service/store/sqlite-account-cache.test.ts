/**
 * Account rows kept on SQLite between changes (service/store/sqlite/account-cache.ts): the
 * accounts' version is read once per turn of the event loop and each address once per version;
 * a change made by another connection (another process's `smskit account`) is seen from the next
 * turn on, one made through the same store at once; every change to an account row bumps the
 * version (the triggers of migration 9).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountRow } from '../../../service/store/records.js';
import { AccountRowCache } from '../../../service/store/sqlite/account-cache.js';
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

/** A cache over counted reads, whose turns end when the test says. */
function counted(rows: Map<string, AccountRow>) {
  let version = 0;
  const reads = { version: 0, rows: 0 };
  const endOfTurn: Array<() => void> = [];
  const cache = new AccountRowCache(
    () => {
      reads.version++;
      return version;
    },
    (email) => {
      reads.rows++;
      return rows.get(email);
    },
    (task) => endOfTurn.push(task),
  );
  return {
    cache,
    reads,
    bump: () => version++,
    endTurn: () => {
      for (const task of endOfTurn.splice(0)) task();
    },
  };
}

describe('the account row cache', () => {
  it('reads the version once per turn and each address (known or not) once per version', () => {
    const t = counted(new Map([[ALICE.email, ALICE]]));
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    expect(t.cache.get('nobody@example.com')).toBeUndefined();
    expect(t.cache.get('nobody@example.com')).toBeUndefined();
    expect(t.reads).toEqual({ version: 1, rows: 2 });
    t.endTurn();
    t.cache.get(ALICE.email);
    t.cache.get('nobody@example.com');
    expect(t.reads).toEqual({ version: 2, rows: 2 });
  });

  it('drops every row when the version moved, from the next turn on', () => {
    const rows = new Map([[ALICE.email, ALICE]]);
    const t = counted(rows);
    t.cache.get(ALICE.email);
    const disabled = { ...ALICE, disabled: true };
    rows.set(ALICE.email, disabled);
    t.bump();
    // The same turn: what was kept (a request racing the change).
    expect(t.cache.get(ALICE.email)).toBe(ALICE);
    t.endTurn();
    expect(t.cache.get(ALICE.email)).toBe(disabled);
    expect(t.reads).toEqual({ version: 2, rows: 2 });
  });

  it("after forget() (a change of this connection's) reads again at once, and checks the version next turn", () => {
    const rows = new Map([[ALICE.email, ALICE]]);
    const t = counted(rows);
    t.cache.get(ALICE.email);
    const locked = { ...ALICE, lockedUntil: 99 };
    rows.set(ALICE.email, locked);
    t.cache.forget();
    expect(t.cache.get(ALICE.email)).toBe(locked);
    t.endTurn();
    t.bump();
    expect(t.cache.get(ALICE.email)).toBe(locked);
    expect(t.reads).toEqual({ version: 2, rows: 3 });
  });
});

describe('account rows kept by the SQLite store', () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it("sees another connection's change from the next turn on, and its own at once", async () => {
    const path = join(dir, `cache-${files++}.db`);
    const store = openSqliteStore({ path });
    const other = new Database(path);
    try {
      await store.insertAccount(ALICE);
      expect((await store.getAccount(ALICE.email))?.disabled).toBe(false);
      other.prepare('UPDATE accounts SET disabled = 1 WHERE email = ?').run(ALICE.email);
      await turn();
      expect((await store.getAccount(ALICE.email))?.disabled).toBe(true);
      other
        .prepare('INSERT INTO accounts (email, password_hash, keywords, created_at) VALUES (?, ?, ?, ?)')
        .run('bob@example.com', 'y', 'BOB', 2);
      await turn();
      expect((await store.getAccount('bob@example.com'))?.keywords).toEqual(['BOB']);
      other.prepare('DELETE FROM accounts WHERE email = ?').run('bob@example.com');
      await turn();
      expect(await store.getAccount('bob@example.com')).toBeUndefined();
      // Through the store itself: in the same turn.
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
