/** Account rows on PostgreSQL (the same meaning as ../sqlite/accounts.ts). */
import type { AccountRow } from '../records.js';
import { type AccountColumns, accountFromRow } from '../rows.js';
import type { AccountChange } from '../sqlite/accounts.js';
import type { Queryable } from './connect.js';

export function postgresAccounts(db: Queryable) {
  return {
    async getAccount(email: string): Promise<AccountRow | undefined> {
      const { rows } = await db.query<AccountColumns>('SELECT * FROM accounts WHERE email = $1', [email]);
      return rows[0] === undefined ? undefined : accountFromRow(rows[0]);
    },
    async listAccounts(): Promise<AccountRow[]> {
      const { rows } = await db.query<AccountColumns>('SELECT * FROM accounts ORDER BY email');
      return rows.map(accountFromRow);
    },
    async insertAccount(row: AccountRow): Promise<void> {
      await db.query(
        'INSERT INTO accounts (email, password_hash, keywords, disabled, created_at, test) VALUES ($1, $2, $3, $4, $5, $6)',
        [row.email, row.passwordHash, row.keywords.join(' '), row.disabled, row.createdAt, row.test === true],
      );
    },
    /** Changes only the given fields; false when there is no such account. */
    async updateAccount(email: string, change: AccountChange): Promise<boolean> {
      const columns: Array<[string, unknown]> = [
        ['password_hash', change.passwordHash],
        ['keywords', change.keywords?.join(' ')],
        ['disabled', change.disabled],
        ['test', change.test],
        ['locked_until', change.lockedUntil],
        ['unlocked_at', change.unlockedAt],
      ];
      const given = columns.filter(([, value]) => value !== undefined);
      // Nothing to change still answers whether the account exists.
      const sets = given.length === 0 ? 'email = email' : given.map(([name], i) => `${name} = $${i + 2}`).join(', ');
      const { rows } = await db.query<{ n: number }>(
        `WITH changed AS (UPDATE accounts SET ${sets} WHERE email = $1 RETURNING 1) SELECT count(*) AS n FROM changed`,
        [email, ...given.map(([, value]) => value)],
      );
      return rows[0]?.n === 1;
    },
  };
}
