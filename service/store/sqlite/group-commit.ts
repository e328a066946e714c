/**
 * Group commit of accepted messages on SQLite (the queue: ../commit-queue.ts): the queue is
 * written as one transaction, synchronously, so a flush commits everything that waits. If the
 * transaction fails, the next batch simply tries again.
 */
import type { StoreOptions } from '../store.js';
import { CommitQueue } from '../commit-queue.js';
import type { NewMessage } from '../records.js';
import type { InsertRow, SqliteConnection } from './connection.js';
import { toStorageError } from './open.js';
import { toInsertRow } from './outbox.js';

export class GroupCommit extends CommitQueue<InsertRow> {
  constructor(
    private readonly connection: SqliteConnection,
    options: StoreOptions,
  ) {
    super(options);
  }

  protected refusing(): boolean {
    return this.connection.closed;
  }

  protected toRow(id: string, createdAt: number, message: NewMessage, state: 'queued' | 'test'): InsertRow {
    return toInsertRow(id, createdAt, message, state);
  }

  protected commitPending(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const started = performance.now();
    try {
      this.connection.use('cannot commit to the outbox', (c) => c.insertBatch(batch.map((w) => w.row)));
    } catch (error) {
      this.settle(batch, started, toStorageError(error, 'cannot commit to the outbox'));
      return;
    }
    this.settle(batch, started, undefined);
  }
}
