/**
 * The SQLite writer thread: owns the store's write connection, so a COMMIT's fsync and the
 * statements of a batch never stop the event loop that serves requests and drives SMPP. Every
 * write that arrives while the previous batch commits is committed with the next one (./batches.ts):
 * as one transaction, or acceptance first and the delivery changes after it (./connection.ts
 * `transactionsFor`).
 *
 * Messages in (./writer-protocol.ts): JSON arrays of `{ seq, op, args }` (an op of
 * ./write-ops.ts), `{ close: true }`, and `{ client: port }`: a MessagePort of another thread (the
 * callback sender's), whose requests join the same batches and whose replies go back on it, not
 * through the event loop. Out: a JSON array of `{ seq, value }` or `{ seq, error }` per
 * transaction and asker, after its COMMIT returned, and `{ failed }` when the database cannot be
 * opened. After `close` the thread commits what it has, closes the connection and its clients'
 * ports, and ends (the event loop's side waits for its exit).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Batches, serializeError } from './batches.js';
import { type ConnectionOptions, SqliteConnection } from './connection.js';
import { toStorageError } from './open.js';
import type { WriterControl, WriterNotice } from './writer-protocol.js';

function main(port: NonNullable<typeof parentPort>, options: ConnectionOptions): void {
  let connection: SqliteConnection;
  try {
    connection = new SqliteConnection(options);
  } catch (error) {
    const failure = toStorageError(error, 'cannot open the database');
    port.postMessage({ failed: serializeError(failure) } satisfies WriterNotice);
    return;
  }
  const batches = new Batches(connection, port);
  port.on('message', (message: string | WriterControl) => {
    if (typeof message === 'string') batches.receive(port, message);
    else if ('client' in message) batches.addClient(message.client);
    else batches.close();
  });
}

if (parentPort !== null) main(parentPort, workerData as ConnectionOptions);
