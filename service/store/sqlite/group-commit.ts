/**
 * Group commit of accepted messages on SQLite (the queue: ../commit-queue.ts). Inline, the queue
 * is written as one transaction, synchronously, so a flush commits everything that waits. With
 * the writer thread (./writer.ts) the batch is posted and its waiters answered when the thread's
 * COMMIT returned; the event loop goes on meanwhile. Either way, if the transaction fails the
 * next batch simply tries again.
 */
import type { StoreOptions } from '../store.js';
import { CommitQueue } from '../commit-queue.js';
import type { NewMessage } from '../records.js';
import type { InsertRow, SqliteConnection } from './connection.js';
import { toStorageError } from './open.js';
import { toInsertRow } from './outbox.js';
import type { SqliteWriter } from './writer.js';

export class GroupCommit extends CommitQueue<InsertRow> {
  constructor(
    private readonly connection: SqliteConnection,
    options: StoreOptions,
    private readonly writer: SqliteWriter | undefined,
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
    const rows = batch.map((w) => w.row);
    if (this.writer !== undefined) {
      this.writer.write('insert', rows).then(
        () => this.settle(batch, started, undefined),
        (error: unknown) => this.settle(batch, started, toStorageError(error, 'cannot commit to the outbox')),
      );
      return;
    }
    try {
      this.connection.use('cannot commit to the outbox', (c) => c.insertBatch(rows));
    } catch (error) {
      this.settle(batch, started, toStorageError(error, 'cannot commit to the outbox'));
      return;
    }
    this.settle(batch, started, undefined);
  }
}
