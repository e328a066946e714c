/**
 * The event loop's side of the delivery engine's thread (./engine-thread.ts), behind the same
 * DeliveryEngine interface as the engine itself: start() starts the thread, each committed batch
 * of accepted messages wakes it, its latest counters and route reports answer /metrics and
 * /healthz, and stop() lets it finish its in-flight submits and return its unsent claims before
 * the store closes. A thread that stops unexpectedly is logged and started again after a second,
 * under a new owner name: the messages it had claimed come back when their leases run out, flagged
 * as possible duplicates (at least once, as after a crash).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DeliveryStore } from '../store/delivery.js';
import { threadEntry } from '../threads/thread-entry.js';
import type { DeliveryCounters } from './counters.js';
import type { DeliveryEngine, EngineTiming, RouteReport } from './engine.js';
import type {
  DeliveryThreadData,
  DeliveryThreadStats,
  FromDeliveryThread,
  ToDeliveryThread,
} from './thread-protocol.js';

export interface DeliveryThreadOptions {
  readonly store: Required<Pick<DeliveryStore, 'threadConnection'>>;
  /** Called after each committed batch of accepted messages (the thread is woken at once). */
  readonly onCommitted: (listener: () => void) => () => void;
  readonly routesFile: string;
  readonly carriersFile?: string;
  readonly timing?: Partial<EngineTiming>;
  readonly log?: (line: string) => void;
}

/**
 * The thread's nice value: the lowest, so that a burst of send requests is answered first. It does
 * not stop delivery while requests keep coming: the event loop is one thread and waits for each
 * commit, and delivery takes the CPU it leaves (bench/README.md, "Delivery in a thread of its
 * own": nice 10 left acceptance beside delivery where it was).
 */
export const DELIVERY_THREAD_NICE = 19;

const RESTART_AFTER_MS = 1_000;
/** After stop's deadline, this long for the thread to settle and end before it is terminated. */
const STOP_GRACE_MS = 5_000;

const NO_STATS: DeliveryThreadStats = Object.freeze({ counters: {}, routes: [] });

export function startDeliveryThread(options: DeliveryThreadOptions): DeliveryEngine {
  return new DeliveryThread(options);
}

class DeliveryThread implements DeliveryEngine {
  owner = newOwner();
  private worker: Worker | undefined;
  private stats = NO_STATS;
  private started = false;
  private stopping: Promise<void> | undefined;
  private restart: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** A wake is posted at most once per turn of the event loop, however many batches committed. */
  private wakePosted = false;
  private readonly log: (line: string) => void;
  readonly counters: DeliveryCounters = {
    count: () => {
      throw new Error('the delivery thread counts its own events');
    },
    snapshot: () => this.stats.counters,
  };

  constructor(private readonly options: DeliveryThreadOptions) {
    this.log = options.log ?? (() => undefined);
  }

  start(): void {
    if (this.started || this.stopping !== undefined) return;
    this.started = true;
    this.unsubscribe = this.options.onCommitted(() => this.wake());
    this.spawn();
  }

  routes(): RouteReport[] {
    return this.stats.routes;
  }

  private wake(): void {
    if (this.wakePosted || this.worker === undefined) return;
    this.wakePosted = true;
    setImmediate(() => {
      this.wakePosted = false;
      this.post({ kind: 'wake' });
    });
  }

  private post(message: ToDeliveryThread): void {
    this.worker?.postMessage(message);
  }

  private spawn(): void {
    const entry = threadEntry(import.meta.url, './delivery-thread.mjs', './engine-thread.ts');
    const connection = this.options.store.threadConnection();
    const data: DeliveryThreadData = {
      routesFile: this.options.routesFile,
      carriersFile: this.options.carriersFile,
      owner: this.owner,
      timing: this.options.timing ?? {},
      nice: DELIVERY_THREAD_NICE,
      connection,
    };
    const thread = new Worker(entry.source, { eval: entry.eval, workerData: data, transferList: [connection.port] });
    this.worker = thread;
    thread.on('message', (message: FromDeliveryThread) => {
      if (message.kind === 'log') this.log(message.line);
      else if (message.kind === 'stats') this.stats = message.stats;
    });
    thread.on('error', (error) => this.log(`delivery: the delivery thread failed: ${error.message}`));
    thread.once('exit', (code) => {
      if (this.worker === thread) this.worker = undefined;
      if (this.stopping === undefined) this.restartLater(code);
    });
    // The service's servers keep the process alive; the thread alone must not.
    thread.unref();
    this.post({ kind: 'start' });
  }

  private restartLater(code: number): void {
    this.log(`delivery: the delivery thread stopped (exit code ${code}); starting it again in 1 s`);
    this.stats = NO_STATS;
    this.restart = setTimeout(() => {
      this.restart = undefined;
      if (this.stopping !== undefined) return;
      // A new name: the old one's claims must run out and come back, not be renewed by this one.
      this.owner = newOwner();
      this.spawn();
    }, RESTART_AFTER_MS);
    this.restart.unref();
  }

  stop(deadlineMs: number): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      clearTimeout(this.restart);
      this.unsubscribe?.();
      const thread = this.worker;
      if (thread === undefined) return resolve();
      // Held until the thread has recorded what it holds and ended: the store closes after this.
      thread.ref();
      const terminate = setTimeout(() => void thread.terminate(), Math.max(0, deadlineMs) + STOP_GRACE_MS);
      thread.once('exit', () => {
        clearTimeout(terminate);
        resolve();
      });
      thread.on('message', (message: FromDeliveryThread) => {
        if (message.kind === 'stopped') void thread.terminate();
      });
      this.post({ kind: 'stop', deadlineMs });
    });
    return this.stopping;
  }
}

function newOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}
