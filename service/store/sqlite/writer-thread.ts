/**
 * The SQLite writer thread: owns the store's write connection, so a COMMIT's fsync and the
 * statements of a batch never stop the event loop that serves requests and drives SMPP. Every
 * write that arrives while the previous batch commits is committed with the next one, as one
 * transaction (acceptance and delivery changes share the fsync: ./connection.ts `writeTogether`).
 *
 * Messages in: JSON arrays of `{ seq, op, args }` (an op of ./write-ops.ts), `{ close: true }`, and
 * `{ client: port }`: a MessagePort of another thread (the callback sender's), whose requests join
 * the same batches and whose replies go back on it, not through the event loop.
 * Out: a JSON array of `{ seq, value }` or `{ seq, error }` per batch and asker, after its COMMIT
 * returned, and `{ failed }` when the database cannot be opened. After `close` the thread commits
 * what it has, closes the connection and its clients' ports, and ends (the event loop's side waits
 * for its exit).
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
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

/** What the event loop posts besides requests. */
export type WriterControl = { readonly close: true } | { readonly client: MessagePort };

/** Where a request came from, and where its reply goes. */
type Asker = Pick<MessagePort, 'postMessage'>;

/** How long a client's requests wait for the event loop's to join them (ms). */
const CLIENT_WAIT_MS = 5;

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
  let pending: (WriteRequest & PendingWrite & { readonly from: Asker })[] = [];
  const clients = new Set<MessagePort>();
  let scheduled: 'this turn' | 'soon' | undefined;
  let soon: NodeJS.Timeout | undefined;
  let closing = false;
  const commit = (): void => {
    clearTimeout(soon);
    scheduled = undefined;
    const batch = pending;
    pending = [];
    if (batch.length > 0) {
      const outcomes = connection.writeTogether(batch);
      const replies = new Map<Asker, WriteReply[]>();
      batch.forEach((request, index) => {
        const list = replies.get(request.from) ?? [];
        if (list.length === 0) replies.set(request.from, list);
        list.push(reply(request.seq, outcomes[index]!));
      });
      for (const [asker, list] of replies) asker.postMessage(JSON.stringify(list));
    }
    if (closing) {
      connection.closed = true;
      connection.close();
      for (const client of clients) client.close();
      port.close();
    }
  };
  // The event loop's requests: at the end of this turn, with whatever else came. A client's alone
  // wait a moment for the event loop's next batch to share its transaction: committed on their
  // own, the sender's calls added a transaction each (a WAL write and its locks) to the writer.
  const schedule = (from: Asker): void => {
    if (scheduled === 'this turn') return;
    if (from === port || closing) {
      clearTimeout(soon);
      scheduled = 'this turn';
      setImmediate(commit);
    } else if (scheduled === undefined) {
      scheduled = 'soon';
      soon = setTimeout(commit, CLIENT_WAIT_MS);
    }
  };
  const receive = (from: Asker, message: string): void => {
    for (const request of JSON.parse(message) as WriteRequest[]) pending.push({ ...request, from });
    schedule(from);
  };
  port.on('message', (message: string | WriterControl) => {
    if (typeof message === 'string') return receive(port, message);
    if ('client' in message) {
      const client = message.client;
      clients.add(client);
      client.on('message', (request: string) => receive(client, request));
      client.once('close', () => clients.delete(client));
      return;
    }
    closing = true;
    schedule(port);
  });
}

if (parentPort !== null) main(parentPort, workerData as ConnectionOptions);
