/**
 * Group commit of accepted messages on SQLite: `enqueue` only queues the row; the queue is
 * written as one transaction at the end of the current event-loop turn (setImmediate, i.e. after
 * the poll phase has delivered every request that arrived together) or as soon as `maxBatch` rows
 * wait. Each promise resolves only after COMMIT has returned, so an acknowledged id is durable.
 * If the transaction fails, every waiter of that batch rejects with the same StorageError:
 * nothing of it is stored, nothing is acknowledged; the next batch simply tries again.
 */
import { StorageError } from '../../errors.js';
import { createIdGenerator } from '../../ids.js';
import type { NewMessage } from '../records.js';
import type { StoreOptions } from '../store.js';
import type { InsertRow, SqliteConnection } from './connection.js';
import { toStorageError } from './open.js';
import { toInsertRow } from './outbox.js';

interface Waiter {
  readonly row: InsertRow;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

export class GroupCommit {
  private pending: Waiter[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private readonly listeners = new Set<(count: number) => void>();
  private readonly nextId = createIdGenerator();
  private readonly clock: () => number;
  private readonly maxBatch: number;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly options: StoreOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxBatch = Math.max(1, options.maxBatch ?? 1024);
  }

  enqueue(message: NewMessage, state: 'queued' | 'test' = 'queued'): Promise<{ id: string }> {
    if (this.connection.closed) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = this.clock();
    const row = toInsertRow(this.nextId(now), now, message, state);
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

  /** Commits what is queued now (close calls it last). */
  flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const started = performance.now();
    try {
      this.connection.use('cannot commit to the outbox', (c) => c.insertBatch(batch.map((w) => w.row)));
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
