/**
 * The writer thread's batches (./writer-thread.ts): the requests of every asker that arrive while
 * a batch commits are committed together with the next one, and each reply goes back to its
 * asker as soon as the transaction holding its write has committed (./connection.ts
 * `transactionsFor`: acceptance may commit before the batch's delivery changes).
 */
import type { MessagePort } from 'node:worker_threads';
import type { StorageError } from '../../errors.js';
import type { PendingWrite, SqliteConnection, WriteOutcome } from './connection.js';
import type { SerializedStorageError, WriteReply, WriteRequest } from './writer-protocol.js';

/** Where a request came from, and where its reply goes. */
export type Asker = Pick<MessagePort, 'postMessage'>;

type Request = WriteRequest & PendingWrite & { readonly from: Asker };

/** How long a client's requests wait for the event loop's to join them (ms). */
const CLIENT_WAIT_MS = 5;

export function serializeError(error: StorageError): SerializedStorageError {
  return { code: error.code, message: error.message, driverCode: error.driverCode };
}

function reply(seq: number, outcome: WriteOutcome): WriteReply {
  return 'error' in outcome ? { seq, error: serializeError(outcome.error) } : { seq, value: outcome.value };
}

/** The requests of every asker, committed together, each reply posted back to its asker. */
export class Batches {
  private pending: Request[] = [];
  private readonly clients = new Set<MessagePort>();
  private scheduled: 'this turn' | 'soon' | undefined;
  private soon: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly connection: SqliteConnection,
    private readonly eventLoop: Pick<MessagePort, 'postMessage' | 'close'>,
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
    for (const writes of this.connection.transactionsFor(batch)) this.commitAndReply(writes);
    if (this.closing) {
      this.connection.closed = true;
      this.connection.close();
      for (const client of this.clients) client.close();
      this.eventLoop.close();
    }
  }

  /** One transaction, then one message per asker with the replies to its writes in it. */
  private commitAndReply(writes: readonly Request[]): void {
    if (writes.length === 0) return;
    const outcomes = this.connection.writeTogether(writes);
    const replies = new Map<Asker, WriteReply[]>();
    writes.forEach((request, index) => {
      const list = replies.get(request.from) ?? [];
      if (list.length === 0) replies.set(request.from, list);
      list.push(reply(request.seq, outcomes[index]!));
    });
    for (const [asker, list] of replies) asker.postMessage(JSON.stringify(list));
  }
}
