/**
 * The pace of one bind: a token bucket for the configured cap (submit_sm per second), and a
 * pause after the SMSC said ESME_RTHROTTLED / ESME_RMSGQFUL that doubles while it keeps saying
 * so and is forgotten on the first PDU it takes.
 */

/** The first pause after a throttle answer, and the longest. */
export const THROTTLE_PAUSE_MS = { initial: 50, max: 5_000 } as const;

export class Pacer {
  private tokens: number;
  private refilledAt: number;
  private readonly burst: number;
  private pausedUntil = 0;
  private throttlePause = 0;

  /** `perSecond` 0 means no cap. The burst (20 ms of the rate, at least 1) keeps timers coarse at high rates. */
  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {
    this.burst = Math.max(1, Math.floor(perSecond / 50));
    this.tokens = this.burst;
    this.refilledAt = now();
  }

  /** Reserves a slot for one PDU; returns how long to wait before writing it (0 = now). */
  reserve(): number {
    const now = this.now();
    const paused = Math.max(0, this.pausedUntil - now);
    if (this.perSecond <= 0) return paused;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
    this.refilledAt = now;
    this.tokens -= 1;
    const forTokens = this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.perSecond;
    return Math.max(paused, forTokens);
  }

  /** The SMSC asked us to slow down: pause every PDU of this bind, longer each time in a row. */
  throttled(): number {
    const now = this.now();
    // The rest of a window that was already out answers "throttled" too: one pause for them all.
    if (now < this.pausedUntil) return this.pausedUntil - now;
    const doubled = this.throttlePause === 0 ? THROTTLE_PAUSE_MS.initial : this.throttlePause * 2;
    this.throttlePause = Math.min(THROTTLE_PAUSE_MS.max, doubled);
    this.pausedUntil = now + this.throttlePause;
    return this.throttlePause;
  }

  /** A PDU was taken: the next throttle answer starts from the first pause again. */
  accepted(): void {
    this.throttlePause = 0;
  }
}

/** Exponential backoff with "equal jitter": half the doubled delay fixed, half random. */
export function backoffDelay(failures: number, initialMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(failures, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
