/**
 * The delivery engine: takes accepted messages in acceptance order, hands each to the route its
 * carrier code selects, and records every answer durably (see docs/delivery.md for the states).
 *
 * Per route: a small buffer of claimed messages (claimed = `sending` under this worker's lease),
 * at most `window` submits in flight, and the route's own pace inside `submit`. The store is asked
 * for more when the buffer runs low, when new messages are committed, and on a poll tick (for
 * retries falling due and for routes coming back up).
 *
 * Guarantee across a crash: at least once. A message claimed by a worker that dies stays
 * `sending` until its lease runs out; then it is queued again with `possibleDuplicate` set, since
 * the peer may already have it. Only messages claimed at the moment of the crash (at most
 * `prefetch` per route) can be sent twice, and each of them is flagged.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { CarrierSelection, ClaimedMessage, DeliveryChange, DeliveryStore } from '../store/delivery.js';
import { decideRetry, DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy.js';
import type { Receipt, Route, RouteStatus, SubmitResult } from './route.js';
import { createChangeWriter } from './writer.js';
import { createDeliveryCounters, type DeliveryCounters } from './counters.js';

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

export interface RouteReport extends RouteStatus {
  readonly name: string;
  readonly kind: Route['kind'];
  /** Claimed and waiting for a free slot in the window. */
  readonly buffered: number;
}

export interface DeliveryEngine {
  readonly owner: string;
  start(): void;
  /** Stops claiming, returns unsent claims to the queue, lets in-flight submits finish (up to `deadlineMs`), closes the routes. */
  stop(deadlineMs: number): Promise<void>;
  routes(): RouteReport[];
  readonly counters: DeliveryCounters;
}

interface Lane {
  readonly route: Route;
  readonly carriers: CarrierSelection;
  readonly buffer: ClaimedMessage[];
  readonly chains: Set<Promise<void>>;
  inFlight: number;
  claiming: boolean;
  /** The last claim found nothing more to do; wait for a wake-up or the poll tick. */
  idle: boolean;
}

export function createDeliveryEngine(options: EngineOptions): DeliveryEngine {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  const timing = { ...DEFAULT_ENGINE_TIMING, ...options.timing };
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => {});
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const store = options.store;
  const writer = createChangeWriter(store, log);
  const counters = createDeliveryCounters();
  const lanes = options.routes.map(
    (r): Lane => ({
      route: r.route,
      carriers: r.carriers,
      buffer: [],
      chains: new Set(),
      inFlight: 0,
      claiming: false,
      idle: false,
    }),
  );
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe: (() => void) | undefined;
  let stopping = false;

  const prefetchOf = (lane: Lane): number => Math.max(2 * lane.route.status().window, 32);

  function wakeAll(): void {
    for (const lane of lanes) {
      lane.idle = false;
      pump(lane);
    }
  }

  function pump(lane: Lane): void {
    if (stopping) return;
    const status = lane.route.status();
    if (!status.up) {
      // Claims wait for nobody while the route is down: back to the queue, for whichever
      // instance's route is up (or this one's, once it is again).
      for (const message of lane.buffer.splice(0)) release(lane, message);
      return;
    }
    while (lane.inFlight < status.window && lane.buffer.length > 0) {
      const message = lane.buffer.shift();
      if (message !== undefined) send(lane, message);
    }
    if (!lane.claiming && !lane.idle && lane.buffer.length < status.window) claim(lane);
  }

  function claim(lane: Lane): void {
    const limit = prefetchOf(lane) - lane.buffer.length;
    const now = clock();
    lane.claiming = true;
    store
      .claim({
        route: lane.route.name,
        carriers: lane.carriers,
        limit,
        owner,
        now,
        leaseUntil: now + timing.leaseMs,
      })
      .then(
        (claimed) => {
          lane.claiming = false;
          if (stopping) {
            for (const message of claimed) release(lane, message);
            return;
          }
          if (claimed.length < limit) lane.idle = true;
          lane.buffer.push(...claimed);
          pump(lane);
        },
        (error: unknown) => {
          lane.claiming = false;
          lane.idle = true; // the poll tick tries again
          log(`route ${lane.route.name}: cannot claim messages: ${error instanceof Error ? error.message : error}`);
        },
      );
  }

  function release(lane: Lane, message: ClaimedMessage): void {
    void writer.record({ ...owned(lane, message, clock()), kind: 'released' });
  }

  function owned(lane: Lane, message: ClaimedMessage, at: number) {
    return { id: message.id, owner, at, attempt: message.attempt, route: lane.route.name };
  }

  function send(lane: Lane, message: ClaimedMessage): void {
    const now = clock();
    if (now > message.createdAt + policy.validityMs) {
      counters.count(lane.route.name, 'expired');
      const change: DeliveryChange = {
        ...owned(lane, message, now),
        kind: 'final',
        state: 'expired',
        code: 'VALIDITY',
        text: 'not sent within its validity period',
      };
      void writer.record(change);
      return;
    }
    lane.inFlight++;
    counters.count(lane.route.name, 'submitted');
    // The window counts submits the peer has not answered: a slot frees when the answer comes,
    // not when it is committed, so the disk never holds the window.
    const answered = lane.route.submit({
      id: message.id,
      smsto: message.smsto,
      smsmsg: message.smsmsg,
      encoding: message.encoding,
      segments: message.segments,
      port: message.port,
      carrierCode: message.carrierCode,
    });
    const freeSlot = (): void => {
      lane.inFlight--;
      pump(lane);
    };
    const chain = answered
      .then(
        (result) => {
          freeSlot();
          return writer.record(changeFor(lane, message, result));
        },
        (error: unknown) => {
          freeSlot();
          throw error;
        },
      )
      .then(
        () => undefined,
        (error: unknown) => log(`route ${lane.route.name}: ${message.id}: ${error}`),
      )
      .finally(() => {
        lane.chains.delete(chain);
      });
    lane.chains.add(chain);
  }

  function changeFor(lane: Lane, message: ClaimedMessage, result: SubmitResult): DeliveryChange {
    const now = clock();
    const base = owned(lane, message, now);
    const name = lane.route.name;
    if (result.outcome === 'accepted') {
      counters.count(name, 'accepted');
      return { ...base, kind: 'accepted', peerIds: result.peerIds };
    }
    if (result.outcome === 'rejected') {
      counters.count(name, 'rejected');
      return { ...base, kind: 'final', state: 'rejected', code: result.code, text: result.text };
    }
    const decision = decideRetry(policy, message, now, random);
    if (decision.next === 'retry') {
      counters.count(name, 'retried');
      const { code, text, maybeSent } = result;
      return { ...base, kind: 'requeue', nextAttemptAt: decision.at, code, text, maybeSent };
    }
    counters.count(name, decision.next);
    const why = decision.next === 'failed' ? `gave up after ${message.attempt} attempts` : 'validity period over';
    return { ...base, kind: 'final', state: decision.next, code: result.code, text: `${why}: ${result.text}` };
  }

  async function receipt(lane: Lane, received: Receipt): Promise<boolean> {
    const change: DeliveryChange = { kind: 'receipt', route: lane.route.name, at: clock(), receipt: received };
    // A receipt can overtake the record of its own submit (a long message's first part is
    // answered before the last part is): wait for what was in flight when it came, then look again.
    const inFlight = [...lane.chains];
    let matched = await writer.record(change);
    if (!matched && inFlight.length > 0) {
      await Promise.allSettled(inFlight);
      matched = await writer.record({ ...change, at: clock() });
    }
    counters.count(lane.route.name, matched ? `receipt_${received.state}` : 'receipt_unknown');
    return matched;
  }

  function every(ms: number, task: () => void): void {
    const timer = setInterval(task, ms);
    timer.unref();
    timers.push(timer);
  }

  function housekeeping(): void {
    const now = clock();
    store.recoverExpiredLeases(now).then(
      (count) => {
        if (count === 0) return;
        log(
          `took back ${count} message(s) whose delivery worker stopped while sending; flagged as possible duplicates`,
        );
        wakeAll();
      },
      (error: unknown) => log(`cannot take back stale messages: ${error instanceof Error ? error.message : error}`),
    );
  }

  function expireOverdue(): void {
    const now = clock();
    store.expireOverdue(now - policy.validityMs, now).then(
      (count) => {
        if (count > 0) log(`${count} queued message(s) expired (validity ${policy.validityMs} ms)`);
      },
      (error: unknown) => log(`cannot expire messages: ${error instanceof Error ? error.message : error}`),
    );
  }

  return {
    owner,
    counters,
    start() {
      for (const lane of lanes) {
        lane.route.start({ receipt: (r) => receipt(lane, r), log: (line) => log(`route ${lane.route.name}: ${line}`) });
      }
      unsubscribe = options.onCommitted?.(wakeAll);
      housekeeping();
      expireOverdue();
      every(timing.pollMs, wakeAll);
      every(Math.max(1_000, Math.floor(timing.leaseMs / 3)), () => {
        const now = clock();
        store.renewLeases(owner, now + timing.leaseMs, now).catch(() => {});
        housekeeping();
      });
      every(timing.expirySweepMs, expireOverdue);
      wakeAll();
    },
    async stop(deadlineMs) {
      const started = clock();
      stopping = true;
      unsubscribe?.();
      for (const timer of timers) clearInterval(timer);
      for (const lane of lanes) for (const message of lane.buffer.splice(0)) release(lane, message);
      const inFlight = lanes.flatMap((lane) => [...lane.chains]);
      await settleWithin(Promise.allSettled(inFlight), deadlineMs);
      const left = Math.max(0, deadlineMs - (clock() - started));
      await Promise.allSettled(lanes.map((lane) => lane.route.close(left)));
      await settleWithin(Promise.allSettled(lanes.flatMap((lane) => [...lane.chains])), 1_000);
      await settleWithin(writer.flush(), Math.max(1_000, left));
    },
    routes: () =>
      lanes.map((lane) => ({
        ...lane.route.status(),
        name: lane.route.name,
        kind: lane.route.kind,
        inFlight: lane.inFlight,
        buffered: lane.buffer.length,
      })),
  };
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
