/**
 * The SQLite store: accounts, the outbox (with group commit) and the delivery engine's state
 * changes, on one connection.
 *
 * Group commit: `enqueue` only queues the row; the queue is written as one transaction at the
 * end of the current event-loop turn (setImmediate, i.e. after the poll phase has delivered every
 * request that arrived together) or as soon as `maxBatch` rows wait. Each promise resolves only
 * after COMMIT has returned, so an acknowledged id is durable (see open.ts for how durable). If the
 * transaction fails, it is rolled back and every waiter of that batch rejects with the same
 * `StorageError`: nothing of it is stored, nothing is acknowledged. The next batch simply tries
 * again, so the store recovers by itself when the condition (disk full, lock) clears; after a
 * read-only, corrupt or I/O failure the connection is reopened first (see `needsReopen`).
 */
import type Database from 'better-sqlite3';
import { StorageError } from '../../errors.js';
import { createIdGenerator } from '../../ids.js';
import type { DeliveryStore } from '../delivery.js';
import type { NewMessage } from '../records.js';
import type { Store, StoreOptions } from '../store.js';
import { sqliteAccounts, type SqliteAccounts } from './accounts.js';
import { sqliteDelivery, type SqliteDelivery } from './delivery.js';
import { openDatabase, toStorageError } from './open.js';
import { OUTBOX_INSERT, sqliteOutbox, toInsertRow, type SqliteOutbox } from './outbox.js';

export interface SqliteStoreOptions extends StoreOptions {
  readonly path: string;
  /** Accepted messages: fsync at every commit (full, the default) or survive a process crash only (normal). */
  readonly durability?: 'full' | 'normal';
  /**
   * Delivery state changes (see docs/delivery.md, "What is durable"): `normal` (the default)
   * commits without waiting for fsync, so the send pipeline is not stopped by the disk; they
   * survive a process crash, and reach the disk with the next acceptance commit or checkpoint.
   * `full` waits for fsync at each delivery commit too.
   */
  readonly deliveryDurability?: 'full' | 'normal';
  readonly busyTimeoutMs?: number;
}

export interface SqliteStore extends Store {
  /** The connection itself, for tests and administration. */
  readonly database: Database.Database;
}

interface Waiter {
  readonly row: ReturnType<typeof toInsertRow>;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

/** One open connection and what is prepared on it; replaced wholesale when reopened. */
interface Connection {
  readonly db: Database.Database;
  readonly insertBatch: (rows: readonly Waiter[]) => void;
  readonly accounts: SqliteAccounts;
  readonly outbox: SqliteOutbox;
  readonly delivery: SqliteDelivery;
}

function connect(options: SqliteStoreOptions): Connection {
  const db = openDatabase(options);
  const insert = db.prepare(OUTBOX_INSERT);
  const transaction = db.transaction((rows: readonly Waiter[]) => {
    for (const waiter of rows) insert.run(waiter.row);
  });
  return {
    db,
    insertBatch: (rows) => transaction.immediate(rows),
    accounts: sqliteAccounts(db),
    outbox: sqliteOutbox(db),
    delivery: sqliteDelivery(db),
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

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  let conn = connect(options);
  let reopen = false;
  const clock = options.clock ?? Date.now;
  const maxBatch = Math.max(1, options.maxBatch ?? 1024);
  const nextId = createIdGenerator();
  const committedListeners = new Set<(count: number) => void>();
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

  /** One statement (or a few) on the connection, as a promise like every store call. */
  function read<R>(what: string, work: (c: Connection) => R): Promise<R> {
    try {
      return Promise.resolve(use(what, work));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  const acceptSync = options.durability === 'normal' ? 'NORMAL' : 'FULL';
  const deliverySync = options.deliveryDurability === 'full' ? 'FULL' : 'NORMAL';

  /** One immediate transaction for a delivery call, as a promise like every store call. */
  function deliveryCall<R>(what: string, work: (d: SqliteDelivery) => R): Promise<R> {
    if (closed) return Promise.reject(new StorageError('StorageClosed', 'the store is closed'));
    try {
      return Promise.resolve(
        use(what, (c) => {
          // synchronous is per connection and read at each COMMIT: switch it around this one.
          if (deliverySync !== acceptSync) c.db.pragma(`synchronous = ${deliverySync}`);
          try {
            return c.db.transaction(() => work(c.delivery)).immediate();
          } finally {
            if (deliverySync !== acceptSync) c.db.pragma(`synchronous = ${acceptSync}`);
          }
        }),
      );
    } catch (error) {
      return Promise.reject(error);
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
    for (const waiter of batch) waiter.resolve({ id: waiter.row.id });
    for (const listener of committedListeners) listener(batch.length);
  }

  function enqueue(message: NewMessage, state: 'queued' | 'test' = 'queued'): Promise<{ id: string }> {
    if (closed) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = clock();
    const row = toInsertRow(nextId(now), now, message, state);
    return new Promise((resolve, reject) => {
      pending.push({ row, resolve, reject });
      if (pending.length >= maxBatch) flush();
      else scheduled ??= setImmediate(flush);
    });
  }

  const delivery: DeliveryStore = {
    claim: (request) => deliveryCall('cannot claim messages to send', (d) => d.claim(request)),
    apply: (changes) => deliveryCall('cannot record delivery states', (d) => d.apply(changes)),
    renewLeases: (owner, until) => deliveryCall('cannot renew leases', (d) => d.renewLeases(owner, until)),
    recoverExpiredLeases: (now) => deliveryCall('cannot take back stale messages', (d) => d.recoverExpiredLeases(now)),
    expireOverdue: (before, now) => deliveryCall('cannot expire messages', (d) => d.expireOverdue(before, now)),
  };

  return {
    kind: 'sqlite',
    enqueue,
    onCommitted(listener) {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
    delivery,
    getAccount: (email) => read('cannot read the account', (c) => c.accounts.getAccount(email)),
    listAccounts: () => read('cannot list accounts', (c) => c.accounts.listAccounts()),
    insertAccount: (row) => read('cannot add the account', (c) => c.accounts.insertAccount(row)),
    updateAccount: (email, change) => read('cannot update the account', (c) => c.accounts.updateAccount(email, change)),
    listOutbox: (page) => read('cannot read the outbox', (c) => c.outbox.listOutbox(page)),
    countOutbox: () => read('cannot count the outbox', (c) => c.outbox.countOutbox()),
    getMessage: (id) => read('cannot read the message', (c) => c.outbox.getMessage(id)),
    history: (id) => read('cannot read the message history', (c) => c.outbox.history(id)),
    countByState: () => read('cannot count the outbox', (c) => c.outbox.countByState()),
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
