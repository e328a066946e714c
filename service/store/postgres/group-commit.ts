/**
 * Group commit of accepted messages on PostgreSQL (the queue: ../commit-queue.ts): a batch is
 * inserted as one statement, its own transaction. While one batch is committing the next one
 * gathers, so under load each COMMIT (each WAL flush, with synchronous_commit on) carries many
 * messages. After a failed batch the next one tries again on a fresh connection.
 */
import type { Pool } from 'pg';
import { CommitQueue, type Waiter } from '../commit-queue.js';
import type { MessageState, NewMessage } from '../records.js';
import type { StoreOptions } from '../store.js';
import { toStorageError } from './errors.js';
import { type InsertRow, insertBatch } from './outbox.js';

export class PgGroupCommit extends CommitQueue<InsertRow> {
  private committing: Promise<void> | undefined;
  /** Set by `drain`: new messages are refused from then on. */
  private closed = false;

  constructor(
    private readonly pool: Pool,
    options: StoreOptions,
    /** Told each batch's ids once committed, before anyone waiting on it (./claim-floor.ts). */
    private readonly inserted: (ids: readonly string[]) => void = () => {},
  ) {
    super(options);
  }

  /** Refuses new messages and commits every one queued. */
  async drain(): Promise<void> {
    this.closed = true;
    while (this.pending.length > 0 || this.committing !== undefined) {
      this.flush();
      await this.committing;
    }
  }

  protected refusing(): boolean {
    return this.closed;
  }

  protected toRow(id: string, createdAt: number, message: NewMessage, state: 'queued' | 'test'): InsertRow {
    return { id, createdAt, message, state: state as MessageState };
  }

  /** Starts committing what waits, unless a batch is committing: then it gathers until that one is done. */
  protected commitPending(): void {
    if (this.committing !== undefined || this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.maxBatch);
    this.committing = this.commit(batch).finally(() => {
      this.committing = undefined;
      if (this.pending.length > 0) this.flush();
    });
  }

  private async commit(batch: readonly Waiter<InsertRow>[]): Promise<void> {
    const started = performance.now();
    try {
      await insertBatch(
        this.pool,
        batch.map((waiter) => waiter.row),
      );
    } catch (error) {
      this.settle(batch, started, toStorageError(error, 'cannot commit to the outbox'));
      return;
    }
    this.inserted(batch.map((waiter) => waiter.row.id));
    this.settle(batch, started, undefined);
  }
}
