/**
 * What the SQLite and PostgreSQL group commits share: accepted messages wait in one queue, which
 * is committed at the end of the current event-loop turn (setImmediate, after the poll phase has
 * delivered every request that arrived together) or as soon as `maxBatch` rows wait. A waiter's
 * promise resolves only after its batch's COMMIT returned, so an acknowledged id is durable; a
 * failed batch rejects all of its waiters with one StorageError and nothing of it is stored.
 * How a batch is committed (synchronously, or one at a time while the next gathers) is each
 * store's own.
 */
import { createIdGenerator } from './ids.js';
import { StorageError } from '../errors.js';
import type { NewMessage } from './records.js';
import type { StoreOptions } from './store.js';

export interface Waiter<Row extends { readonly id: string }> {
  readonly row: Row;
  readonly resolve: (value: { id: string }) => void;
  readonly reject: (error: StorageError) => void;
}

export abstract class CommitQueue<Row extends { readonly id: string }> {
  protected pending: Waiter<Row>[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private readonly listeners = new Set<(count: number) => void>();
  private readonly nextId = createIdGenerator();
  private readonly clock: () => number;
  protected readonly maxBatch: number;

  constructor(protected readonly options: StoreOptions) {
    this.clock = options.clock ?? Date.now;
    this.maxBatch = Math.max(1, options.maxBatch ?? 1024);
  }

  /** Whether new messages are refused (the outbox is closed or closing). */
  protected abstract refusing(): boolean;
  protected abstract toRow(id: string, createdAt: number, message: NewMessage, state: 'queued' | 'test'): Row;
  /** Commits what is queued, or starts to. */
  protected abstract commitPending(): void;

  enqueue(message: NewMessage, state: 'queued' | 'test' = 'queued'): Promise<{ id: string }> {
    if (this.refusing()) return Promise.reject(new StorageError('StorageClosed', 'the outbox is closed'));
    const now = this.clock();
    const row = this.toRow(this.nextId(now), now, message, state);
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

  /** Commits what is queued now, without waiting for the end of the turn. */
  flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    this.commitPending();
  }

  /** Answers a batch's waiters: `failure` when its COMMIT failed, else after it returned. */
  protected settle(batch: readonly Waiter<Row>[], started: number, failure: StorageError | undefined): void {
    if (failure !== undefined) {
      this.options.onError?.(failure, batch.length);
      for (const waiter of batch) waiter.reject(failure);
      return;
    }
    this.options.onCommit?.((performance.now() - started) / 1000, batch.length);
    for (const waiter of batch) waiter.resolve({ id: waiter.row.id });
    for (const listener of this.listeners) listener(batch.length);
  }
}
