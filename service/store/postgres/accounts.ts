/**
 * Account rows on PostgreSQL (the same meaning as ../sqlite/accounts.ts).
 *
 * Every accepted message reads its account first. Read one by one, that is a round trip per
 * message, on the pool the group commit needs too; so reads asked for while one is on its way
 * wait for it to end and then go together as one query (at most MAX_READ_BATCH addresses). Each
 * read is still sent after it was asked for: it sees every change committed before that.
 */
import type { AccountRow } from '../records.js';
import { type AccountColumns, accountFromRow } from '../rows.js';
import type { AccountChange } from '../sqlite/accounts.js';
import type { AccountCache } from './account-cache.js';
import type { Queryable } from './connect.js';

const MAX_READ_BATCH = 256;

interface AccountRead {
  readonly email: string;
  readonly resolve: (row: AccountRow | undefined) => void;
  readonly reject: (error: unknown) => void;
}

type AccountReader = (email: string) => Promise<AccountRow | undefined>;

/** getAccount, with the reads asked for while one query is on its way sent as the next one. */
function batchedAccountReads(db: Queryable): AccountReader {
  let waiting: AccountRead[] = [];
  let reading = false;
  const readWaiting = (): void => {
    if (reading || waiting.length === 0) return;
    reading = true;
    const emails = [...new Set(waiting.map((read) => read.email))].slice(0, MAX_READ_BATCH);
    const wanted = new Set(emails);
    const batch = waiting.filter((read) => wanted.has(read.email));
    waiting = waiting.filter((read) => !wanted.has(read.email));
    db.query<AccountColumns>({
      name: 'smskit_read_accounts',
      text: 'SELECT * FROM accounts WHERE email = ANY($1::text[])',
      values: [emails],
    })
      .then(
        ({ rows }) => {
          const found = new Map(rows.map((row) => [row.email, accountFromRow(row)]));
          for (const read of batch) read.resolve(found.get(read.email));
        },
        (error: unknown) => {
          for (const read of batch) read.reject(error);
        },
      )
      .finally(() => {
        reading = false;
        readWaiting();
      });
  };
  return (email) =>
    new Promise((resolve, reject) => {
      waiting.push({ email, resolve, reject });
      readWaiting();
    });
}

/** `cache` keeps rows between changes; this instance's own updates drop them from it at once. */
export function postgresAccounts(db: Queryable, cache?: (read: AccountReader) => AccountCache) {
  const read = batchedAccountReads(db);
  const kept = cache?.(read);
  return {
    getAccount: (email: string, fresh?: boolean) =>
      kept === undefined || fresh === true ? read(email) : kept.get(email),
    close: async () => kept?.close(),
    async listAccounts(): Promise<AccountRow[]> {
      const { rows } = await db.query<AccountColumns>('SELECT * FROM accounts ORDER BY email');
      return rows.map(accountFromRow);
    },
    async insertAccount(row: AccountRow): Promise<void> {
      kept?.forget(row.email);
      try {
        await db.query(
          `INSERT INTO accounts (email, password_hash, keywords, disabled, created_at, test, callback_url, callback_secret)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            row.email,
            row.passwordHash,
            row.keywords.join(' '),
            row.disabled,
            row.createdAt,
            row.test === true,
            row.callbackUrl ?? null,
            row.callbackSecret ?? null,
          ],
        );
      } finally {
        kept?.forget(row.email);
      }
    },
    /** Changes only the given fields; false when there is no such account. */
    async updateAccount(email: string, change: AccountChange): Promise<boolean> {
      kept?.forget(email);
      try {
        return await updateRow(db, email, change);
      } finally {
        kept?.forget(email);
      }
    },
  };
}

/** Changes only the given fields; false when there is no such account. */
async function updateRow(db: Queryable, email: string, change: AccountChange): Promise<boolean> {
  const columns: Array<[string, unknown]> = [
    ['password_hash', change.passwordHash],
    ['keywords', change.keywords?.join(' ')],
    ['disabled', change.disabled],
    ['test', change.test],
    ['locked_until', change.lockedUntil],
    ['unlocked_at', change.unlockedAt],
    ['callback_url', change.callbackUrl],
    ['callback_secret', change.callbackSecret],
    ['callbacks_disabled_at', change.callbacksDisabledAt],
  ];
  const given = columns.filter(([, value]) => value !== undefined);
  // Nothing to change still answers whether the account exists.
  const sets = given.length === 0 ? 'email = email' : given.map(([name], i) => `${name} = $${i + 2}`).join(', ');
  const { rows } = await db.query<{ n: number }>(
    `WITH changed AS (UPDATE accounts SET ${sets} WHERE email = $1 RETURNING 1) SELECT count(*) AS n FROM changed`,
    [email, ...given.map(([, value]) => value)],
  );
  return rows[0]?.n === 1;
}
