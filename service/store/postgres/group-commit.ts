/**
 * Group commit of accepted messages on PostgreSQL: `enqueue` queues the row; the queue is
 * inserted as one statement (its own transaction) at the end of the event-loop turn, or as soon
 * as `maxBatch` rows wait. While one batch is committing the next one gathers, so under load each
 * COMMIT (each WAL flush, with synchronous_commit on) carries many messages. Each promise
 * resolves only after COMMIT returned; a failed batch rejects all of its waiters with one
 * StorageError (nothing of it stored), and the next batch tries again on a fresh connection.
 */
import type { Pool } from 'pg';
import { StorageError } from '../../errors.js';
import { createIdGenerator } from '../../ids.js';
import type { MessageState, NewMessage } from '../records.js';
import type { StoreOptions } from '../store.js';
import { toStorageError } from './errors.js';
import { type InsertRow, insertBatch } from './outbox.js';

interface Waiter {
  readonly row: InsertRow;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

export class PgGroupCommit {
  private readonly pending: Waiter[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private committing: Promise<void> | undefined;
  private readonly listeners = new Set<(count: number) => void>();
  private readonly nextId = createIdGenerator();
  private readonly clock: () => number;
  private readonly maxBatch: number;
  /** Set by `drain`: new messages are refused from then on. */
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly options: StoreOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxBatch = Math.max(1, options.maxBatch ?? 1024);
  }

  enqueue(message: NewMessage, state: 'queued' | 'test' = 'queued'): Promise<{ id: string }> {
    if (this.closed) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = this.clock();
    const row: InsertRow = { id: this.nextId(now), createdAt: now, message, state: state as MessageState };
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else this.scheduled ??= setImmediate(() => this.flush());
    });
  }

  /** Called after each committed batch; returns the unsubscribe. */
  onCommitted(listener: (count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refuses new messages and commits every one queued. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.pending.length > 0 || this.committing !== undefined) {
      this.flush();
      await this.committing;
    }
  }

  /** Starts committing what waits, unless a batch is committing: then it gathers until that one is done. */
  private flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.committing !== undefined || this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.maxBatch);
    this.committing = this.commit(batch).finally(() => {
      this.committing = undefined;
      if (this.pending.length > 0) this.flush();
    });
  }

  private async commit(batch: readonly Waiter[]): Promise<void> {
    const started = performance.now();
    try {
      await insertBatch(
        this.pool,
        batch.map((waiter) => waiter.row),
      );
    } catch (error) {
      const failure = toStorageError(error, 'cannot commit to the outbox');
      this.options.onError?.(failure, batch.length);
      for (const waiter of batch) waiter.reject(failure);
      return;
    }
    this.options.onCommit?.((performance.now() - started) / 1000, batch.length);
    for (const waiter of batch) waiter.resolve({ id: waiter.row.id });
    for (const listener of this.listeners) listener(batch.length);
  }
}
