/** The service's store: records, the interface, and the SQLite and PostgreSQL implementations. */
export type { Store, StoreOptions, AccountChange, OutboxPage, OutboxQuery, HistoryChange, PruneMode } from './store.js';
export { PRUNABLE_STATES } from './sqlite/outbox-query.js';
export type { DeliveryStore, DeliveryChange, ClaimRequest, ClaimedMessage, CarrierSelection } from './delivery.js';
export type {
  CallbackClaim,
  CallbackEvent,
  CallbackEventState,
  CallbackOutcome,
  CallbackQuery,
  CallbackStats,
  CallbackStore,
  QueuedCallback,
} from './callbacks.js';
export {
  FINAL_STATES,
  MESSAGE_STATES,
  type AccountRow,
  type HistoryEvent,
  type MessageState,
  type NewMessage,
  type StoredMessage,
} from './records.js';
export { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite/store.js';
export { toStorageError, type Durability } from './sqlite/open.js';
export { SCHEMA_VERSION } from './sqlite/migrations.js';
export { isPostgresUrl, redactUrl } from './postgres/errors.js';
export { PG_SCHEMA_VERSION } from './postgres/migrations.js';
export type { PostgresStore, PostgresStoreOptions } from './postgres/store.js';

import type Database from 'better-sqlite3';
import { isPostgresUrl } from './postgres/errors.js';
import type { PostgresStoreOptions } from './postgres/store.js';
import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite/store.js';
import type { Store, StoreOptions } from './store.js';

export interface OpenStoreOptions extends StoreOptions {
  /** A SQLite file path, or a postgres:// (postgresql://) connection string. */
  readonly db: string;
  readonly durability?: SqliteStoreOptions['durability'];
  /** Delivery state changes: wait for the disk at each commit (full) or not (normal); see each store. */
  readonly deliveryDurability?: 'full' | 'normal';
  readonly busyTimeoutMs?: number;
  /** SQLite: the hot-path writes on a thread of their own (see sqlite/writer.ts); ignored for PostgreSQL. */
  readonly writerThread?: boolean;
  readonly poolSize?: number;
  readonly schema?: PostgresStoreOptions['schema'];
  readonly log?: (line: string) => void;
}

/**
 * Opens the store the database argument names: a postgres:// or postgresql:// URL opens
 * PostgreSQL (loading node-postgres only then), anything else is a SQLite file, as before.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const { db, durability, deliveryDurability, busyTimeoutMs, writerThread, poolSize, schema, log, ...common } = options;
  const delivery = deliveryDurability === undefined ? {} : { deliveryDurability };
  if (isPostgresUrl(db)) {
    const { openPostgresStore } = await import('./postgres/store.js');
    return openPostgresStore({
      ...common,
      ...delivery,
      url: db,
      ...(poolSize === undefined ? {} : { poolSize }),
      ...(schema === undefined ? {} : { schema }),
      ...(log === undefined ? {} : { log }),
    });
  }
  return openSqliteStore({
    ...common,
    ...delivery,
    path: db,
    ...(durability === undefined ? {} : { durability }),
    ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }),
    ...(writerThread === undefined ? {} : { writerThread }),
  });
}

/** The SQLite connection under a store, for tests and administration; throws for another store. */
export function sqliteDatabaseOf(store: Store): Database.Database {
  if (store.kind !== 'sqlite') throw new Error(`the store is ${store.kind}, not SQLite`);
  return (store as SqliteStore).database;
}

export interface MigrationResult {
  readonly kind: 'sqlite' | 'postgres';
  readonly from: number;
  readonly to: number;
}

/**
 * Brings the database's schema up to this smskit's version (`smskit db migrate`); refuses a
 * newer one. Opening a store migrates too; this does it ahead of a rolling upgrade, once.
 */
export async function migrateDatabase(db: string): Promise<MigrationResult> {
  if (isPostgresUrl(db)) {
    const { migratePostgres } = await import('./postgres/store.js');
    return { kind: 'postgres', ...(await migratePostgres(db)) };
  }
  const { default: SqliteDatabase } = await import('better-sqlite3');
  const { existsSync } = await import('node:fs');
  let from = 0;
  if (existsSync(db)) {
    const peek = new SqliteDatabase(db, { readonly: true, fileMustExist: true });
    try {
      from = Number(peek.pragma('user_version', { simple: true }));
    } finally {
      peek.close();
    }
  }
  const store = openSqliteStore({ path: db });
  const to = Number(store.database.pragma('user_version', { simple: true }));
  await store.close();
  return { kind: 'sqlite', from, to };
}
