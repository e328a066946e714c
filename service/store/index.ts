/** The service's store: records, the interface, and the SQLite implementation. */
export type { Store, StoreOptions, AccountChange, OutboxPage, OutboxQuery, HistoryChange, PruneMode } from './store.js';
export { PRUNABLE_STATES } from './sqlite/outbox-query.js';
export type { DeliveryStore, DeliveryChange, ClaimRequest, ClaimedMessage, CarrierSelection } from './delivery.js';
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

import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from './sqlite/store.js';

/** Opens the store at `path` (a SQLite file). */
export function openStore(options: SqliteStoreOptions): SqliteStore {
  return openSqliteStore(options);
}
