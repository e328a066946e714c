/**
 * The PostgreSQL store: the same `Store` as SQLite's, for several service instances on one
 * database. Every call takes a connection from the pool (a transaction where the SQLite store
 * has one) and maps failures to `StorageError`.
 *
 * Accepted messages are committed in groups (./group-commit.ts); a failed batch stores nothing
 * of itself and the next one tries again on a fresh connection, so the service recovers by
 * itself once the database is back.
 */
import type { Pool } from 'pg';
import { StorageError } from '../../errors.js';
import type { CallbackStore } from '../callbacks.js';
import type { DeliveryStore } from '../delivery.js';
import type { Store, StoreOptions } from '../store.js';
import { AccountCache } from './account-cache.js';
import { postgresAccounts } from './accounts.js';
import { postgresCallbacks } from './callbacks.js';
import { ClaimFloors } from './claim-floor.js';
import { type Call, mappedCall } from './calls.js';
import { callbackPoolOptions, mappedSenderCalls } from './sender-calls.js';
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
  /**
   * Connections for acceptance, accounts and reads (default 10). The delivery engine has a pool of
   * its own beside it, of at most 3 (and never more than this), opened only when it runs: its
   * claims and batches never wait behind acceptance, nor acceptance behind them.
   */
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
  // pg opens a pool's connections on first use: a process that never delivers opens none of these.
  const deliveryPool = await createPool({
    url: options.url,
    poolSize: Math.min(DELIVERY_POOL_SIZE, Math.max(1, Math.floor(options.poolSize ?? DELIVERY_POOL_SIZE))),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    applicationName: 'smskit delivery',
    settings: {
      // A claim's plan must follow the outbox as it grows: a plan kept from when it was small
      // scans it whole (the apply function pins its own plans to index lookups).
      plan_cache_mode: 'force_custom_plan',
      ...(options.deliveryDurability === 'full' ? {} : { synchronous_commit: 'off' }),
    },
    onIdleError: (error) => options.log?.(toStorageError(error, `database connection to ${where} lost`).message),
  });
  // The callback sender's claims and settlements when it runs on the event loop; `serve`'s sender
  // thread opens the same pool of its own (./sender-calls.ts).
  const callbackPool = await createPool(callbackPoolOptions(options, options.log));
  // One connection that only LISTENs for account changes (./account-cache.ts), opened on the first read.
  const listenerPool = await createPool({
    url: options.url,
    poolSize: 1,
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    applicationName: 'smskit accounts',
    onIdleError: () => {},
  });
  return postgresStore({ pool, deliveryPool, callbackPool, listenerPool }, options);
}

/** The delivery pool's connections: a claim per route, one batch of changes, lease and expiry upkeep. */
const DELIVERY_POOL_SIZE = 3;

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

interface Pools {
  /** Acceptance, accounts, reads. */
  readonly pool: Pool;
  readonly deliveryPool: Pool;
  readonly callbackPool: Pool;
  /** The account cache's listener. */
  readonly listenerPool: Pool;
}

function postgresStore(pools: Pools, options: PostgresStoreOptions): PostgresStore {
  const { pool, deliveryPool, callbackPool, listenerPool } = pools;
  const accounts = postgresAccounts(pool, (read) => new AccountCache(listenerPool, read));
  const outbox = postgresOutbox(pool);
  const queries = postgresOutboxQueries(pool);
  const floors = new ClaimFloors();
  const commits = new PgGroupCommit(pool, options, (ids) => floors.inserted(ids));
  let closed = false;
  const call = mappedCall(() => closed);
  return {
    kind: 'postgres',
    pool,
    enqueue: (message, state) => commits.enqueue(message, state),
    onCommitted: (listener) => commits.onCommitted(listener),
    delivery: postgresDeliveryStore(deliveryPool, call, floors),
    callbacks: postgresCallbackStore(postgresCallbacks(callbackPool, pool), call, options),
    getAccount: (email, options) =>
      call('cannot read the account', () => accounts.getAccount(email, options?.fresh === true)),
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
      await accounts.close();
      await Promise.all([pool.end(), deliveryPool.end(), callbackPool.end(), listenerPool.end()]);
    },
  };
}

/**
 * The delivery engine's calls on its own pool, each one statement and so one round trip and its
 * own transaction (the pool's connections commit without waiting for the WAL flush under
 * deliveryDurability `normal`), but for the upkeep that takes stale leases back.
 */
function postgresDeliveryStore(pool: Pool, call: Call, floors: ClaimFloors): DeliveryStore {
  return {
    claim: (request) =>
      call('cannot claim messages to send', async () => {
        const floor = floors.floorFor(request);
        const taken = await statements.claim(pool, request, floor);
        floors.claimed(request, floor, taken);
        return taken;
      }),
    apply: (changes) =>
      call('cannot record delivery states', async () => {
        if (changes.length === 0) return [];
        try {
          return await applyTryingOtherIds(pool, changes, statements.applyChanges);
        } finally {
          // Also after a failure: a first try may have committed before a retry failed.
          floors.applied(changes);
        }
      }),
    renewLeases: (owner, until) => call('cannot renew leases', () => statements.renewLeases(pool, owner, until)),
    recoverExpiredLeases: (now) =>
      call('cannot take back stale messages', async () => {
        const recovered = await inTransaction(pool, async (db) => {
          await statements.purgeEarlyReceipts(db, now);
          return statements.recoverExpiredLeases(db, now);
        });
        if (recovered > 0) floors.requeued(now);
        return recovered;
      }),
    expireOverdue: (before, now) => call('cannot expire messages', () => statements.expireOverdue(pool, before, now)),
    timeOutReceipts: (request) => call('cannot time out receipts', () => timeOutReceiptsOnPostgres(pool, request)),
  };
}

/** The callback queue's calls, each with its failure mapped and refused once the store is closed. */
function postgresCallbackStore(callbacks: CallbackStore, call: Call, options: PostgresStoreOptions): CallbackStore {
  return {
    ...mappedSenderCalls(callbacks, call),
    retryCallbacks: (filter, now) => call('cannot re-queue callbacks', () => callbacks.retryCallbacks(filter, now)),
    listCallbacks: (query) => call('cannot list callbacks', () => callbacks.listCallbacks(query)),
    callbackStats: () => call('cannot count callbacks', () => callbacks.callbackStats()),
    callbackSenderNeeded: () => call('cannot look for queued callbacks', () => callbacks.callbackSenderNeeded()),
    senderConnection: () => ({
      kind: 'postgres',
      url: options.url,
      ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: options.statementTimeoutMs }),
    }),
  };
}
