/**
 * The SQLite store's writes on the hot path, by name: acceptance's batch insert, the delivery
 * engine's calls and the callback sender's. One table serves both ways of running them, on the
 * event loop's own connection (inline) or in the writer thread (./writer-thread.ts), so the two
 * cannot drift apart. Each op
 * runs inside a transaction its caller opens; what a failure is called comes with the op.
 */
import type Database from 'better-sqlite3';
import type { CallbackClaim, CallbackEvent, CallbackOutcome } from '../callbacks.js';
import type { ClaimedMessage, ClaimRequest, DeliveryChange, ReceiptTimeout } from '../delivery.js';
import type { CallbackRetryFilter, SqliteCallbacks } from './callbacks.js';
import type { SqliteDelivery } from './delivery.js';
import type { toInsertRow } from './outbox.js';
import type { PruneMode, SqliteOutboxQueries } from './outbox-query.js';
import { timeOutReceiptsOnSqlite } from './receipt-timeout.js';

type InsertRow = ReturnType<typeof toInsertRow>;

/** What the ops run on: an open connection's insert and delivery statements. */
export interface WriteTarget {
  readonly db: Database.Database;
  readonly insertRows: (rows: readonly InsertRow[]) => void;
  readonly delivery: SqliteDelivery;
  readonly queries: SqliteOutboxQueries;
  readonly callbacks: SqliteCallbacks;
}

export interface WriteOps {
  insert(rows: readonly InsertRow[]): void;
  claim(request: ClaimRequest): ClaimedMessage[];
  apply(changes: readonly DeliveryChange[]): boolean[];
  renewLeases(owner: string, leaseUntil: number): void;
  recoverExpiredLeases(now: number): number;
  expireOverdue(createdBefore: number, now: number): number;
  timeOutReceipts(request: ReceiptTimeout): number;
  /** Retention: a long transaction, so it waits its turn with the other writes rather than racing them for the lock. */
  pruneOutbox(before: number, mode: PruneMode): number;
  /** The callback queue's writes (./callbacks.ts). */
  claimCallbacks(claim: CallbackClaim): CallbackEvent[];
  settleCallbacks(owner: string, outcomes: readonly CallbackOutcome[]): void;
  renewCallbackLeases(owner: string, seqs: readonly number[], leaseUntil: number): void;
  disableCallbacks(account: string, at: number, reason: string): void;
  hastenCallbacks(account: string, now: number): number;
  retryCallbacks(filter: CallbackRetryFilter, now: number): number;
}

export type WriteOp = keyof WriteOps;

/** What a failure of each op is reported as (the StorageError's message starts with it). */
export const WRITE_FAILURE: Readonly<Record<WriteOp, string>> = {
  insert: 'cannot commit to the outbox',
  claim: 'cannot claim messages to send',
  apply: 'cannot record delivery states',
  renewLeases: 'cannot renew leases',
  recoverExpiredLeases: 'cannot take back stale messages',
  expireOverdue: 'cannot expire messages',
  timeOutReceipts: 'cannot time out receipts',
  pruneOutbox: 'cannot prune the outbox',
  claimCallbacks: 'cannot claim callbacks to send',
  settleCallbacks: 'cannot record callback outcomes',
  renewCallbackLeases: 'cannot renew callback leases',
  disableCallbacks: 'cannot switch callbacks off',
  hastenCallbacks: 'cannot bring callbacks forward',
  retryCallbacks: 'cannot re-queue callbacks',
};

/** Whether the op is acceptance (durable at `durability`) or a delivery change (at `deliveryDurability`). */
export function isAcceptance(op: WriteOp): boolean {
  return op === 'insert';
}

/** Runs one op on an open connection, inside the caller's transaction. */
export function runWriteOp(c: WriteTarget, op: WriteOp, args: readonly unknown[]): unknown {
  const d = c.delivery;
  switch (op) {
    case 'insert':
      return c.insertRows(args[0] as readonly InsertRow[]);
    case 'claim':
      return d.claim(args[0] as ClaimRequest);
    case 'apply':
      return d.apply(args[0] as readonly DeliveryChange[]);
    case 'renewLeases':
      return d.renewLeases(args[0] as string, args[1] as number);
    case 'recoverExpiredLeases':
      return d.recoverExpiredLeases(args[0] as number);
    case 'expireOverdue':
      return d.expireOverdue(args[0] as number, args[1] as number);
    case 'timeOutReceipts':
      return timeOutReceiptsOnSqlite(c.db, args[0] as ReceiptTimeout);
    case 'pruneOutbox':
      return c.queries.pruneOutbox(args[0] as number, args[1] as PruneMode);
    case 'claimCallbacks':
      return c.callbacks.claim(args[0] as CallbackClaim);
    case 'settleCallbacks':
      return c.callbacks.settle(args[0] as string, args[1] as readonly CallbackOutcome[]);
    case 'renewCallbackLeases':
      return c.callbacks.renew(args[0] as string, args[1] as readonly number[], args[2] as number);
    case 'disableCallbacks':
      return c.callbacks.disable(args[0] as string, args[1] as number, args[2] as string);
    case 'hastenCallbacks':
      return c.callbacks.hasten(args[0] as string, args[1] as number);
    case 'retryCallbacks':
      return c.callbacks.retry(args[0] as CallbackRetryFilter, args[1] as number);
  }
}
