/** Account rows on SQLite. */
import type Database from 'better-sqlite3';
import type { AccountRow } from '../records.js';
import { type AccountColumns, accountFromRow } from '../rows.js';

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
  getAccount(email: string): AccountRow | undefined;
  listAccounts(): AccountRow[];
  insertAccount(row: AccountRow): void;
  updateAccount(email: string, change: AccountChange): boolean;
}

export function sqliteAccounts(db: Database.Database): SqliteAccounts {
  const get = db.prepare<[string], AccountColumns>('SELECT * FROM accounts WHERE email = ?');
  const all = db.prepare<[], AccountColumns>('SELECT * FROM accounts ORDER BY email');
  const insert = db.prepare(
    `INSERT INTO accounts (email, password_hash, keywords, disabled, created_at, test, callback_url, callback_secret)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    getAccount: (email) => {
      const record = get.get(email);
      return record === undefined ? undefined : accountFromRow(record);
    },
    listAccounts: () => all.all().map(accountFromRow),
    insertAccount: (row) => {
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
      const sets: string[] = [];
      const values: Array<string | number | null> = [];
      if (change.passwordHash !== undefined) {
        sets.push('password_hash = ?');
        values.push(change.passwordHash);
      }
      if (change.keywords !== undefined) {
        sets.push('keywords = ?');
        values.push(change.keywords.join(' '));
      }
      if (change.disabled !== undefined) {
        sets.push('disabled = ?');
        values.push(change.disabled ? 1 : 0);
      }
      const flags: Array<[string, boolean | undefined]> = [['test', change.test]];
      for (const [column, value] of flags) {
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        values.push(value ? 1 : 0);
      }
      const settable: Array<[string, string | number | null | undefined]> = [
        ['locked_until', change.lockedUntil],
        ['unlocked_at', change.unlockedAt],
        ['callback_url', change.callbackUrl],
        ['callback_secret', change.callbackSecret],
        ['callbacks_disabled_at', change.callbacksDisabledAt],
      ];
      for (const [column, value] of settable) {
        if (value === undefined) continue;
        sets.push(`${column} = ?`);
        values.push(value);
      }
      if (sets.length === 0) return get.get(email) !== undefined;
      return db.prepare(`UPDATE accounts SET ${sets.join(', ')} WHERE email = ?`).run(...values, email).changes === 1;
    },
  };
}
