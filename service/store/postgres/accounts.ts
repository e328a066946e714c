/** Account rows on PostgreSQL (the same meaning as ../sqlite/accounts.ts). */
import type { AccountRow } from '../records.js';
import type { AccountChange } from '../sqlite/accounts.js';
import type { Queryable } from './connect.js';

interface AccountRecord {
  email: string;
  password_hash: string;
  keywords: string;
  disabled: boolean;
  created_at: number;
}

function toAccount(record: AccountRecord): AccountRow {
  return {
    email: record.email,
    passwordHash: record.password_hash,
    keywords: record.keywords === '' ? [] : record.keywords.split(' '),
    disabled: record.disabled,
    createdAt: record.created_at,
  };
}

export function postgresAccounts(db: Queryable) {
  return {
    async getAccount(email: string): Promise<AccountRow | undefined> {
      const { rows } = await db.query<AccountRecord>('SELECT * FROM accounts WHERE email = $1', [email]);
      return rows[0] === undefined ? undefined : toAccount(rows[0]);
    },
    async listAccounts(): Promise<AccountRow[]> {
      const { rows } = await db.query<AccountRecord>('SELECT * FROM accounts ORDER BY email');
      return rows.map(toAccount);
    },
    async insertAccount(row: AccountRow): Promise<void> {
      await db.query(
        'INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ($1, $2, $3, $4, $5)',
        [row.email, row.passwordHash, row.keywords.join(' '), row.disabled, row.createdAt],
      );
    },
    /** Changes only the given fields; false when there is no such account. */
    async updateAccount(email: string, change: AccountChange): Promise<boolean> {
      const { rows } = await db.query<{ n: number }>(
        `WITH changed AS (
           UPDATE accounts SET password_hash = coalesce($2, password_hash), keywords = coalesce($3, keywords),
             disabled = coalesce($4, disabled) WHERE email = $1 RETURNING 1)
         SELECT count(*) AS n FROM changed`,
        [email, change.passwordHash ?? null, change.keywords?.join(' ') ?? null, change.disabled ?? null],
      );
      return rows[0]?.n === 1;
    },
  };
}
