/**
 * The event loop's side of the SQLite writer thread (./writer-thread.ts): each write is posted
 * to the thread and its promise settles when the batch it joined has committed. Reads stay on
 * the event loop's own connection (WAL lets them run beside the writer).
 *
 * The thread's module is found beside this one (../../threads/thread-entry.ts).
 * If the thread stops (it should not), every waiting write fails with a StorageError naming
 * why, nothing of those is acknowledged, and the next write starts a new thread.
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { StorageError } from '../../errors.js';
import { threadEntry } from '../../threads/thread-entry.js';
import type { ConnectionOptions } from './connection.js';
import type { WriteOp, WriteOps } from './write-ops.js';
import type {
  SerializedStorageError,
  WriteReply,
  WriteRequest,
  WriterControl,
  WriterNotice,
} from './writer-protocol.js';

type Waiting = { readonly resolve: (value: unknown) => void; readonly reject: (error: StorageError) => void };

export interface SqliteWriter {
  /** Posts one write; resolves with its result after its batch committed. */
  write<Op extends WriteOp>(op: Op, ...args: Parameters<WriteOps[Op]>): Promise<ReturnType<WriteOps[Op]>>;
  /**
   * A port on which another thread (the callback sender's) posts its own writes to the writer
   * thread and gets their replies: they join the same batches without passing through the event
   * loop. Hand it over with `connectWriter` on the other side.
   */
  openChannel(): MessagePort;
  /** Commits what was posted, closes the thread's connection, ends the thread. */
  close(): Promise<void>;
}

export function startSqliteWriter(options: ConnectionOptions): SqliteWriter {
  return new ThreadedWriter(options);
}

/** The writes of a thread holding a port from `openChannel`; they fail once the writer thread is gone. */
export function connectWriter(port: MessagePort): Pick<SqliteWriter, 'write'> {
  const client = new WriterClient(port);
  port.on('message', (message: string) => client.receive(message));
  port.once('close', () => client.failAll('the SQLite writer thread stopped'));
  // Referenced only while writes wait, like the event loop's side.
  port.unref();
  return { write: (op, ...args) => client.write(op, ...args) };
}

/** What a client posts to and holds open while writes wait: the writer's Worker, or a port of its channel. */
type WriterEnd = { postMessage(message: string): void; ref(): void; unref(): void };

/**
 * One asker's side of the writer thread: numbered requests, replies settled by number. At most one
 * message is with the thread at a time: what is written while it commits waits here and goes as
 * the next message once every reply to it has come (its acceptance may be answered before the
 * rest), or at the end of the turn when nothing is with it.
 * Each post copies the batch and wakes the thread, which on a busy machine takes the event
 * loop's core (bench/README.md, "One message with the writer at a time"); a message posted
 * during a commit would only have waited in the thread's queue for the same next batch. (The
 * thread now waits for the reply's trip to the event loop before the next batch arrives.)
 */
class WriterClient {
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private outgoing: WriteRequest[] = [];
  private posting: NodeJS.Immediate | undefined;
  /** Set by `holdUntilExit`: replies no longer let the process end. */
  private held = false;
  private failed = false;

  constructor(private readonly end: WriterEnd) {}

  write<Op extends WriteOp>(op: Op, ...args: Parameters<WriteOps[Op]>): Promise<ReturnType<WriteOps[Op]>> {
    if (this.failed) return Promise.reject(writeFailure('the SQLite writer thread stopped'));
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      // Held while writes wait, so a process with nothing else to do still sees them commit.
      if (this.waiting.size === 0) this.end.ref();
      this.waiting.set(seq, { resolve: resolve as (value: unknown) => void, reject });
      this.outgoing.push({ seq, op, args });
      // At most one message per turn of the event loop, however many writes it made, and none
      // while one is with the thread (the reply's arrival posts these).
      if (this.unanswered() === 0) this.posting ??= setImmediate(() => this.post());
    });
  }

  /** From now on the process stays up until the other end lets go (the writer is closing). */
  holdUntilExit(): void {
    this.held = true;
    this.end.ref();
  }

  /** Posts what waits; `final` (the writer is closing) posts it even while a message is with the thread. */
  post(final = false): void {
    if (this.posting !== undefined) clearImmediate(this.posting);
    this.posting = undefined;
    if (this.unanswered() > 0 && !final) return;
    const requests = this.outgoing;
    if (requests.length === 0) return;
    // As JSON text: the requests are plain data, and V8 writes and reads a batch of them as JSON
    // in under half the time its structured clone (what postMessage does with objects) takes.
    this.end.postMessage(JSON.stringify(requests));
    this.outgoing = [];
  }

  /** Requests posted whose replies have not come yet: every unsettled write waits, the unposted in `outgoing` too. */
  private unanswered(): number {
    return this.waiting.size - this.outgoing.length;
  }

  receive(message: string): void {
    for (const reply of JSON.parse(message) as WriteReply[]) this.settle(reply);
    // At the end of the turn, so that the writes the settled promises' continuations make join it.
    if (this.unanswered() === 0 && this.outgoing.length > 0) this.posting ??= setImmediate(() => this.post());
  }

  private settle(reply: WriteReply): void {
    const waiter = this.waiting.get(reply.seq);
    if (waiter === undefined) return;
    this.waiting.delete(reply.seq);
    if (this.waiting.size === 0 && !this.held) this.end.unref();
    if ('error' in reply) {
      waiter.reject(new StorageError(reply.error.code, reply.error.message, reply.error.driverCode));
    } else waiter.resolve(reply.value);
  }

  /** Every write waiting, and those not yet posted (so never written by a thread started later), fail. */
  failAll(reason: SerializedStorageError | string): void {
    this.failed = true;
    if (this.posting !== undefined) clearImmediate(this.posting);
    this.posting = undefined;
    this.outgoing = [];
    const failure = writeFailure(reason);
    for (const waiter of this.waiting.values()) waiter.reject(failure);
    if (this.waiting.size > 0 && !this.held) this.end.unref();
    this.waiting.clear();
  }
}

function writeFailure(reason: SerializedStorageError | string): StorageError {
  return typeof reason === 'string'
    ? new StorageError('StorageError', `cannot write to the store: ${reason}`)
    : new StorageError(reason.code, reason.message, reason.driverCode);
}

/** A writer thread and the event loop's requests to it (a new client with each thread). */
interface RunningThread {
  readonly worker: Worker;
  readonly client: WriterClient;
}

class ThreadedWriter implements SqliteWriter {
  private thread: RunningThread | undefined;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: ConnectionOptions) {
    this.thread = this.start();
  }

  write<Op extends WriteOp>(op: Op, ...args: Parameters<WriteOps[Op]>): Promise<ReturnType<WriteOps[Op]>> {
    if (this.closed !== undefined) return Promise.reject(new StorageError('StorageClosed', 'the store is closed'));
    return this.running().client.write(op, ...args);
  }

  openChannel(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    if (this.closed !== undefined) port2.close();
    else this.running().worker.postMessage({ client: port2 } satisfies WriterControl, [port2]);
    return port1;
  }

  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => {
      const thread = this.thread;
      if (thread === undefined) return resolve();
      thread.worker.once('exit', () => resolve());
      // Held until the thread has committed the last writes and exited: with nothing else to do,
      // the process would otherwise end first, the last batch with it (and this promise unsettled).
      thread.client.holdUntilExit();
      thread.client.post(true);
      thread.worker.postMessage({ close: true } satisfies WriterControl);
    });
    return this.closed;
  }

  private running(): RunningThread {
    this.thread ??= this.start();
    return this.thread;
  }

  private start(): RunningThread {
    const entry = threadEntry(import.meta.url, './writer-thread.mjs', './writer-thread.ts');
    const { path, durability, deliveryDurability, busyTimeoutMs } = this.options;
    // Only what opens the connection: the store's other options (a clock, callbacks) stay here.
    const workerData: ConnectionOptions = {
      path,
      ...(durability === undefined ? {} : { durability }),
      ...(deliveryDurability === undefined ? {} : { deliveryDurability }),
      ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }),
    };
    const worker = new Worker(entry.source, { eval: entry.eval, workerData });
    const thread = { worker, client: new WriterClient(worker) };
    worker.on('message', (message: string | WriterNotice) => {
      if (typeof message === 'string') thread.client.receive(message);
      else if ('failed' in message) thread.client.failAll(message.failed);
    });
    worker.on('error', (error) => thread.client.failAll(error.message));
    worker.once('exit', (code) => {
      if (this.thread === thread) this.thread = undefined;
      thread.client.failAll(`the SQLite writer thread stopped (exit code ${code})`);
    });
    // Between writes the thread must not keep a finished process alive.
    worker.unref();
    return thread;
  }
}
