/**
 * The SQLite store: accounts, the outbox (with group commit, ./group-commit.ts) and the delivery
 * engine's state changes, on one connection (./connection.ts), or with the hot-path writes on a
 * second connection in the writer thread (./writer.ts) when `writerThread` is set.
 *
 * An acknowledged id is durable (see open.ts for how durable). A failed commit stores and
 * acknowledges nothing of its batch; the next batch simply tries again, so the store recovers by
 * itself when the condition (disk full, lock) clears; after a read-only, corrupt or I/O failure
 * the connection is reopened first (see `needsReopen` in ./connection.ts).
 */
import type Database from 'better-sqlite3';
import type { CallbackStore } from '../callbacks.js';
import type { DeliveryStore } from '../delivery.js';
import type { Store, StoreOptions } from '../store.js';
import { senderCalls } from './callback-channel.js';
import { SqliteConnection } from './connection.js';
import { GroupCommit } from './group-commit.js';
import { timeOutReceiptsOnSqlite } from './receipt-timeout.js';
import { sqliteMessageParts } from './parts.js';
import { type SqliteWriter, startSqliteWriter } from './writer.js';
import { runWriteOp, WRITE_FAILURE, type WriteOps } from './write-ops.js';
import { StorageError } from '../../errors.js';

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
  /**
   * Commit acceptance and delivery writes on a thread of their own (./writer.ts), so the disk
   * never stops the event loop: what `smskit serve` does. Off by default: a short command (and
   * most tests) has nothing to gain from starting a thread.
   */
  readonly writerThread?: boolean;
}

export interface SqliteStore extends Store {
  /** The connection itself, for tests and administration. */
  readonly database: Database.Database;
}

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const connection = new SqliteConnection(options);
  // After the event loop's connection has created and migrated the schema.
  const writer = options.writerThread === true ? startSqliteWriter(options) : undefined;
  const commits = new GroupCommit(connection, options, writer);
  const read = connection.read.bind(connection);
  return {
    kind: 'sqlite',
    enqueue: (message, state) => commits.enqueue(message, state),
    onCommitted: (listener) => commits.onCommitted(listener),
    delivery: writer === undefined ? sqliteDeliveryStore(connection) : threadedDeliveryStore(writer),
    callbacks: sqliteCallbackStore(connection, writer),
    getAccount: (email, options) =>
      read('cannot read the account', (c) => c.accounts.getAccount(email, options?.fresh === true)),
    listAccounts: () => read('cannot list accounts', (c) => c.accounts.listAccounts()),
    insertAccount: (row) => read('cannot add the account', (c) => c.accounts.insertAccount(row)),
    updateAccount: (email, change) => read('cannot update the account', (c) => c.accounts.updateAccount(email, change)),
    listOutbox: (page) => read('cannot read the outbox', (c) => c.outbox.listOutbox(page)),
    countOutbox: () => read('cannot count the outbox', (c) => c.outbox.countOutbox()),
    getMessage: (id) => read('cannot read the message', (c) => c.outbox.getMessage(id)),
    history: (id) => read('cannot read the message history', (c) => c.outbox.history(id)),
    messageParts: (ids) => read('cannot read the message parts', (c) => sqliteMessageParts(c.db, ids)),
    countByState: () => read('cannot count the outbox', (c) => c.outbox.countByState()),
    findOutbox: (query) => read('cannot read the outbox', (c) => c.queries.findOutbox(query)),
    historyAfter: (seq, limit) => read('cannot read the history', (c) => c.queries.historyAfter(seq, limit)),
    lastHistorySeq: () => read('cannot read the history', (c) => c.queries.lastHistorySeq()),
    pruneOutbox: (before, mode) =>
      writer === undefined
        ? read('cannot prune the outbox', (c) => c.queries.pruneOutbox(before, mode))
        : writer.write('pruneOutbox', before, mode),
    async close() {
      if (connection.closed) return;
      connection.closed = true;
      commits.flush();
      await writer?.close();
      connection.close();
    },
    get database() {
      return connection.db;
    },
  };
}

/** The delivery engine's calls, each one immediate transaction. */
function sqliteDeliveryStore(connection: SqliteConnection): DeliveryStore {
  const call = connection.delivery.bind(connection);
  return {
    claim: (request) => call('cannot claim messages to send', (d) => d.claim(request)),
    apply: (changes) => call('cannot record delivery states', (d) => d.apply(changes)),
    renewLeases: (owner, until) => call('cannot renew leases', (d) => d.renewLeases(owner, until)),
    recoverExpiredLeases: (now) => call('cannot take back stale messages', (d) => d.recoverExpiredLeases(now)),
    expireOverdue: (before, now) => call('cannot expire messages', (d) => d.expireOverdue(before, now)),
    timeOutReceipts: (request) =>
      connection.read('cannot time out receipts', (c) =>
        c.db.transaction(() => timeOutReceiptsOnSqlite(c.db, request)).immediate(),
      ),
  };
}

/** The same calls on the writer thread, where each joins the next batch's transaction. */
function threadedDeliveryStore(writer: SqliteWriter): DeliveryStore {
  return {
    claim: (request) => writer.write('claim', request),
    apply: (changes) => writer.write('apply', changes),
    renewLeases: (owner, until) => writer.write('renewLeases', owner, until),
    recoverExpiredLeases: (now) => writer.write('recoverExpiredLeases', now),
    expireOverdue: (before, now) => writer.write('expireOverdue', before, now),
    timeOutReceipts: (request) => writer.write('timeOutReceipts', request),
  };
}

/**
 * The callback queue: its writes on the writer thread when there is one (each joins the next
 * batch's transaction), else each in an immediate transaction of its own; its reads on the event
 * loop's connection.
 */
function sqliteCallbackStore(connection: SqliteConnection, writer: SqliteWriter | undefined): CallbackStore {
  const write = <Op extends CallbackWrite>(
    op: Op,
    ...args: Parameters<WriteOps[Op]>
  ): Promise<ReturnType<WriteOps[Op]>> => {
    if (writer !== undefined) return writer.write(op, ...args);
    if (connection.closed) return Promise.reject(new StorageError('StorageClosed', 'the store is closed'));
    return connection.read(WRITE_FAILURE[op], (c) =>
      c.db.transaction(() => runWriteOp(c, op, args) as ReturnType<WriteOps[Op]>).immediate(),
    );
  };
  const read = connection.read.bind(connection);
  return {
    ...senderCalls(write),
    retryCallbacks: (filter, now) => write('retryCallbacks', filter, now),
    listCallbacks: (query) => read('cannot list callbacks', (c) => c.callbacks.list(query)),
    callbackStats: () => read('cannot count callbacks', (c) => c.callbacks.stats()),
    callbackSenderNeeded: () => read('cannot look for queued callbacks', (c) => c.callbacks.senderNeeded()),
    ...(writer === undefined
      ? {}
      : { senderConnection: () => ({ kind: 'sqlite-writer' as const, port: writer.openChannel() }) }),
  };
}

type CallbackWrite =
  | 'claimCallbacks'
  | 'settleCallbacks'
  | 'renewCallbackLeases'
  | 'disableCallbacks'
  | 'hastenCallbacks'
  | 'retryCallbacks';
