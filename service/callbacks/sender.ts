/**
 * The callback sender: its own loop beside delivery, which never waits for it. It claims due
 * events from the store in batches (the store hands out only each message's earliest pending
 * event, so a later state never overtakes an earlier one), sends them under an overall and a
 * per-host limit over one keep-alive agent, and settles the outcomes of ~10 ms in one store call;
 * a settled batch frees those messages' next events, so it claims again at once. With nothing
 * due it looks again every `idlePollMs` (one cheap indexed query). Told the service's load, it
 * holds new claims back while the service and the machine are busy, at most `busyDeferMs` at a
 * stretch (./busy-deferral.ts). A receiver back after an outage has its account's waiting events
 * brought forward (./recovery.ts). `serve` runs it in a thread of its own (./thread.ts); tests
 * and embedders may run it on their event loop.
 *
 * close(): no new claims; events waiting for a place go back to the queue due at once; requests
 * in flight get `drainMs` to finish, then are cut off and go back too; the last outcomes are
 * settled before it resolves, so the store can close right after.
 */
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import type { CallbackEvent, CallbackOutcome, SenderCalls } from '../store/callbacks.js';
import { guardedLookup } from './address-guard.js';
import { type CallbackSenderSettings, type CallbackSettingsInput, callbackSettings } from './options.js';
import type { FailureReason } from './post.js';
import { createEventSender } from './send-event.js';
import { createCallbackSigner } from './signing.js';
import { createRecoveryWatch, type RecoveryWatch } from './recovery.js';
import { type BusyDeferral, createBusyDeferral, NEVER_DEFER } from './busy-deferral.js';
import type { LoadSample } from '../threads/load-gauge.js';
import { createGate, createKeyedGates } from './slots.js';
import { createTrySignals } from './try-signals.js';
import { createTargetCache } from './target.js';

/** How long outcomes are gathered into one settlement (ms): a small delay on each message's next event. */
const SETTLE_GATHER_MS = 10;
/** While holding back for a busy service, how often the sender looks whether it still is (ms). */
const BUSY_RECHECK_MS = 50;

/** The store calls a sender makes (listing and counting are the operator's). */
export type SenderStore = SenderCalls;

export interface CallbackSenderOptions {
  readonly store: SenderStore;
  readonly settings?: CallbackSettingsInput;
  /** This instance's name in the queue's leases (default host, pid and a random tag). */
  readonly owner?: string;
  readonly clock?: () => number;
  readonly random?: () => number;
  readonly log?: (line: string) => void;
  /**
   * How busy the event loop that serves and delivers, and the machine, have been lately: while
   * both are, new claims wait (settings.busyDeferMs). Without it the sender never waits.
   */
  readonly serviceLoad?: () => LoadSample;
}

export type SenderOutcome = 'sent' | 'retried' | 'dead' | 'disabled';

export interface CallbackSenderStats {
  readonly running: boolean;
  /** Events settled by this process since it started, by outcome. */
  readonly outcomes: Readonly<Record<SenderOutcome, number>>;
  /** Failed tries by reason. */
  readonly failures: Readonly<Partial<Record<FailureReason, number>>>;
  /** Events claimed and not yet settled (waiting for a place, or in flight). */
  readonly held: number;
  readonly inFlight: number;
  /** The last failed claim or settle (the store's message), null once one succeeded again. */
  readonly storeError: string | null;
  /** Paused: new claims wait because the service and the machine are busy (events already held still go). */
  readonly deferring: boolean;
}

export interface CallbackSender {
  readonly settings: CallbackSenderSettings;
  start(): void;
  /** Look for due events now (instead of at the next idle poll). */
  wake(): void;
  stats(): CallbackSenderStats;
  close(drainMs?: number): Promise<void>;
}

export function createCallbackSender(options: CallbackSenderOptions): CallbackSender {
  const settings = callbackSettings(options.settings);
  const loop = new SenderLoop(options, settings);
  return {
    settings,
    start: () => loop.start(),
    wake: () => loop.wake(),
    stats: () => loop.stats(),
    close: (drainMs = 5_000) => loop.close(drainMs),
  };
}

class SenderLoop {
  private readonly store: SenderStore;
  private readonly owner: string;
  private readonly clock: () => number;
  private readonly log: (line: string) => void;
  /** Aborted on close: no try starts after it. */
  private readonly closing = new AbortController();
  /** Each try's timeout; stopAll() when close's drain time is over cuts tries in flight off. */
  private readonly tries = createTrySignals();
  private readonly agent: Agent;
  private readonly overall;
  private readonly send;
  private readonly outcomeCounts: Record<SenderOutcome, number> = { sent: 0, retried: 0, dead: 0, disabled: 0 };
  private readonly failureCounts: Partial<Record<FailureReason, number>> = {};
  private running = false;
  private closed = false;
  /** The seqs of the events claimed and not yet settled: their leases are renewed while held. */
  private readonly held = new Set<number>();
  private renewal: NodeJS.Timeout | undefined;
  private claiming = false;
  /** A wake came while a claim was running: claim again right after it. */
  private wokenWhileClaiming = false;
  private settling = false;
  private pending: CallbackOutcome[] = [];
  private flushQueued = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private storeError: string | null = null;
  private readonly recovery: RecoveryWatch;
  /** Accounts whose receiver is back, brought forward after the next settlement. */
  private readonly recovered = new Set<string>();
  private idle: (() => void) | undefined;
  private readonly deferral: BusyDeferral;

  constructor(
    options: CallbackSenderOptions,
    private readonly settings: CallbackSenderSettings,
  ) {
    this.store = options.store;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.recovery = createRecoveryWatch({ clock: this.clock });
    this.deferral =
      options.serviceLoad === undefined
        ? NEVER_DEFER
        : createBusyDeferral(options.serviceLoad, settings.busyDeferMs, () => performance.now());
    this.agent = new Agent({
      connections: settings.perHost,
      keepAliveTimeout: 30_000,
      connect: { timeout: settings.timeoutMs, ...(settings.allowPrivate ? {} : { lookup: guardedLookup() }) },
    });
    this.overall = createGate(settings.concurrency);
    this.send = createEventSender({
      store: this.store,
      settings,
      dispatcher: this.agent,
      signer: createCallbackSigner('smskit-callbacks'),
      target: createTargetCache(settings.allowPrivate),
      overall: this.overall,
      perHost: createKeyedGates(settings.perHost),
      closing: this.closing.signal,
      tries: this.tries,
      clock: this.clock,
      random: options.random ?? Math.random,
      log: this.log,
      failed: (reason) => {
        this.failureCounts[reason] = (this.failureCounts[reason] ?? 0) + 1;
      },
    });
  }

  start(): void {
    if (this.running || this.closed) return;
    this.running = true;
    // Renewed well before they run out: a lease can then be short, and the events of a sender
    // that died (its leases no longer renewed) are sent again soon by another claim.
    this.renewal = setInterval(() => void this.renewLeases(), Math.max(250, this.settings.leaseMs / 4));
    this.renewal.unref();
    this.wake();
  }

  wake(): void {
    if (!this.running || this.closed || this.immediate !== undefined) return;
    if (this.claiming) {
      this.wokenWhileClaiming = true;
      return;
    }
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      void this.claimTurn();
    });
  }

  stats(): CallbackSenderStats {
    return {
      running: this.running && !this.closed,
      outcomes: { ...this.outcomeCounts },
      failures: { ...this.failureCounts },
      held: this.held.size,
      inFlight: this.overall.active,
      storeError: this.storeError,
      deferring: this.deferral.holding && !this.closed,
    };
  }

  /** Most events held at once: enough to keep every place busy while a batch is settled. */
  private get room(): number {
    return this.settings.concurrency * 2 - this.held.size;
  }

  private later(delayMs = this.settings.idlePollMs): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.claimTurn();
    }, delayMs);
    this.timer.unref();
  }

  private async claimTurn(): Promise<void> {
    if (this.closed || this.claiming) return;
    const limit = Math.min(this.settings.batchSize, this.room);
    // While many are held, wait for a quarter of the places to free up: fewer, larger claims
    // (each is a query), and the settles that free them wake the loop.
    if (limit <= 0 || (this.held.size > 0 && limit < this.settings.concurrency / 2)) return;
    // Events already held still go; the settlements' wakes come back here and wait too.
    if (this.deferral.holdBack()) return this.later(BUSY_RECHECK_MS);
    this.claiming = true;
    this.wokenWhileClaiming = false;
    let events: CallbackEvent[] = [];
    const now = this.clock();
    try {
      events = await this.store.claimCallbacks({
        owner: this.owner,
        now,
        leaseUntil: now + this.settings.leaseMs,
        limit,
      });
      this.storeError = null;
    } catch (error) {
      this.storeFailed('claiming callback events', error);
    } finally {
      this.claiming = false;
    }
    if (this.closed) return this.giveBack(events);
    if (events.length < limit && this.storeError === null) this.deferral.caughtUp();
    for (const event of events) this.held.add(event.seq);
    for (const event of events)
      void this.send(event, now)
        // send() turns every failure into an outcome; this only keeps a bug from leaking a held event.
        .catch((error: unknown) => ({
          seq: event.seq,
          kind: 'retry' as const,
          nextAttemptAt: this.clock() + this.settings.budget.firstDelayMs,
          error: `callback sender error: ${(error as Error).message}`,
        }))
        .then((outcome) => {
          this.noteReceiver(event.account, outcome);
          this.record(outcome);
        });
    if (events.length === limit || this.wokenWhileClaiming) this.wake();
    else this.later();
  }

  /**
   * A receiver back after an outage: its account's events waiting out their backoff go now. Done
   * after the settlement that holds this success, so the failures recorded before it are settled
   * (and waiting) by then, not still handed out and passed over.
   */
  private noteReceiver(account: string, outcome: CallbackOutcome): void {
    if (outcome.kind === 'retry') return this.recovery.failed(account);
    if (outcome.kind === 'sent' && this.recovery.succeeded(account)) this.recovered.add(account);
  }

  private async hastenRecovered(accounts: readonly string[]): Promise<void> {
    for (const account of accounts) {
      try {
        if ((await this.store.hastenCallbacks(account, this.clock())) > 0) this.wake();
      } catch (error) {
        this.storeFailed('bringing callbacks forward', error);
      }
    }
  }

  /** Events claimed while closing go straight back, due at once. */
  private giveBack(events: readonly CallbackEvent[]): void {
    const now = this.clock();
    if (events.length === 0 && this.held.size === 0) this.idle?.();
    for (const event of events) this.held.add(event.seq);
    for (const event of events)
      this.record({ seq: event.seq, kind: 'retry', nextAttemptAt: now, error: 'the sender stopped before this try' });
  }

  private record(outcome: CallbackOutcome): void {
    this.pending.push(outcome);
    if (outcome.kind === 'sent') this.outcomeCounts.sent++;
    else if (outcome.kind === 'retry') this.outcomeCounts.retried++;
    else if (outcome.error.startsWith('HTTP 410')) this.outcomeCounts.disabled++;
    else this.outcomeCounts.dead++;
    if (this.flushQueued) return;
    this.flushQueued = true;
    // Outcomes are gathered for a few milliseconds: one store call settles them all, where
    // settling each turn's one or two (a fast receiver answers one at a time) cost a writer
    // transaction each. While closing, or with a large batch at hand, they go at once.
    if (this.closed || this.pending.length >= this.settings.concurrency / 2) setImmediate(() => void this.flush());
    else setTimeout(() => void this.flush(), SETTLE_GATHER_MS).unref();
  }

  private async flush(): Promise<void> {
    this.flushQueued = false;
    if (this.settling || this.pending.length === 0) return;
    this.settling = true;
    const batch = this.pending;
    this.pending = [];
    const recovered = [...this.recovered];
    this.recovered.clear();
    try {
      await this.store.settleCallbacks(this.owner, batch);
      this.storeError = null;
      if (recovered.length > 0 && !this.closed) await this.hastenRecovered(recovered);
    } catch (error) {
      // Their leases run out and another claim sends them again: at least once, never lost.
      this.storeFailed(`settling ${batch.length} callback event(s)`, error);
    } finally {
      this.settling = false;
      for (const outcome of batch) this.held.delete(outcome.seq);
    }
    if (this.pending.length > 0) void this.flush();
    else if (this.held.size === 0) this.idle?.();
    this.wake();
  }

  private async renewLeases(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await this.store.renewCallbackLeases(this.owner, [...this.held], this.clock() + this.settings.leaseMs);
    } catch (error) {
      // Not renewed: those events come back when their leases end, and are sent again (at least once).
      this.storeFailed('renewing callback leases', error);
    }
  }

  private storeFailed(what: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (this.storeError !== message) this.log(`callbacks: ${what} failed: ${message}`);
    this.storeError = message;
  }

  async close(drainMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    clearTimeout(this.timer);
    clearInterval(this.renewal);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    const drained = new Promise<void>((resolve) => {
      this.idle = resolve;
      if (this.held.size === 0 && !this.claiming) resolve();
    });
    // In-flight tries get drainMs, then are cut off; their outcomes (back to the queue) are settled still.
    const cutOff = setTimeout(() => this.tries.stopAll(), Math.max(0, drainMs));
    let giveUp: NodeJS.Timeout | undefined;
    const settledOrLate = new Promise<void>((resolve) => {
      giveUp = setTimeout(resolve, Math.max(0, drainMs) + 2_000);
    });
    await Promise.race([drained, settledOrLate]);
    clearTimeout(cutOff);
    clearTimeout(giveUp);
    this.tries.stopAll();
    await this.agent.close().catch(() => undefined);
  }
}
