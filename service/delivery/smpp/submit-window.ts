/**
 * Writes submit_sm on one bind within its window and pace: each part takes a window slot, waits
 * for the pacer, is written, and holds the slot until its response, a response timeout or the
 * loss of the connection. A throttle answer gives the slot back, pauses the bind and writes the
 * same part again.
 */
import smpp from 'smpp';
import type { Bind, Clock } from './bind.js';
import type { SmppRouteOptions } from './options.js';
import type { Pacer } from './pacing.js';
import { statusClass } from './status-codes.js';

/** How one part ended. */
export type PartOutcome =
  | { readonly kind: 'accepted'; readonly peerId: string }
  | { readonly kind: 'refused'; readonly status: number }
  | { readonly kind: 'lost'; readonly written: boolean; readonly code: string; readonly text: string };

interface Pending {
  readonly sentAt: number;
  settle(outcome: PartOutcome): void;
}

export class SubmitWindow {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  private readonly outstanding = new Set<Pending>();
  private sweeping = false;
  private stopped = false;

  constructor(
    private readonly bind: Bind,
    private readonly options: Pick<SmppRouteOptions, 'window' | 'responseTimeoutMs'>,
    private readonly pacer: Pacer,
    private readonly clock: Clock,
  ) {
    this.free = Math.max(1, options.window);
  }

  /** Sends one part until the SMSC answers it with something other than "slow down", or it is lost. */
  async submit(fields: Record<string, unknown>): Promise<PartOutcome> {
    for (;;) {
      await this.takeSlot();
      try {
        const wait = this.pacer.reserve();
        if (wait > 0) await new Promise<void>((resolve) => this.clock.setTimeout(resolve, wait));
        const outcome = await this.writeOnce(fields);
        if (outcome.kind === 'refused' && statusClass(outcome.status) === 'throttle') {
          this.pacer.throttled();
          continue;
        }
        if (outcome.kind === 'accepted') this.pacer.accepted();
        return outcome;
      } finally {
        this.releaseSlot();
      }
    }
  }

  /** The bind is (re)bound. */
  connected(): void {
    this.stopped = false;
  }

  /** Everything written and unanswered is lost (`final`: and nothing more is written). */
  abandon(code: string, text: string, final = false): void {
    if (final) this.stopped = true;
    for (const pending of [...this.outstanding]) pending.settle({ kind: 'lost', written: true, code, text });
  }

  private writeOnce(fields: Record<string, unknown>): Promise<PartOutcome> {
    return new Promise((resolve) => {
      if (this.stopped || !this.bind.isBound) {
        resolve(this.unwritten());
        return;
      }
      let settled = false;
      const pending: Pending = {
        sentAt: this.clock.now(),
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          this.outstanding.delete(pending);
          resolve(outcome);
        },
      };
      const written = this.bind.send(new smpp.PDU('submit_sm', fields), (response) => {
        if (response.command_status === 0)
          pending.settle({ kind: 'accepted', peerId: String(response.message_id ?? '') });
        else pending.settle({ kind: 'refused', status: response.command_status });
      });
      if (!written) {
        pending.settle(this.unwritten());
        return;
      }
      this.outstanding.add(pending);
      this.sweep();
    });
  }

  /** A part that never left: the route is closing, or the bind is down. */
  private unwritten(): PartOutcome {
    return this.stopped
      ? { kind: 'lost', written: false, code: 'SMSKIT_CLOSING', text: 'the route closed before it was sent' }
      : { kind: 'lost', written: false, code: 'SMPP_NOT_BOUND', text: `not bound to ${this.bind.peer}` };
  }

  /** Times out the oldest unanswered parts; runs only while some are outstanding. */
  private sweep(): void {
    if (this.sweeping) return;
    this.sweeping = true;
    const timeout = this.options.responseTimeoutMs;
    this.clock.setTimeout(
      () => {
        this.sweeping = false;
        const now = this.clock.now();
        for (const pending of this.outstanding) {
          if (now - pending.sentAt < timeout) break; // in send order: the rest are younger
          pending.settle({
            kind: 'lost',
            written: true,
            code: 'SMPP_RESPONSE_TIMEOUT',
            text: `no submit_sm_resp within ${timeout} ms`,
          });
        }
        if (this.outstanding.size > 0) this.sweep();
      },
      Math.max(10, Math.min(1_000, timeout / 4)),
    );
  }

  private takeSlot(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next();
    else this.free++;
  }
}
