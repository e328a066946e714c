/**
 * The PostgreSQL store: the same `Store` as SQLite's, for several service instances on one
 * database. Every call takes a connection from the pool (a transaction where the SQLite store
 * has one) and maps failures to `StorageError`.
 *
 * Accepted messages are committed in groups (./group-commit.ts); a failed batch stores nothing
 * of itself and the next one tries again on a fresh connection, so the service recovers by
 * itself once the database is back.
 */
import type { Pool, PoolClient } from 'pg';
import { StorageError } from '../../errors.js';
import type { DeliveryStore } from '../delivery.js';
import type { Store, StoreOptions } from '../store.js';
import { postgresAccounts } from './accounts.js';
import { createPool, inTransaction, withClient } from './connect.js';
import * as statements from './delivery.js';
import { timeOutReceiptsOnPostgres } from './receipt-timeout.js';
import { postgresMessageParts } from './parts.js';
import { applyTryingOtherIds } from './receipt-candidates.js';
import { redactUrl, toStorageError } from './errors.js';
import { PgGroupCommit } from './group-commit.js';
import { migrate, newerSchemaError, PG_SCHEMA_VERSION, schemaVersion } from './migrations.js';
import { postgresOutbox } from './outbox.js';
import { postgresOutboxQueries } from './outbox-query.js';

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

/** One store call with its failure mapped; refused once the store is closed. */
type Call = <R>(what: string, work: () => Promise<R>) => Promise<R>;

function postgresStore(pool: Pool, options: PostgresStoreOptions): PostgresStore {
  const accounts = postgresAccounts(pool);
  const outbox = postgresOutbox(pool);
  const queries = postgresOutboxQueries(pool);
  const commits = new PgGroupCommit(pool, options);
  let closed = false;
  const call: Call = async (what, work) => {
    if (closed) throw new StorageError('StorageClosed', 'the store is closed');
    try {
      return await work();
    } catch (error) {
      throw toStorageError(error, what);
    }
  };
  return {
    kind: 'postgres',
    pool,
    enqueue: (message, state) => commits.enqueue(message, state),
    onCommitted: (listener) => commits.onCommitted(listener),
    delivery: postgresDeliveryStore(pool, call, options.deliveryDurability !== 'full'),
    getAccount: (email) => call('cannot read the account', () => accounts.getAccount(email)),
    listAccounts: () => call('cannot list accounts', () => accounts.listAccounts()),
    insertAccount: (row) => call('cannot add the account', () => accounts.insertAccount(row)),
    updateAccount: (email, change) => call('cannot update the account', () => accounts.updateAccount(email, change)),
    listOutbox: (page) => call('cannot read the outbox', () => outbox.listOutbox(page)),
    countOutbox: () => call('cannot count the outbox', () => outbox.countOutbox()),
    getMessage: (id) => call('cannot read the message', () => outbox.getMessage(id)),
    history: (id) => call('cannot read the message history', () => outbox.history(id)),
    messageParts: (ids) => call('cannot read the message parts', () => postgresMessageParts(pool, ids)),
    countByState: () => call('cannot count the outbox', () => outbox.countByState()),
    findOutbox: (query) => call('cannot read the outbox', () => queries.findOutbox(query)),
    historyAfter: (seq, limit) => call('cannot read the history', () => queries.historyAfter(seq, limit)),
    lastHistorySeq: () => call('cannot read the history', () => queries.lastHistorySeq()),
    pruneOutbox: (before, mode) => call('cannot prune the outbox', () => queries.pruneOutbox(before, mode)),
    async close() {
      if (closed) return;
      closed = true;
      await commits.drain();
      await pool.end();
    },
  };
}

/**
 * The delivery engine's calls, each its own transaction; `relaxed` commits without waiting for
 * the WAL flush (deliveryDurability `normal`).
 */
function postgresDeliveryStore(pool: Pool, call: Call, relaxed: boolean): DeliveryStore {
  const deliveryCall = <R>(what: string, work: (db: PoolClient) => Promise<R>): Promise<R> =>
    call(what, () => inTransaction(pool, work, relaxed ? 'BEGIN; SET LOCAL synchronous_commit TO off' : 'BEGIN'));
  return {
    claim: (request) => deliveryCall('cannot claim messages to send', (db) => statements.claim(db, request)),
    apply: (changes) =>
      changes.length === 0
        ? call('cannot record delivery states', async () => [])
        : deliveryCall('cannot record delivery states', (db) =>
            applyTryingOtherIds(db, changes, statements.applyChanges),
          ),
    renewLeases: (owner, until) =>
      deliveryCall('cannot renew leases', (db) => statements.renewLeases(db, owner, until)),
    recoverExpiredLeases: (now) =>
      deliveryCall('cannot take back stale messages', async (db) => {
        await statements.purgeEarlyReceipts(db, now);
        return statements.recoverExpiredLeases(db, now);
      }),
    expireOverdue: (before, now) =>
      deliveryCall('cannot expire messages', (db) => statements.expireOverdue(db, before, now)),
    timeOutReceipts: (request) =>
      deliveryCall('cannot time out receipts', (db) => timeOutReceiptsOnPostgres(db, request)),
  };
}
