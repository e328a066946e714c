/**
 * The SQLite store's one connection and what is prepared on it, replaced wholesale when a
 * failure says a fresh one may help (see `needsReopen`). Every store call runs through `use`,
 * which maps failures to StorageError; a delivery call is one immediate transaction, at its own
 * durability.
 */
import type Database from 'better-sqlite3';
import { StorageError } from '../../errors.js';
import { sqliteAccounts, type SqliteAccounts } from './accounts.js';
import { sqliteCallbacks, type SqliteCallbacks } from './callbacks.js';
import { HeldEvents } from './callback-memory.js';
import { sqliteDelivery, type SqliteDelivery } from './delivery.js';
import { type Durability, type OpenOptions, openDatabase, toStorageError } from './open.js';
import { isAcceptance, runWriteOp, WRITE_FAILURE, type WriteOp } from './write-ops.js';
import { OUTBOX_INSERT, sqliteOutbox, type SqliteOutbox, type toInsertRow } from './outbox.js';
import { sqliteOutboxQueries, type SqliteOutboxQueries } from './outbox-query.js';

export type InsertRow = ReturnType<typeof toInsertRow>;

/** One open connection and what is prepared on it. */
export interface Connection {
  readonly db: Database.Database;
  /** The rows in one immediate transaction of their own. */
  readonly insertBatch: (rows: readonly InsertRow[]) => void;
  /** The rows inside the caller's transaction. */
  readonly insertRows: (rows: readonly InsertRow[]) => void;
  readonly accounts: SqliteAccounts;
  readonly outbox: SqliteOutbox;
  readonly queries: SqliteOutboxQueries;
  readonly delivery: SqliteDelivery;
  readonly callbacks: SqliteCallbacks;
}

export interface ConnectionOptions extends OpenOptions {
  /** Delivery state changes: commit without waiting for fsync (normal, the default) or with it (full). */
  readonly deliveryDurability?: Durability;
}

function connect(options: OpenOptions, callbackMemory: HeldEvents): Connection {
  const db = openDatabase(options);
  const insert = db.prepare(OUTBOX_INSERT);
  const insertRows = (rows: readonly InsertRow[]): void => {
    for (const row of rows) insert.run(row);
  };
  const transaction = db.transaction(insertRows);
  return {
    db,
    insertBatch: (rows) => transaction.immediate(rows),
    insertRows,
    accounts: sqliteAccounts(db),
    outbox: sqliteOutbox(db),
    queries: sqliteOutboxQueries(db),
    delivery: sqliteDelivery(db),
    callbacks: sqliteCallbacks(db, callbackMemory),
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

/** One write waiting for its turn: an op of ./write-ops.ts and its arguments. */
export interface PendingWrite {
  readonly op: WriteOp;
  readonly args: readonly unknown[];
}

export type WriteOutcome = { readonly value: unknown } | { readonly error: StorageError };

export class SqliteConnection {
  private conn: Connection;
  private reopen = false;
  /** Set by the store's close: delivery calls are refused from then on. */
  closed = false;
  private readonly acceptSync: 'FULL' | 'NORMAL';
  private readonly deliverySync: 'FULL' | 'NORMAL';
  /** What `writeTogether` last set on a connection (a reopened one starts from the opening value). */
  private readonly synchronousOf = new WeakMap<Database.Database, 'FULL' | 'NORMAL'>();
  /** The callback sender's events in flight: a reopened connection keeps them (./callback-cursor.ts). */
  private readonly callbackMemory = new HeldEvents();

  constructor(private readonly options: ConnectionOptions) {
    this.conn = connect(options, this.callbackMemory);
    this.acceptSync = options.durability === 'normal' ? 'NORMAL' : 'FULL';
    this.deliverySync = options.deliveryDurability === 'full' ? 'FULL' : 'NORMAL';
  }

  get db(): Database.Database {
    return this.conn.db;
  }

  /** Runs `work` on a usable connection; maps failures to StorageError and schedules a reopen when one may help. */
  use<R>(what: string, work: (c: Connection) => R): R {
    try {
      if (this.reopen) {
        if (this.conn.db.open) this.conn.db.close();
        this.conn = connect(this.options, this.callbackMemory);
        this.reopen = false;
      }
      return work(this.conn);
    } catch (error) {
      this.rollBackLeftover();
      const failure = toStorageError(error, what);
      if (this.reopen || needsReopen(failure)) this.reopen = true;
      throw failure;
    }
  }

  /** One statement (or a few) on the connection, as a promise like every store call. */
  read<R>(what: string, work: (c: Connection) => R): Promise<R> {
    try {
      return Promise.resolve(this.use(what, work));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** One immediate transaction for a delivery call, as a promise like every store call. */
  delivery<R>(what: string, work: (d: SqliteDelivery) => R): Promise<R> {
    if (this.closed) return Promise.reject(new StorageError('StorageClosed', 'the store is closed'));
    const { acceptSync, deliverySync } = this;
    return this.read(what, (c) => {
      // synchronous is per connection and read at each COMMIT: switch it around this one.
      if (deliverySync !== acceptSync) c.db.pragma(`synchronous = ${deliverySync}`);
      try {
        return c.db.transaction(() => work(c.delivery)).immediate();
      } finally {
        if (deliverySync !== acceptSync) c.db.pragma(`synchronous = ${acceptSync}`);
      }
    });
  }

  /**
   * A batch's writes as the transactions to commit them in, in order. Where acceptance waits for
   * the disk and delivery's changes do not (the default durabilities), the acceptance writes go
   * first in a transaction of their own, so that a send is answered without waiting for the
   * batch's delivery statements (claims, answers, receipts), which follow in a second transaction
   * with no fsync. Otherwise the batch is one transaction: one fsync for all of it.
   */
  transactionsFor<W extends PendingWrite>(writes: readonly W[]): (readonly W[])[] {
    if (this.acceptSync !== 'FULL' || this.deliverySync !== 'NORMAL') return [writes];
    const acceptance = writes.filter((w) => isAcceptance(w.op));
    if (acceptance.length === 0 || acceptance.length === writes.length) return [writes];
    return [acceptance, writes.filter((w) => !isAcceptance(w.op))];
  }

  /**
   * Runs several writes as one immediate transaction: one COMMIT, so at most one fsync for all
   * of them, and each page they share written to the WAL once. The commit waits for the disk
   * when any write asks for it (acceptance at `durability`, delivery at `deliveryDurability`).
   * If one write fails, the transaction is rolled back and each write runs again in a
   * transaction of its own, so a failure is that write's alone and nothing is half-written.
   */
  writeTogether(writes: readonly PendingWrite[]): WriteOutcome[] {
    if (this.closed) return writes.map(() => ({ error: new StorageError('StorageClosed', 'the store is closed') }));
    const full = writes.some((w) => (isAcceptance(w.op) ? this.acceptSync : this.deliverySync) === 'FULL');
    const what = writes.length === 1 ? WRITE_FAILURE[writes[0]!.op] : 'cannot commit to the store';
    try {
      return this.use(what, (c) => {
        this.synchronous(c.db, full ? 'FULL' : 'NORMAL');
        const values = c.db.transaction(() => writes.map((w) => runWriteOp(c, w.op, w.args))).immediate();
        return values.map((value) => ({ value }));
      });
    } catch (error) {
      if (writes.length === 1) return [{ error: toStorageError(error, what) }];
      return writes.map((w) => this.writeTogether([w])[0]!);
    }
  }

  /** `synchronous` is per connection and read at each COMMIT; set only when it changes. */
  private synchronous(db: Database.Database, level: 'FULL' | 'NORMAL'): void {
    if (this.synchronousOf.get(db) === level) return;
    db.pragma(`synchronous = ${level}`);
    this.synchronousOf.set(db, level);
  }

  close(): void {
    if (this.conn.db.open) this.conn.db.close();
  }

  /**
   * better-sqlite3 rolls back a failed transaction itself; make sure, or every later batch
   * would fail with "cannot start a transaction within a transaction".
   */
  private rollBackLeftover(): void {
    if (!this.conn.db.open || !this.conn.db.inTransaction) return;
    try {
      this.conn.db.exec('ROLLBACK');
    } catch {
      /* the next use reports the condition */
    }
  }
}
