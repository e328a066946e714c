/**
 * The SQLite writer thread: owns the store's write connection, so a COMMIT's fsync and the
 * statements of a batch never stop the event loop that serves requests and drives SMPP. Every
 * write that arrives while the previous batch commits is committed with the next one, as one
 * transaction (acceptance and delivery changes share the fsync: ./connection.ts `writeTogether`).
 *
 * Messages in: JSON arrays of `{ seq, op, args }` (an op of ./write-ops.ts) and `{ close: true }`.
 * Out: a JSON array of `{ seq, value }` or `{ seq, error }` per batch, after its COMMIT returned, and
 * `{ failed }` when the database cannot be opened. After `close` the thread commits what it has,
 * closes the connection and ends (the event loop's side waits for its exit).
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

/** The thread could not open the database: every write waiting fails with this. */
export type WriterNotice = { readonly failed: SerializedStorageError };

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
      port.postMessage(JSON.stringify(batch.map((request, index) => reply(request.seq, outcomes[index]!))));
    }
    if (closing) {
      connection.closed = true;
      connection.close();
      port.close();
    }
  };
  port.on('message', (message: string | { close: true }) => {
    if (typeof message !== 'string') closing = true;
    else pending.push(...(JSON.parse(message) as WriteRequest[]));
    // The end of this turn: every request posted together is committed together.
    if (!scheduled) {
      scheduled = true;
      setImmediate(commit);
    }
  });
}

if (parentPort !== null) main(parentPort, workerData as ConnectionOptions);
