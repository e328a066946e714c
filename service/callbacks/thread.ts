/**
 * The event loop's side of the callback sender's thread (./sender-thread.ts): from start() on it
 * asks the store at the sender's idle pace whether a sender is needed (an event pending, or an
 * account with a receiver) and starts the thread at the first yes (a service whose accounts have
 * no receiver never pays for a thread), runs the store calls the thread posts on the service's
 * store (unless the store says how the thread reaches it itself), samples this event loop's load
 * for it (../threads/load-gauge.ts), keeps its latest stats for /metrics and /healthz, and on
 * close() lets it settle what it holds before the store closes. A thread that stops unexpectedly
 * is logged and started again after a second: the events it held come back when their leases
 * run out (at least once, as after a crash).
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../threads/thread-entry.js';
import { type LoadGauge, startLoadGauge } from '../threads/load-gauge.js';
import type { CallbackStore } from '../store/callbacks.js';
import { type CallbackSettingsInput, callbackSettings } from './options.js';
import type { CallbackSender, CallbackSenderStats, SenderStore } from './sender.js';
import type { FromThread, SenderThreadData, ToThread } from './thread-protocol.js';

export interface CallbackThreadOptions {
  readonly store: SenderStore & Pick<CallbackStore, 'callbackSenderNeeded' | 'senderConnection'>;
  readonly settings?: CallbackSettingsInput;
  readonly log?: (line: string) => void;
  /**
   * The load the thread reads (../threads/load-gauge.ts layout), kept by the caller: tests write
   * samples into it. Default: a gauge of this event loop and the machine, one per thread.
   */
  readonly loadBuffer?: SharedArrayBuffer;
}

const RESTART_AFTER_MS = 1_000;
/** After close's drain time, this long for the thread to settle and end before it is terminated. */
const CLOSE_GRACE_MS = 5_000;

const NOT_RUNNING: CallbackSenderStats = Object.freeze({
  running: false,
  outcomes: { sent: 0, retried: 0, dead: 0, disabled: 0 },
  failures: {},
  held: 0,
  inFlight: 0,
  storeError: null,
  deferring: false,
});

export function startCallbackSenderThread(options: CallbackThreadOptions): CallbackSender {
  const settings = callbackSettings(options.settings);
  const thread = new SenderThread(options, settings.idlePollMs);
  return {
    settings,
    start: () => thread.start(),
    wake: () => thread.post({ kind: 'wake' }),
    stats: () => thread.stats,
    close: (drainMs = 5_000) => thread.close(drainMs),
  };
}

class SenderThread {
  private worker: Worker | undefined;
  stats = NOT_RUNNING;
  private closing: Promise<void> | undefined;
  private restart: NodeJS.Timeout | undefined;
  private started = false;
  /** The next look whether a sender is needed, while there is no thread. */
  private look: NodeJS.Timeout | undefined;
  /** A look failed and was logged: the next failure is not, until one succeeds. */
  private lookFailed = false;
  private readonly log: (line: string) => void;

  constructor(
    private readonly options: CallbackThreadOptions,
    private readonly pollMs: number,
  ) {
    this.log = options.log ?? (() => undefined);
  }

  start(): void {
    if (this.started || this.closing !== undefined) return;
    this.started = true;
    this.lookForEvents();
  }

  private lookForEvents(): void {
    this.look = undefined;
    if (this.worker !== undefined || this.closing !== undefined) return;
    this.options.store.callbackSenderNeeded().then(
      (needed) => {
        this.lookFailed = false;
        if (needed) this.startThread();
        else this.lookAgain();
      },
      (error: unknown) => {
        // The store closes right after close(): a look in flight then fails, and that is no news.
        if (this.closing !== undefined) return;
        if (!this.lookFailed) this.log(`callbacks: looking for queued events failed: ${messageOf(error)}`);
        this.lookFailed = true;
        this.lookAgain();
      },
    );
  }

  private lookAgain(): void {
    if (this.closing !== undefined) return;
    this.look = setTimeout(() => this.lookForEvents(), this.pollMs);
    this.look.unref();
  }

  private startThread(): void {
    if (this.worker !== undefined || this.closing !== undefined) return;
    this.spawn();
    this.post({ kind: 'start' });
  }

  post(message: ToThread): void {
    this.worker?.postMessage(message);
  }

  private answer(id: number, method: keyof SenderStore, args: readonly unknown[]): void {
    const run = this.options.store[method] as (...a: readonly unknown[]) => Promise<unknown>;
    run(...args).then(
      (value) => this.post({ kind: 'answer', id, value }),
      (error: unknown) => this.post({ kind: 'answer', id, error: messageOf(error) }),
    );
  }

  private spawn(): void {
    const entry = threadEntry(import.meta.url, './callback-thread.mjs', './sender-thread.ts');
    // Where the store says how, the thread's store calls go to it directly; else they come to us.
    const connection = this.options.store.senderConnection?.();
    // This loop's load, sampled for as long as this thread runs (unless the caller keeps one).
    const given = this.options.loadBuffer;
    const gauge: LoadGauge = given === undefined ? startLoadGauge() : { buffer: given, stop: () => undefined };
    const data: SenderThreadData = {
      settings: this.options.settings ?? {},
      serviceLoad: gauge.buffer,
      ...(connection && { connection }),
    };
    let thread: Worker;
    try {
      thread = new Worker(entry.source, {
        eval: entry.eval,
        workerData: data,
        transferList: connection?.kind === 'sqlite-writer' ? [connection.port] : [],
      });
    } catch (error) {
      gauge.stop();
      throw error;
    }
    this.worker = thread;
    thread.on('message', (message: FromThread) => {
      if (message.kind === 'call') this.answer(message.id, message.method, message.args);
      else if (message.kind === 'log') this.log(message.line);
      else if (message.kind === 'stats') this.stats = message.stats;
    });
    thread.on('error', (error) => this.log(`callbacks: the sender thread failed: ${error.message}`));
    thread.once('exit', (code) => {
      if (this.worker === thread) this.worker = undefined;
      this.stats = NOT_RUNNING;
      gauge.stop();
      if (this.closing === undefined) this.restartLater(code);
    });
    // The service's servers keep the process alive; the thread alone must not.
    thread.unref();
  }

  private restartLater(code: number): void {
    this.log(`callbacks: the sender thread stopped (exit code ${code}); starting it again in 1 s`);
    this.restart = setTimeout(() => {
      this.restart = undefined;
      this.lookForEvents();
    }, RESTART_AFTER_MS);
    this.restart.unref();
  }

  close(drainMs: number): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      clearTimeout(this.restart);
      clearTimeout(this.look);
      const thread = this.worker;
      if (thread === undefined) return resolve();
      // Held until the thread has settled what it holds and ended: the store closes after this.
      thread.ref();
      const terminate = setTimeout(() => void thread.terminate(), Math.max(0, drainMs) + CLOSE_GRACE_MS);
      thread.once('exit', () => {
        clearTimeout(terminate);
        resolve();
      });
      thread.on('message', (message: FromThread) => {
        if (message.kind === 'closed') void thread.terminate();
      });
      this.post({ kind: 'close', drainMs });
    });
    return this.closing;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
