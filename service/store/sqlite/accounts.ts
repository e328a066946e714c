/** Account rows on SQLite. */
import type Database from 'better-sqlite3';
import type { AccountRow } from '../records.js';

export interface AccountChange {
  readonly passwordHash?: string;
  readonly keywords?: readonly string[];
  readonly disabled?: boolean;
}

export interface SqliteAccounts {
  getAccount(email: string): AccountRow | undefined;
  listAccounts(): AccountRow[];
  insertAccount(row: AccountRow): void;
  updateAccount(email: string, change: AccountChange): boolean;
}

interface AccountRecord {
  email: string;
  password_hash: string;
  keywords: string;
  disabled: number;
  created_at: number;
}

function toAccount(record: AccountRecord): AccountRow {
  return {
    email: record.email,
    passwordHash: record.password_hash,
    keywords: record.keywords === '' ? [] : record.keywords.split(' '),
    disabled: record.disabled === 1,
    createdAt: record.created_at,
  };
}

export function sqliteAccounts(db: Database.Database): SqliteAccounts {
  const get = db.prepare<[string], AccountRecord>('SELECT * FROM accounts WHERE email = ?');
  const all = db.prepare<[], AccountRecord>('SELECT * FROM accounts ORDER BY email');
  const insert = db.prepare(
    'INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    getAccount: (email) => {
      const record = get.get(email);
      return record === undefined ? undefined : toAccount(record);
    },
    listAccounts: () => all.all().map(toAccount),
    insertAccount: (row) => {
      insert.run(row.email, row.passwordHash, row.keywords.join(' '), row.disabled ? 1 : 0, row.createdAt);
    },
    updateAccount: (email, change) => {
      const sets: string[] = [];
      const values: Array<string | number> = [];
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
      if (sets.length === 0) return get.get(email) !== undefined;
      return db.prepare(`UPDATE accounts SET ${sets.join(', ')} WHERE email = ?`).run(...values, email).changes === 1;
    },
  };
}
