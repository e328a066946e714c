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
  const batches = new Batches(connection, port);
  port.on('message', (message: string | WriterControl) => {
    if (typeof message === 'string') batches.receive(port, message);
    else if ('client' in message) batches.addClient(message.client);
    else batches.close();
  });
}

/** The requests of every asker, committed together, each reply posted back to its asker. */
class Batches {
  private pending: (WriteRequest & PendingWrite & { readonly from: Asker })[] = [];
  private readonly clients = new Set<MessagePort>();
  private scheduled: 'this turn' | 'soon' | undefined;
  private soon: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly eventLoop: MessagePort,
  ) {}

  receive(from: Asker, message: string): void {
    // The requests were just parsed: each is marked with its asker rather than copied.
    for (const request of JSON.parse(message) as WriteRequest[]) this.pending.push(Object.assign(request, { from }));
    this.schedule(from);
  }

  addClient(client: MessagePort): void {
    this.clients.add(client);
    client.on('message', (request: string) => this.receive(client, request));
    client.once('close', () => this.clients.delete(client));
  }

  close(): void {
    this.closing = true;
    this.schedule(this.eventLoop);
  }

  /**
   * The event loop's requests: at the end of this turn, with whatever else came. A client's alone
   * wait a moment for the event loop's next batch to share its transaction: committed on their
   * own, the sender's calls added a transaction each (a WAL write and its locks) to the writer.
   */
  private schedule(from: Asker): void {
    if (this.scheduled === 'this turn') return;
    if (from === this.eventLoop || this.closing) {
      clearTimeout(this.soon);
      this.scheduled = 'this turn';
      setImmediate(() => this.commit());
    } else if (this.scheduled === undefined) {
      this.scheduled = 'soon';
      this.soon = setTimeout(() => this.commit(), CLIENT_WAIT_MS);
    }
  }

  private commit(): void {
    clearTimeout(this.soon);
    this.scheduled = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      const outcomes = this.connection.writeTogether(batch);
      const replies = new Map<Asker, WriteReply[]>();
      batch.forEach((request, index) => {
        const list = replies.get(request.from) ?? [];
        if (list.length === 0) replies.set(request.from, list);
        list.push(reply(request.seq, outcomes[index]!));
      });
      for (const [asker, list] of replies) asker.postMessage(JSON.stringify(list));
    }
    if (this.closing) {
      this.connection.closed = true;
      this.connection.close();
      for (const client of this.clients) client.close();
      this.eventLoop.close();
    }
  }
}

if (parentPort !== null) main(parentPort, workerData as ConnectionOptions);
