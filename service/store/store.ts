/**
 * The store the service runs on: accounts, the outbox and the delivery engine's state, behind
 * one interface. SQLite (one file, the embedded default) implements it in ./sqlite/, PostgreSQL
 * (several service instances on one database) in ./postgres/.
 */
import type { StorageError } from '../errors.js';
import type { DeliveryStore } from './delivery.js';
import type { AccountChange } from './sqlite/accounts.js';
import type { OutboxPage } from './sqlite/outbox.js';
import type { AccountRow, HistoryEvent, MessageState, NewMessage, StoredMessage } from './records.js';

export type { AccountChange, OutboxPage };

export interface StoreOptions {
  /** Rows that trigger a commit without waiting for the end of the turn (default 1024). */
  readonly maxBatch?: number;
  readonly clock?: () => number;
  /** Told of every failed batch (one call per batch), for the log. */
  readonly onError?: (error: StorageError, batchSize: number) => void;
}

/**
 * Every read and write is a promise, whatever the store: SQLite answers synchronously inside,
 * a network database cannot.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Commits the message (group commit) and resolves with its id once COMMIT returned. A test
   * account's message is stored in state `test` and never delivered.
   */
  enqueue(message: NewMessage, state?: 'queued' | 'test'): Promise<{ id: string }>;
  /** Called after each committed batch of accepted messages (the delivery engine wakes up). */
  onCommitted(listener: (count: number) => void): () => void;
  readonly delivery: DeliveryStore;
  listOutbox(page?: OutboxPage): Promise<StoredMessage[]>;
  countOutbox(): Promise<number>;
  getMessage(id: string): Promise<StoredMessage | undefined>;
  history(id: string): Promise<HistoryEvent[]>;
  countByState(): Promise<Partial<Record<MessageState, number>>>;
  getAccount(email: string): Promise<AccountRow | undefined>;
  listAccounts(): Promise<AccountRow[]>;
  insertAccount(row: AccountRow): Promise<void>;
  updateAccount(email: string, change: AccountChange): Promise<boolean>;
  /** Commits what is queued, refuses new messages, closes the connection. */
  close(): Promise<void>;
}
