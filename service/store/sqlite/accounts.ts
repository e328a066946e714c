/** Account rows on SQLite. */
import type Database from 'better-sqlite3';
import type { AccountRow } from '../records.js';
import { type AccountColumns, accountFromRow } from '../rows.js';
import { AccountRowCache } from './account-cache.js';

export interface AccountChange {
  readonly passwordHash?: string;
  readonly keywords?: readonly string[];
  readonly disabled?: boolean;
  readonly test?: boolean;
  readonly lockedUntil?: number | null;
  readonly unlockedAt?: number | null;
  /** null removes the account's callbacks (its pending events become dead). */
  readonly callbackUrl?: string | null;
  readonly callbackSecret?: string | null;
  readonly callbacksDisabledAt?: number | null;
}

export interface SqliteAccounts {
  /** The row kept since the last change seen (./account-cache.ts), or with `fresh` the row as it is now. */
  getAccount(email: string, fresh?: boolean): AccountRow | undefined;
  listAccounts(): AccountRow[];
  insertAccount(row: AccountRow): void;
  updateAccount(email: string, change: AccountChange): boolean;
}

export function sqliteAccounts(db: Database.Database): SqliteAccounts {
  const get = db.prepare<[string], AccountColumns>('SELECT * FROM accounts WHERE email = ?');
  const version = db.prepare<[], number>('SELECT version FROM accounts_version').pluck();
  const read = (email: string): AccountRow | undefined => {
    const record = get.get(email);
    return record === undefined ? undefined : accountFromRow(record);
  };
  const kept = new AccountRowCache(() => version.get() ?? 0, read);
  const all = db.prepare<[], AccountColumns>('SELECT * FROM accounts ORDER BY email');
  const insert = db.prepare(
    `INSERT INTO accounts (email, password_hash, keywords, disabled, created_at, test, callback_url, callback_secret)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    getAccount: (email, fresh) => (fresh === true ? read(email) : kept.get(email)),
    listAccounts: () => all.all().map(accountFromRow),
    insertAccount: (row) => {
      kept.forget();
      insert.run(
        row.email,
        row.passwordHash,
        row.keywords.join(' '),
        row.disabled ? 1 : 0,
        row.createdAt,
        row.test === true ? 1 : 0,
        row.callbackUrl ?? null,
        row.callbackSecret ?? null,
      );
    },
    updateAccount: (email, change) => {
      const given = columnsOf(change);
      if (given.length === 0) return get.get(email) !== undefined;
      kept.forget();
      const sets = given.map(([column]) => `${column} = ?`).join(', ');
      const values = given.map(([, value]) => value);
      return db.prepare(`UPDATE accounts SET ${sets} WHERE email = ?`).run(...values, email).changes === 1;
    },
  };
}

/** The columns a change sets, with their SQLite values (flags as 0/1), in a fixed order. */
function columnsOf(change: AccountChange): Array<[string, string | number | null]> {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const columns: Array<[string, string | number | null | undefined]> = [
    ['password_hash', change.passwordHash],
    ['keywords', change.keywords?.join(' ')],
    ['disabled', flag(change.disabled)],
    ['test', flag(change.test)],
    ['locked_until', change.lockedUntil],
    ['unlocked_at', change.unlockedAt],
    ['callback_url', change.callbackUrl],
    ['callback_secret', change.callbackSecret],
    ['callbacks_disabled_at', change.callbacksDisabledAt],
  ];
  return columns.filter((entry): entry is [string, string | number | null] => entry[1] !== undefined);
}
