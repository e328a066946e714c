/**
 * The PostgreSQL store: the same `Store` as SQLite's, for several service instances on one
 * database. Every call takes a connection from the pool (a transaction where the SQLite store
 * has one) and maps failures to `StorageError`.
 *
 * Group commit: `enqueue` queues the row; the queue is inserted as one statement (its own
 * transaction) at the end of the event-loop turn, or as soon as `maxBatch` rows wait. While one
 * batch is committing the next one gathers, so under load each COMMIT (each WAL flush, with
 * synchronous_commit on) carries many messages. Each promise resolves only after COMMIT returned;
 * a failed batch rejects all of its waiters with one `StorageError` (nothing of it stored), and
 * the next batch tries again on a fresh connection — the service recovers by itself once the
 * database is back.
 */
import type { Pool } from 'pg';
import { StorageError } from '../../errors.js';
import { createIdGenerator } from '../../ids.js';
import type { DeliveryStore } from '../delivery.js';
import type { MessageState, NewMessage } from '../records.js';
import type { Store, StoreOptions } from '../store.js';
import { postgresAccounts } from './accounts.js';
import { createPool, inTransaction, type Queryable, withClient } from './connect.js';
import * as statements from './delivery.js';
import { redactUrl, toStorageError } from './errors.js';
import { migrate, newerSchemaError, PG_SCHEMA_VERSION, schemaVersion } from './migrations.js';
import { insertBatch, postgresOutbox, type InsertRow } from './outbox.js';

export interface PostgresStoreOptions extends StoreOptions {
  /** postgres://user@host:port/database (the password from PGPASSWORD or ~/.pgpass). */
  readonly url: string;
  /** Connections this process keeps at most (default 10). */
  readonly poolSize?: number;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  /**
   * 'migrate' (default): bring an older schema up to date on open (under a lock, so instances
   * starting together migrate once); 'require-current': refuse an older schema too.
   */
  readonly schema?: 'migrate' | 'require-current';
  /**
   * Delivery state changes: `normal` (the default, as on SQLite) commits them with
   * synchronous_commit off — the server has them at once and other instances see them, but a
   * crash of the database server itself may lose the last few hundred milliseconds of them (the
   * engine's leases and possible-duplicate flag cover that, as for a crash of smskit). `full`
   * waits for the WAL flush like an acceptance does. Accepted messages always wait.
   */
  readonly deliveryDurability?: 'full' | 'normal';
  /** One line per error on an idle connection (the server went away), for the log. */
  readonly log?: (line: string) => void;
}

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  /** The pool itself, for tests and administration. */
  readonly pool: Pool;
}

interface Waiter {
  readonly row: InsertRow;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

/** Opens the pool and checks (or migrates) the schema; throws `StorageError` with the URL redacted. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const where = redactUrl(options.url);
  const pool = await createPool({
    url: options.url,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    onIdleError: (error) => options.log?.(toStorageError(error, `database connection to ${where} lost`).message),
  });
  try {
    await checkSchema(pool, options);
  } catch (error) {
    await pool.end().catch(() => {});
    throw toStorageError(error, `cannot open database ${where}`);
  }
  return postgresStore(pool, options);
}

/** `smskit db migrate` on PostgreSQL: one connection, the migration, closed again. */
export async function migratePostgres(url: string): Promise<{ from: number; to: number }> {
  const pool = await createPool({ url, poolSize: 1 });
  try {
    return await withClient(pool, (client) => migrate(client));
  } catch (error) {
    throw toStorageError(error, `cannot migrate database ${redactUrl(url)}`);
  } finally {
    await pool.end().catch(() => {});
  }
}

async function checkSchema(pool: Pool, options: PostgresStoreOptions): Promise<void> {
  await withClient(pool, async (client) => {
    const version = await schemaVersion(client);
    if (version > PG_SCHEMA_VERSION) throw newerSchemaError(version);
    if (version === PG_SCHEMA_VERSION) return;
    if (options.schema === 'require-current')
      throw new StorageError(
        'StorageError',
        `database schema version ${version} is older than this smskit's (${PG_SCHEMA_VERSION}); run smskit db migrate`,
      );
    await migrate(client, options.clock);
  });
}

function postgresStore(pool: Pool, options: PostgresStoreOptions): PostgresStore {
  const clock = options.clock ?? Date.now;
  const maxBatch = Math.max(1, options.maxBatch ?? 1024);
  const nextId = createIdGenerator();
  const committedListeners = new Set<(count: number) => void>();
  const accounts = postgresAccounts(pool);
  const outbox = postgresOutbox(pool);
  const pending: Waiter[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let committing: Promise<void> | undefined;
  let closed = false;

  /** One call, its failure mapped; refused once the store is closed. */
  async function call<R>(what: string, work: () => Promise<R>): Promise<R> {
    if (closed) throw new StorageError('StorageClosed', 'the store is closed');
    try {
      return await work();
    } catch (error) {
      throw toStorageError(error, what);
    }
  }

  async function commit(batch: readonly Waiter[]): Promise<void> {
    try {
      await insertBatch(
        pool,
        batch.map((waiter) => waiter.row),
      );
    } catch (error) {
      const failure = toStorageError(error, 'cannot commit to the outbox');
      options.onError?.(failure, batch.length);
      for (const waiter of batch) waiter.reject(failure);
      return;
    }
    for (const waiter of batch) waiter.resolve({ id: waiter.row.id });
    for (const listener of committedListeners) listener(batch.length);
  }

  /** Starts committing what waits, unless a batch is committing: then it gathers until that one is done. */
  function flush(): void {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    if (committing !== undefined || pending.length === 0) return;
    const batch = pending.splice(0, maxBatch);
    committing = commit(batch).finally(() => {
      committing = undefined;
      if (pending.length > 0) flush();
    });
  }

  function enqueue(message: NewMessage, state: 'queued' | 'test' = 'queued'): Promise<{ id: string }> {
    if (closed) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = clock();
    const row: InsertRow = { id: nextId(now), createdAt: now, message, state: state as MessageState };
    return new Promise((resolve, reject) => {
      pending.push({ row, resolve, reject });
      if (pending.length >= maxBatch) flush();
      else scheduled ??= setImmediate(flush);
    });
  }

  const relaxed = options.deliveryDurability !== 'full';
  /** One delivery call: its own transaction, without waiting for the WAL flush unless asked to. */
  const deliveryCall = <R>(what: string, work: (db: Queryable) => Promise<R>): Promise<R> =>
    call(what, () => inTransaction(pool, work, relaxed ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN'));

  const delivery: DeliveryStore = {
    claim: (request) => deliveryCall('cannot claim messages to send', (db) => statements.claim(db, request)),
    apply: (changes) =>
      changes.length === 0
        ? call('cannot record delivery states', async () => [])
        : deliveryCall('cannot record delivery states', (db) => statements.applyChanges(db, changes)),
    renewLeases: (owner, until) =>
      deliveryCall('cannot renew leases', (db) => statements.renewLeases(db, owner, until)),
    recoverExpiredLeases: (now) =>
      deliveryCall('cannot take back stale messages', async (db) => {
        await statements.purgeEarlyReceipts(db, now);
        return statements.recoverExpiredLeases(db, now);
      }),
    expireOverdue: (before, now) =>
      deliveryCall('cannot expire messages', (db) => statements.expireOverdue(db, before, now)),
  };

  return {
    kind: 'postgres',
    pool,
    enqueue,
    onCommitted(listener) {
      committedListeners.add(listener);
      return () => committedListeners.delete(listener);
    },
    delivery,
    getAccount: (email) => call('cannot read the account', () => accounts.getAccount(email)),
    listAccounts: () => call('cannot list accounts', () => accounts.listAccounts()),
    insertAccount: (row) => call('cannot add the account', () => accounts.insertAccount(row)),
    updateAccount: (email, change) => call('cannot update the account', () => accounts.updateAccount(email, change)),
    listOutbox: (page) => call('cannot read the outbox', () => outbox.listOutbox(page)),
    countOutbox: () => call('cannot count the outbox', () => outbox.countOutbox()),
    getMessage: (id) => call('cannot read the message', () => outbox.getMessage(id)),
    history: (id) => call('cannot read the message history', () => outbox.history(id)),
    countByState: () => call('cannot count the outbox', () => outbox.countByState()),
    async close() {
      if (closed) return;
      closed = true;
      while (pending.length > 0 || committing !== undefined) {
        flush();
        await committing;
      }
      await pool.end();
    },
  };
}
