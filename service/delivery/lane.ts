/**
 * One route's lane in the delivery engine: a small buffer of claimed messages (claimed =
 * `sending` under this worker's lease), at most `window` submits in flight, and the answers and
 * receipts recorded through the group-commit batcher (./change-batcher.ts). The store is asked for more when the buffer
 * runs low; the engine wakes an idle lane when new messages are committed and on its poll tick.
 */
import type { CarrierSelection, ClaimedMessage, DeliveryStore } from '../store/delivery.js';
import { changeForAnswer, expiredBeforeSending, type OwnedBase } from './answers.js';
import type { DeliveryCounters } from './counters.js';
import type { RetryPolicy } from './policy.js';
import type { Receipt, Route, RouteStatus, SubmitResult } from './route.js';
import type { ChangeBatcher } from './change-batcher.js';
import { UnknownReceiptWatch } from './unknown-receipts.js';

export interface RouteReport extends RouteStatus {
  readonly name: string;
  readonly kind: Route['kind'];
  /** Claimed and waiting for a free slot in the window. */
  readonly buffered: number;
}

/** What every lane of one engine shares. */
export interface LaneContext {
  readonly store: DeliveryStore;
  readonly changes: ChangeBatcher;
  readonly counters: DeliveryCounters;
  readonly policy: RetryPolicy;
  readonly leaseMs: number;
  readonly owner: string;
  readonly clock: () => number;
  readonly random: () => number;
  readonly log: (line: string) => void;
  /** True once the engine is stopping: nothing more is claimed or sent. */
  stopping(): boolean;
}

export class Lane {
  private readonly buffer: ClaimedMessage[] = [];
  /** Each submit's answer until it is recorded. */
  readonly chains = new Set<Promise<void>>();
  private inFlight = 0;
  private claiming = false;
  /** The last claim found nothing more to do; wait for a wake-up or the poll tick. */
  private idle = false;
  private readonly unknownReceipts: UnknownReceiptWatch;

  constructor(
    readonly route: Route,
    private readonly carriers: CarrierSelection,
    private readonly context: LaneContext,
  ) {
    this.unknownReceipts = new UnknownReceiptWatch(route.name, context.counters, context.clock, context.log);
  }

  /** Something may be due (new messages, the poll tick, leases taken back): look again. */
  wake(): void {
    this.idle = false;
    this.pump();
  }

  /** Returns every claimed message not yet handed to the route to the queue. */
  releaseBuffered(): void {
    for (const message of this.buffer.splice(0)) this.release(message);
  }

  report(): RouteReport {
    return {
      ...this.route.status(),
      name: this.route.name,
      kind: this.route.kind,
      inFlight: this.inFlight,
      buffered: this.buffer.length,
    };
  }

  /**
   * A receipt can overtake the record of its own submit (a long message's first part is
   * answered before the last part is): wait for what was in flight when it came, then look again.
   */
  async receipt(received: Receipt, member?: string): Promise<boolean> {
    const { changes, clock, counters } = this.context;
    const change = { kind: 'receipt', route: member ?? this.route.name, at: clock(), receipt: received } as const;
    const inFlight = [...this.chains];
    let matched = await changes.record(change);
    if (!matched && inFlight.length > 0) {
      await Promise.allSettled(inFlight);
      matched = await changes.record({ ...change, at: clock() });
    }
    counters.count(this.route.name, matched ? `receipt_${received.state}` : 'receipt_unknown');
    if (!matched) this.unknownReceipts.seen();
    return matched;
  }

  private pump(): void {
    if (this.context.stopping()) return;
    const status = this.route.status();
    if (!status.up) {
      // Claims wait for nobody while the route is down: back to the queue, for whichever
      // instance's route is up (or this one's, once it is again).
      this.releaseBuffered();
      return;
    }
    while (this.inFlight < status.window && this.buffer.length > 0) {
      const message = this.buffer.shift();
      if (message !== undefined) this.send(message);
    }
    if (!this.claiming && !this.idle && this.buffer.length < status.window) this.claim(status.window);
  }

  private claim(window: number): void {
    const { store, owner, clock, leaseMs } = this.context;
    const limit = Math.max(2 * window, 32) - this.buffer.length;
    const now = clock();
    this.claiming = true;
    store.claim({ route: this.route.name, carriers: this.carriers, limit, owner, now, leaseUntil: now + leaseMs }).then(
      (claimed) => this.claimed(claimed, limit),
      (error: unknown) => {
        this.claiming = false;
        this.idle = true; // the poll tick tries again
        const reason = error instanceof Error ? error.message : error;
        this.context.log(`route ${this.route.name}: cannot claim messages: ${reason}`);
      },
    );
  }

  private claimed(claimed: readonly ClaimedMessage[], limit: number): void {
    this.claiming = false;
    if (this.context.stopping()) {
      for (const message of claimed) this.release(message);
      return;
    }
    if (claimed.length < limit) this.idle = true;
    this.buffer.push(...claimed);
    this.pump();
  }

  private owned(message: ClaimedMessage, at: number): OwnedBase {
    return { id: message.id, owner: this.context.owner, at, attempt: message.attempt, route: this.route.name };
  }

  private release(message: ClaimedMessage): void {
    void this.context.changes.record({ ...this.owned(message, this.context.clock()), kind: 'released' });
  }

  private send(message: ClaimedMessage): void {
    const { changes, clock, counters, policy } = this.context;
    const now = clock();
    if (now > message.createdAt + policy.validityMs) {
      counters.count(this.route.name, 'expired');
      void changes.record(expiredBeforeSending(this.owned(message, now)));
      return;
    }
    this.inFlight++;
    counters.count(this.route.name, 'submitted');
    const { id, smsto, smsmsg, encoding, segments, port, carrierCode, attempt } = message;
    const validUntil = message.createdAt + policy.validityMs;
    const outgoing = { id, smsto, smsmsg, encoding, segments, port, carrierCode, validUntil, attempt };
    this.track(message, this.route.submit(outgoing));
  }

  /**
   * The window counts submits the peer has not answered: a slot frees when the answer comes,
   * not when it is committed, so the disk never holds the window.
   */
  private track(message: ClaimedMessage, answered: Promise<SubmitResult>): void {
    const freeSlot = (): void => {
      this.inFlight--;
      this.pump();
    };
    const chain = answered
      .then(
        (result) => {
          freeSlot();
          return this.context.changes.record(this.changeFor(message, result));
        },
        (error: unknown) => {
          freeSlot();
          throw error;
        },
      )
      .then(
        () => undefined,
        (error: unknown) => this.context.log(`route ${this.route.name}: ${message.id}: ${error}`),
      )
      .finally(() => {
        this.chains.delete(chain);
      });
    this.chains.add(chain);
  }

  /** The state change to record for the route's answer to `message` (counting its event). */
  private changeFor(message: ClaimedMessage, result: SubmitResult) {
    const { clock, counters, policy, random } = this.context;
    const { change, event } = changeForAnswer(this.owned(message, clock()), message, result, policy, random);
    counters.count(this.route.name, event);
    return change;
  }
}
