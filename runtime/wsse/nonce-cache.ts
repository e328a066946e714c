/**
 * The nonces of recently accepted UsernameTokens, so that a captured request sent again is
 * refused. Bounded in time, per user and in total:
 *
 * - time: a nonce is kept until its token's Created is `maxAgeMs` old; from then on the token is
 *   refused as expired anyway, so forgetting the nonce opens no replay.
 * - per user: a user holding `perUserCapacity` live nonces gets 'overShare' for its next token,
 *   which is not stored. One user's flood is refused to that user alone: it cannot fill the
 *   cache, so it cannot raise the floor that every other user's tokens are checked against.
 * - in total (the last resort, when many users together exceed `capacity`): the oldest nonce
 *   is dropped and the `floor` rises to its Created: tokens created at or before the floor are
 *   refused as expired, so a replay of a dropped nonce is still refused. Under such a flood the
 *   accepted age shrinks; nothing is ever accepted twice.
 *
 * Nonces are kept as their SHA-256 (a fixed 32 bytes, whatever the nonce's length), compared
 * only for equality. Only nonces of tokens whose password verified are stored: a client without
 * credentials cannot fill the cache.
 */
import { createHash } from 'node:crypto';

export type RememberOutcome = 'fresh' | 'replayed' | 'expired' | 'overShare';

/** One user's live nonce count; every entry of that user points at the same one. */
interface Owner {
  readonly user: string;
  live: number;
}

interface Entry {
  /** The instant the nonce may be forgotten (its Created + maxAgeMs). */
  readonly expiresAt: number;
  readonly owner: Owner;
}

export class NonceCache {
  /** SHA-256 of the nonce bytes (as a 32-character latin1 string) -> its entry, in insertion order. */
  private readonly entries = new Map<string, Entry>();
  private readonly owners = new Map<string, Owner>();
  /** Tokens created at or before this instant are refused (raised by dropping nonces when full). */
  private floorAt = Number.NEGATIVE_INFINITY;
  /** How many nonces were dropped because the cache was full (for the log and tests). */
  dropped = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxAgeMs: number,
    private readonly perUserCapacity = capacity,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get floor(): number {
    return this.floorAt;
  }

  /**
   * Records `nonce` of `user`'s token created at `createdAt`, unless it was seen before
   * ('replayed'), the token is too old by `now` or at or below the floor ('expired'), or the user
   * already holds its share of the cache ('overShare'). The age is checked here, with the same
   * `now` the sweep uses, so no caller's earlier clock reading can let a token through whose
   * nonce the sweep has just forgotten.
   */
  remember(user: string, nonce: Uint8Array, createdAt: number, now: number): RememberOutcome {
    if (createdAt <= this.floorAt || now - createdAt > this.maxAgeMs) return 'expired';
    this.forgetExpired(now);
    const key = createHash('sha256').update(nonce).digest().toString('latin1');
    if (this.entries.has(key)) return 'replayed';
    let owner = this.owners.get(user);
    // A share of the whole cache means no per-user limit: the count bound alone applies.
    const limited = this.perUserCapacity < this.capacity;
    if (limited && owner !== undefined && owner.live >= this.perUserCapacity) return 'overShare';
    if (owner === undefined) this.owners.set(user, (owner = { user, live: 0 }));
    while (this.entries.size >= this.capacity) this.dropOldest();
    this.entries.set(key, { expiresAt: createdAt + this.maxAgeMs, owner });
    owner.live++;
    return 'fresh';
  }

  /**
   * Insertion order is close to expiry order (Created values differ by clock skew at most), so
   * the sweep stops at the first live entry: amortised O(1). A straggler that expired behind a
   * live one waits for the next sweep or the count bound; it never makes a replay pass.
   */
  private forgetExpired(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt >= now) return;
      this.forget(key, entry);
    }
  }

  private dropOldest(): void {
    const first = this.entries.entries().next();
    if (first.done === true) return;
    const [key, entry] = first.value;
    this.forget(key, entry);
    this.floorAt = Math.max(this.floorAt, entry.expiresAt - this.maxAgeMs);
    this.dropped++;
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (--entry.owner.live === 0) this.owners.delete(entry.owner.user);
  }
}
