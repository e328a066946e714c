/**
 * The SQLite writer thread: owns the store's write connection, so a COMMIT's fsync and the
 * statements of a batch never stop the event loop that serves requests and drives SMPP. Every
 * write that arrives while the previous batch commits is committed with the next one, as one
 * transaction (acceptance and delivery changes share the fsync: ./connection.ts `writeTogether`).
 *
 * Messages in: arrays of `{ seq, op, args }` (an op of ./write-ops.ts) and `{ close: true }`. Out:
 * `{ seq, value }` or `{ seq, error }` after the batch's COMMIT returned, `{ ready: true }` once the
 * connection is open, `{ closed: true }` after the last batch and the connection's close.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { StorageError } from '../../errors.js';
import { type ConnectionOptions, type PendingWrite, SqliteConnection, type WriteOutcome } from './connection.js';
import { toStorageError } from './open.js';
import type { WriteOp } from './write-ops.js';

export interface WriteRequest {
  readonly seq: number;
  readonly op: WriteOp;
  readonly args: readonly unknown[];
}

export type WriteReply =
  | { readonly seq: number; readonly value: unknown }
  | { readonly seq: number; readonly error: SerializedStorageError };

export interface SerializedStorageError {
  readonly code: StorageError['code'];
  readonly message: string;
  readonly driverCode: string | undefined;
}

export type WriterNotice =
  | { readonly ready: true }
  | { readonly closed: true }
  | { readonly failed: SerializedStorageError };

function serialize(error: StorageError): SerializedStorageError {
  return { code: error.code, message: error.message, driverCode: error.driverCode };
}

function reply(seq: number, outcome: WriteOutcome): WriteReply {
  return 'error' in outcome ? { seq, error: serialize(outcome.error) } : { seq, value: outcome.value };
}

function main(port: NonNullable<typeof parentPort>, options: ConnectionOptions): void {
  let connection: SqliteConnection;
  try {
    connection = new SqliteConnection(options);
  } catch (error) {
    const failure = toStorageError(error, 'cannot open the database');
    port.postMessage({ failed: serialize(failure) } satisfies WriterNotice);
    return;
  }
  let pending: (WriteRequest & PendingWrite)[] = [];
  let scheduled = false;
  let closing = false;
  const commit = (): void => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (batch.length > 0) {
      const outcomes = connection.writeTogether(batch);
      port.postMessage(batch.map((request, index) => reply(request.seq, outcomes[index]!)));
    }
    if (closing) {
      connection.closed = true;
      connection.close();
      port.postMessage({ closed: true } satisfies WriterNotice);
      port.close();
    }
  };
  port.on('message', (message: readonly WriteRequest[] | { close: true }) => {
    if ('close' in message) closing = true;
    else pending.push(...message);
    // The end of this turn: every request posted together is committed together.
    if (!scheduled) {
      scheduled = true;
      setImmediate(commit);
    }
  });
  port.postMessage({ ready: true } satisfies WriterNotice);
}

if (parentPort !== null) main(parentPort, workerData as ConnectionOptions);
