/**
 * The store the service runs on: accounts, the outbox and the delivery engine's state, behind
 * one interface. SQLite (one file, the embedded default) implements it in ./sqlite/, PostgreSQL
 * (several service instances on one database) in ./postgres/.
 */
import type { StorageError } from '../errors.js';
import type { CallbackStore } from './callbacks.js';
import type { DeliveryStore } from './delivery.js';
import type { AccountChange } from './sqlite/accounts.js';
import type { OutboxPage } from './sqlite/outbox.js';
import type { HistoryChange, OutboxQuery, PruneMode } from './sqlite/outbox-query.js';
import type { AccountRow, HistoryEvent, MessagePart, MessageState, NewMessage, StoredMessage } from './records.js';

export type { AccountChange, OutboxPage, OutboxQuery, HistoryChange, PruneMode };

export interface StoreOptions {
  /** Rows that trigger a commit without waiting for the end of the turn (default 1024). */
  readonly maxBatch?: number;
  readonly clock?: () => number;
  /** Told of every failed batch (one call per batch), for the log. */
  readonly onError?: (error: StorageError, batchSize: number) => void;
  /** Told of every committed batch of accepted messages: how long the transaction took (s), for the metrics. */
  readonly onCommit?: (seconds: number, batchSize: number) => void;
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
  /** The queue of state changes to post to each account's receiver (./callbacks.ts). */
  readonly callbacks: CallbackStore;
  listOutbox(page?: OutboxPage): Promise<StoredMessage[]>;
  countOutbox(): Promise<number>;
  getMessage(id: string): Promise<StoredMessage | undefined>;
  history(id: string): Promise<HistoryEvent[]>;
  /** The parts of the messages' latest attempts, by message id then part (messages without parts are absent). */
  messageParts(ids: readonly string[]): Promise<MessagePart[]>;
  countByState(): Promise<Partial<Record<MessageState, number>>>;
  /** Messages matching the filters, newest first unless asked otherwise. */
  findOutbox(query: OutboxQuery): Promise<StoredMessage[]>;
  /** State changes recorded after `seq` (the stream `smskit outbox --follow` reads), oldest first. */
  historyAfter(seq: number, limit: number): Promise<HistoryChange[]>;
  /** The newest state change's seq (0 when there is none). */
  lastHistorySeq(): Promise<number>;
  /**
   * Retention: messages created before `before` (ms) that will not be sent again lose their text
   * (`text`) or are deleted with their history and queued callbacks (`messages`). Returns how many.
   */
  pruneOutbox(before: number, mode: PruneMode): Promise<number>;
  /**
   * The account row. A running store may answer from rows it keeps between changes, a few
   * milliseconds behind another process's change (docs/service.md); `fresh` reads it now.
   */
  getAccount(email: string, options?: { readonly fresh?: boolean }): Promise<AccountRow | undefined>;
  listAccounts(): Promise<AccountRow[]>;
  insertAccount(row: AccountRow): Promise<void>;
  updateAccount(email: string, change: AccountChange): Promise<boolean>;
  /** Commits what is queued, refuses new messages, closes the connection. */
  close(): Promise<void>;
}
