/**
 * The delivery engine: takes accepted messages in acceptance order, hands each to the route its
 * carrier code selects, and records every answer durably (see docs/delivery.md for the states).
 *
 * Per route a lane (./lane.ts): a small buffer of claimed messages, at most `window` submits in
 * flight, and the route's own pace inside `submit`; what an answer means is ./answers.ts. The
 * engine wakes the lanes when new messages are committed and on a poll tick (for retries falling
 * due and for routes coming back up), and keeps house: leases renewed, stale leases taken back,
 * overdue messages expired.
 *
 * Guarantee across a crash: at least once. A message claimed by a worker that dies stays
 * `sending` until its lease runs out; then it is queued again with `possibleDuplicate` set, since
 * the peer may already have it. Only messages claimed at the moment of the crash (at most
 * `prefetch` per route) can be sent twice, and each of them is flagged.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { CarrierSelection, DeliveryStore } from '../store/delivery.js';
import { createDeliveryCounters, type DeliveryCounters } from './counters.js';
import { Lane, type LaneContext, type RouteReport } from './lane.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy.js';
import type { Route } from './route.js';
import { type ChangeBatcher, createChangeBatcher } from './change-batcher.js';
import { sweepReceiptTimeouts } from './receipt-timeout.js';

export type { RouteReport } from './lane.js';

export interface EngineTiming {
  /** How long a claim holds a message before another worker may take it back (ms). */
  readonly leaseMs: number;
  /** How often idle routes look for due retries and routes that came back up (ms). */
  readonly pollMs: number;
  /** How often queued messages past their validity are expired (ms). */
  readonly expirySweepMs: number;
}

export const DEFAULT_ENGINE_TIMING: EngineTiming = { leaseMs: 60_000, pollMs: 500, expirySweepMs: 60_000 };

export interface RoutedRoute {
  readonly route: Route;
  readonly carriers: CarrierSelection;
}

export interface EngineOptions {
  readonly store: DeliveryStore;
  /** Called after each committed batch of accepted messages, so the engine wakes at once. */
  readonly onCommitted?: (listener: () => void) => () => void;
  readonly routes: readonly RoutedRoute[];
  readonly policy?: RetryPolicy;
  readonly timing?: Partial<EngineTiming>;
  readonly clock?: () => number;
  readonly random?: () => number;
  readonly log?: (line: string) => void;
  /** This worker's name in leases (default host:pid:random). */
  readonly owner?: string;
}

export interface DeliveryEngine {
  readonly owner: string;
  start(): void;
  /** Stops claiming, returns unsent claims to the queue, lets in-flight submits finish (up to `deadlineMs`), closes the routes. */
  stop(deadlineMs: number): Promise<void>;
  routes(): RouteReport[];
  readonly counters: DeliveryCounters;
}

export function createDeliveryEngine(options: EngineOptions): DeliveryEngine {
  return new Engine(options);
}

class Engine implements DeliveryEngine {
  readonly owner: string;
  readonly counters = createDeliveryCounters();
  private readonly timing: EngineTiming;
  private readonly policy: RetryPolicy;
  private readonly clock: () => number;
  private readonly log: (line: string) => void;
  private readonly changes: ChangeBatcher;
  private readonly lanes: readonly Lane[];
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;
  private stopping = false;

  constructor(private readonly options: EngineOptions) {
    this.timing = { ...DEFAULT_ENGINE_TIMING, ...options.timing };
    this.policy = options.policy ?? DEFAULT_RETRY_POLICY;
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? (() => {});
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.changes = createChangeBatcher(options.store, this.log);
    const context: LaneContext = {
      store: options.store,
      changes: this.changes,
      counters: this.counters,
      policy: this.policy,
      leaseMs: this.timing.leaseMs,
      owner: this.owner,
      clock: this.clock,
      random: options.random ?? Math.random,
      log: this.log,
      stopping: () => this.stopping,
    };
    this.lanes = options.routes.map((r) => new Lane(r.route, r.carriers, context));
  }

  start(): void {
    for (const lane of this.lanes) {
      const name = lane.route.name;
      lane.route.start({
        receipt: (r, member) => lane.receipt(r, member),
        log: (line) => this.log(`route ${name}: ${line}`),
      });
    }
    this.unsubscribe = this.options.onCommitted?.(() => this.wakeAll());
    this.recoverStaleLeases();
    this.expireOverdue();
    this.every(this.timing.pollMs, () => this.wakeAll());
    this.every(Math.max(1_000, Math.floor(this.timing.leaseMs / 3)), () => {
      const now = this.clock();
      this.options.store.renewLeases(this.owner, now + this.timing.leaseMs, now).catch(() => {});
      this.recoverStaleLeases();
    });
    this.every(this.timing.expirySweepMs, () => this.expireOverdue());
    this.every(this.timing.expirySweepMs, () => this.timeOutReceipts());
    this.timeOutReceipts();
    this.wakeAll();
  }

  async stop(deadlineMs: number): Promise<void> {
    const started = this.clock();
    this.stopping = true;
    this.unsubscribe?.();
    for (const timer of this.timers) clearInterval(timer);
    for (const lane of this.lanes) lane.releaseBuffered();
    await settleWithin(Promise.allSettled(this.lanes.flatMap((lane) => [...lane.chains])), deadlineMs);
    const left = Math.max(0, deadlineMs - (this.clock() - started));
    await Promise.allSettled(this.lanes.map((lane) => lane.route.close(left)));
    await settleWithin(Promise.allSettled(this.lanes.flatMap((lane) => [...lane.chains])), 1_000);
    await settleWithin(this.changes.flush(), Math.max(1_000, left));
  }

  routes(): RouteReport[] {
    return this.lanes.map((lane) => lane.report());
  }

  private wakeAll(): void {
    for (const lane of this.lanes) lane.wake();
  }

  private every(ms: number, task: () => void): void {
    const timer = setInterval(task, ms);
    timer.unref();
    this.timers.push(timer);
  }

  /** Messages whose worker stopped while sending go back to the queue, flagged as possible duplicates. */
  private recoverStaleLeases(): void {
    this.options.store.recoverExpiredLeases(this.clock()).then(
      (count) => {
        if (count === 0) return;
        this.log(
          `took back ${count} message(s) whose delivery worker stopped while sending; flagged as possible duplicates`,
        );
        this.wakeAll();
      },
      (error: unknown) => this.log(`cannot take back stale messages: ${reasonOf(error)}`),
    );
  }

  private timeOutReceipts(): void {
    const { store } = this.options;
    for (const lane of this.lanes) void sweepReceiptTimeouts(lane.route, store, this.counters, this.clock, this.log);
  }

  private expireOverdue(): void {
    const now = this.clock();
    const validityMs = this.policy.validityMs;
    this.options.store.expireOverdue(now - validityMs, now).then(
      (count) => {
        if (count > 0) this.log(`${count} queued message(s) expired (validity ${validityMs} ms)`);
      },
      (error: unknown) => this.log(`cannot expire messages: ${reasonOf(error)}`),
    );
  }
}

function reasonOf(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}

function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    work.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
