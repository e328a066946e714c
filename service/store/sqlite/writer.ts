/**
 * The event loop's side of the SQLite writer thread (./writer-thread.ts): each write is posted
 * to the thread and its promise settles when the batch it joined has committed. Reads stay on
 * the event loop's own connection (WAL lets them run beside the writer).
 *
 * The thread's module is found beside this one (../../threads/thread-entry.ts).
 * If the thread stops (it should not), every waiting write fails with a StorageError naming
 * why, nothing of those is acknowledged, and the next write starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import { StorageError } from '../../errors.js';
import { threadEntry } from '../../threads/thread-entry.js';
import type { ConnectionOptions } from './connection.js';
import type { WriteOp, WriteOps } from './write-ops.js';
import type { SerializedStorageError, WriteReply, WriteRequest, WriterNotice } from './writer-thread.js';

type Waiting = { readonly resolve: (value: unknown) => void; readonly reject: (error: StorageError) => void };

export interface SqliteWriter {
  /** Posts one write; resolves with its result after its batch committed. */
  write<Op extends WriteOp>(op: Op, ...args: Parameters<WriteOps[Op]>): Promise<ReturnType<WriteOps[Op]>>;
  /** Commits what was posted, closes the thread's connection, ends the thread. */
  close(): Promise<void>;
}

export function startSqliteWriter(options: ConnectionOptions): SqliteWriter {
  return new ThreadedWriter(options);
}

class ThreadedWriter implements SqliteWriter {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private outgoing: WriteRequest[] = [];
  private posting: NodeJS.Immediate | undefined;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: ConnectionOptions) {
    this.worker = this.start();
  }

  write<Op extends WriteOp>(op: Op, ...args: Parameters<WriteOps[Op]>): Promise<ReturnType<WriteOps[Op]>> {
    if (this.closed !== undefined) return Promise.reject(new StorageError('StorageClosed', 'the store is closed'));
    const worker = (this.worker ??= this.start());
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      // Held while writes wait, so a process with nothing else to do still sees them commit.
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(seq, { resolve: resolve as (value: unknown) => void, reject });
      this.outgoing.push({ seq, op, args });
      // One message per turn of the event loop, however many writes it made: a post costs more
      // than the copy of what it carries.
      this.posting ??= setImmediate(() => this.post());
    });
  }

  private post(): void {
    this.posting = undefined;
    const requests = this.outgoing;
    this.outgoing = [];
    // As JSON text: the requests are plain data, and V8 writes and reads a batch of them as JSON
    // in under half the time its structured clone (what postMessage does with objects) takes.
    if (requests.length > 0) this.worker?.postMessage(JSON.stringify(requests));
  }

  close(): Promise<void> {
    this.closed ??= new Promise((resolve) => {
      const worker = this.worker;
      if (worker === undefined) return resolve();
      worker.once('exit', () => resolve());
      // Held until the thread has committed the last writes and exited: with nothing else to do,
      // the process would otherwise end first, the last batch with it.
      worker.ref();
      if (this.posting !== undefined) clearImmediate(this.posting);
      this.post();
      worker.postMessage({ close: true });
    });
    return this.closed;
  }

  private start(): Worker {
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
    worker.on('message', (message: string | WriterNotice) => {
      if (typeof message === 'string') for (const reply of JSON.parse(message) as WriteReply[]) this.settle(reply);
      else if ('failed' in message) this.failAll(message.failed);
    });
    worker.on('error', (error) => this.failAll(error.message));
    worker.once('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(`the SQLite writer thread stopped (exit code ${code})`);
    });
    // Between writes the thread must not keep a finished process alive.
    worker.unref();
    return worker;
  }

  private settle(reply: WriteReply): void {
    const waiter = this.waiting.get(reply.seq);
    if (waiter === undefined) return;
    this.waiting.delete(reply.seq);
    if (this.waiting.size === 0) this.worker?.unref();
    if ('error' in reply) {
      waiter.reject(new StorageError(reply.error.code, reply.error.message, reply.error.driverCode));
    } else waiter.resolve(reply.value);
  }

  private failAll(reason: SerializedStorageError | string): void {
    const failure =
      typeof reason === 'string'
        ? new StorageError('StorageError', `cannot write to the store: ${reason}`)
        : new StorageError(reason.code, reason.message, reason.driverCode);
    for (const waiter of this.waiting.values()) waiter.reject(failure);
    this.waiting.clear();
    // Not yet posted: failed with the rest, so never written by a thread started later.
    this.outgoing = [];
  }
}
