/**
 * The nonces of recently accepted UsernameTokens, so that a captured request sent again is
 * refused. Bounded in both time and count:
 *
 * - time: a nonce is kept until its token's Created is `maxAgeMs` old; from then on the token is
 *   refused as expired anyway, so forgetting the nonce opens no replay.
 * - count: at `capacity` the oldest nonce is dropped and the `floor` rises to its Created:
 *   tokens created at or before the floor are refused as expired, so a replay of a dropped nonce
 *   is still refused. Under a flood the accepted age shrinks; nothing is ever accepted twice.
 *
 * Only nonces of tokens whose password verified are stored: a client without credentials
 * cannot fill the cache.
 */
export type RememberOutcome = 'fresh' | 'replayed' | 'expired';

export class NonceCache {
  /** nonce (canonical Base64) -> the instant it may be forgotten (its Created + maxAgeMs). */
  private readonly expiries = new Map<string, number>();
  /** Tokens created at or before this instant are refused (raised by dropping nonces when full). */
  private floorAt = Number.NEGATIVE_INFINITY;
  /** How many nonces were dropped because the cache was full (for the log and tests). */
  dropped = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxAgeMs: number,
  ) {}

  get size(): number {
    return this.expiries.size;
  }

  get floor(): number {
    return this.floorAt;
  }

  /**
   * Records `nonce` of a token created at `createdAt`, unless it was seen before ('replayed') or
   * the token is too old by `now` or at or below the floor ('expired'). The age is checked here,
   * with the same `now` the sweep uses, so no caller's earlier clock reading can let a token
   * through whose nonce the sweep has just forgotten.
   */
  remember(nonce: string, createdAt: number, now: number): RememberOutcome {
    if (createdAt <= this.floorAt || now - createdAt > this.maxAgeMs) return 'expired';
    this.forgetExpired(now);
    if (this.expiries.has(nonce)) return 'replayed';
    while (this.expiries.size >= this.capacity) this.dropOldest();
    this.expiries.set(nonce, createdAt + this.maxAgeMs);
    return 'fresh';
  }

  /**
   * Insertion order is close to expiry order (Created values differ by clock skew at most), so
   * the sweep stops at the first live entry: amortised O(1). A straggler that expired behind a
   * live one waits for the next sweep or the count bound; it never makes a replay pass.
   */
  private forgetExpired(now: number): void {
    for (const [nonce, expiresAt] of this.expiries) {
      if (expiresAt >= now) return;
      this.expiries.delete(nonce);
    }
  }

  private dropOldest(): void {
    const first = this.expiries.entries().next();
    if (first.done === true) return;
    const [nonce, expiresAt] = first.value;
    this.expiries.delete(nonce);
    this.floorAt = Math.max(this.floorAt, expiresAt - this.maxAgeMs);
    this.dropped++;
  }
}
