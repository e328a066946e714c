/**
 * The durable store: the outbox (with group commit) and account rows, on one SQLite connection.
 *
 * Group commit: `enqueue` only queues the row; the queue is written as one transaction at the
 * end of the current event-loop turn (setImmediate, i.e. after the poll phase has delivered every
 * request that arrived together) or as soon as `maxBatch` rows wait. Each promise resolves only
 * after COMMIT has returned, so an acknowledged id is durable (see db.ts for how durable). If the
 * transaction fails, it is rolled back and every waiter of that batch rejects with the same
 * `StorageError`: nothing of it is stored, nothing is acknowledged. The next batch simply tries
 * again, so the store recovers by itself when the condition (disk full, lock) clears; after a
 * read-only, corrupt or I/O failure the connection is reopened first (see `needsReopen`).
 */
import type Database from 'better-sqlite3';
import { StorageError } from './errors.js';
import { openDatabase, toStorageError, type Durability } from './db.js';
import { createIdGenerator } from './ids.js';
import type { Encoding } from './segments.js';

export interface NewMessage {
  readonly account: string;
  readonly keyword: string;
  readonly recipient: string;
  readonly carrier: string;
  readonly encoding: Encoding;
  readonly segments: number;
  readonly port: number | null;
  readonly text: string;
}

export interface StoredMessage extends NewMessage {
  readonly id: string;
  readonly createdAt: number;
  readonly state: 'queued';
}

export interface AccountRow {
  readonly email: string;
  readonly passwordHash: string;
  readonly keywords: readonly string[];
  readonly disabled: boolean;
  readonly createdAt: number;
}

export interface StoreOptions {
  readonly path: string;
  readonly durability?: Durability;
  readonly busyTimeoutMs?: number;
  /** Rows that trigger a commit without waiting for the end of the turn (default 1024). */
  readonly maxBatch?: number;
  readonly clock?: () => number;
  /** Told of every failed batch (one call per batch), for the log. */
  readonly onError?: (error: StorageError, batchSize: number) => void;
}

export interface Store {
  enqueue(message: NewMessage): Promise<{ id: string }>;
  listOutbox(options?: { limit?: number; afterId?: string }): StoredMessage[];
  countOutbox(): number;
  getAccount(email: string): AccountRow | undefined;
  listAccounts(): AccountRow[];
  insertAccount(row: AccountRow): void;
  updateAccount(
    email: string,
    change: { passwordHash?: string; keywords?: readonly string[]; disabled?: boolean },
  ): boolean;
  /** Commits what is queued, refuses new messages, closes the connection. */
  close(): Promise<void>;
  /** The connection itself, for tests and administration. */
  readonly database: Database.Database;
}

interface Waiter {
  readonly row: Record<string, string | number | null>;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

/** One open connection and what is prepared on it; replaced wholesale when reopened. */
interface Connection {
  readonly db: Database.Database;
  readonly insertBatch: (rows: readonly Waiter[]) => void;
  readonly queries: Queries;
}

type Queries = Pick<
  Store,
  'getAccount' | 'listAccounts' | 'insertAccount' | 'updateAccount' | 'listOutbox' | 'countOutbox'
>;

function connect(options: StoreOptions): Connection {
  const db = openDatabase(options);
  const insert = db.prepare(
    `INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message)
     VALUES (@id, @created_at, @account, @keyword, @recipient, @carrier, @encoding, @segments, @port, @message)`,
  );
  const transaction = db.transaction((rows: readonly Waiter[]) => {
    for (const waiter of rows) insert.run(waiter.row);
  });
  return {
    db,
    insertBatch: (rows) => transaction.immediate(rows),
    queries: { ...accountQueries(db), ...outboxQueries(db) },
  };
}

function toRow(id: string, now: number, message: NewMessage): Waiter['row'] {
  return {
    id,
    created_at: now,
    account: message.account,
    keyword: message.keyword,
    recipient: message.recipient,
    carrier: message.carrier,
    encoding: message.encoding,
    segments: message.segments,
    port: message.port,
    message: message.text,
  };
}

/**
 * Conditions a fresh connection may cure once the operator has fixed the file (restored it,
 * made it writable again): the connection is reopened before its next use. A full disk, a lock
 * or a refused row are simply retried on the same connection.
 */
function needsReopen(error: StorageError): boolean {
  const driver = error.driverCode ?? '';
  return (
    error.code === 'StorageCorrupt' ||
    error.code === 'StorageReadOnly' ||
    driver.startsWith('SQLITE_IOERR') ||
    driver.startsWith('SQLITE_CANTOPEN')
  );
}

export function openStore(options: StoreOptions): Store {
  let conn = connect(options);
  let reopen = false;
  const clock = options.clock ?? Date.now;
  const maxBatch = Math.max(1, options.maxBatch ?? 1024);
  const nextId = createIdGenerator();
  let pending: Waiter[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let closed = false;

  /** Runs `work` on a usable connection; maps failures to StorageError and schedules a reopen when one may help. */
  function use<R>(what: string, work: (c: Connection) => R): R {
    try {
      if (reopen) {
        if (conn.db.open) conn.db.close();
        conn = connect(options);
        reopen = false;
      }
      return work(conn);
    } catch (error) {
      // better-sqlite3 rolls back a failed transaction itself; make sure, or every later batch
      // would fail with "cannot start a transaction within a transaction".
      if (conn.db.open && conn.db.inTransaction) {
        try {
          conn.db.exec('ROLLBACK');
        } catch {
          /* the next use reports the condition */
        }
      }
      const failure = toStorageError(error, what);
      if (reopen || needsReopen(failure)) reopen = true;
      throw failure;
    }
  }

  function flush(): void {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      use('cannot commit to the outbox', (c) => c.insertBatch(batch));
    } catch (error) {
      const failure = toStorageError(error, 'cannot commit to the outbox');
      options.onError?.(failure, batch.length);
      for (const waiter of batch) waiter.reject(failure);
      return;
    }
    for (const waiter of batch) waiter.resolve({ id: String(waiter.row.id) });
  }

  function enqueue(message: NewMessage): Promise<{ id: string }> {
    if (closed) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = clock();
    const row = toRow(nextId(now), now, message);
    return new Promise((resolve, reject) => {
      pending.push({ row, resolve, reject });
      if (pending.length >= maxBatch) flush();
      else scheduled ??= setImmediate(flush);
    });
  }

  return {
    enqueue,
    getAccount: (email) => use('cannot read the account', (c) => c.queries.getAccount(email)),
    listAccounts: () => use('cannot list accounts', (c) => c.queries.listAccounts()),
    insertAccount: (row) => use('cannot add the account', (c) => c.queries.insertAccount(row)),
    updateAccount: (email, change) => use('cannot update the account', (c) => c.queries.updateAccount(email, change)),
    listOutbox: (query) => use('cannot read the outbox', (c) => c.queries.listOutbox(query)),
    countOutbox: () => use('cannot count the outbox', (c) => c.queries.countOutbox()),
    async close() {
      if (closed) return;
      closed = true;
      flush();
      if (conn.db.open) conn.db.close();
    },
    get database() {
      return conn.db;
    },
  };
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

function accountQueries(
  db: Database.Database,
): Pick<Queries, 'getAccount' | 'listAccounts' | 'insertAccount' | 'updateAccount'> {
  const get = db.prepare<[string], AccountRecord>('SELECT * FROM accounts WHERE email = ?');
  const all = db.prepare<[], AccountRecord>('SELECT * FROM accounts ORDER BY email');
  const insert = db.prepare(
    'INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  return {
    getAccount: (email: string) => {
      const record = get.get(email);
      return record === undefined ? undefined : toAccount(record);
    },
    listAccounts: () => all.all().map(toAccount),
    insertAccount: (row: AccountRow) => {
      insert.run(row.email, row.passwordHash, row.keywords.join(' '), row.disabled ? 1 : 0, row.createdAt);
    },
    updateAccount: (
      email: string,
      change: { passwordHash?: string; keywords?: readonly string[]; disabled?: boolean },
    ) => {
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

interface OutboxRecord {
  id: string;
  created_at: number;
  account: string;
  keyword: string;
  recipient: string;
  carrier: string;
  encoding: Encoding;
  segments: number;
  port: number | null;
  message: string;
  state: 'queued';
}

function outboxQueries(db: Database.Database): Pick<Queries, 'listOutbox' | 'countOutbox'> {
  const page = db.prepare<[string, number], OutboxRecord>('SELECT * FROM outbox WHERE id > ? ORDER BY id LIMIT ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox');
  return {
    listOutbox: (options: { limit?: number; afterId?: string } = {}) =>
      page.all(options.afterId ?? '', options.limit ?? -1).map((r) => ({
        id: r.id,
        createdAt: r.created_at,
        account: r.account,
        keyword: r.keyword,
        recipient: r.recipient,
        carrier: r.carrier,
        encoding: r.encoding,
        segments: r.segments,
        port: r.port,
        text: r.message,
        state: r.state,
      })),
    countOutbox: () => count.get()?.n ?? 0,
  };
}
