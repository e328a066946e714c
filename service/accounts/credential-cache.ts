/**
 * Remembering successful password verifications, and sharing verifications in progress.
 *
 * scrypt costs tens of milliseconds of CPU, far above the per-message budget, so a success is
 * remembered for a while. The key is HMAC-SHA256 under a random per-process secret of
 * (address, password): the password itself is never kept. The value is the password hash it was
 * verified against, so a changed password misses. Only successes are stored, so the cache can
 * tell nothing about accounts that do not exist or passwords that are wrong.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { verifyPassword } from './passwords.js';

export interface VerifiedCache {
  key(email: string, password: string): string;
  hit(key: string, passwordHash: string): boolean;
  remember(key: string, passwordHash: string): void;
}

export function createVerifiedCache(ttlMs: number, maxEntries: number, clock: () => number): VerifiedCache {
  const secret = randomBytes(32);
  const entries = new Map<string, { passwordHash: string; expires: number }>();
  return {
    key: (email, password) =>
      createHmac('sha256', secret).update(`${email.length}:${email}`).update(password).digest('base64'),
    hit(key, passwordHash) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      if (entry.expires <= clock() || entry.passwordHash !== passwordHash) {
        entries.delete(key);
        return false;
      }
      return true;
    },
    remember(key, passwordHash) {
      if (ttlMs <= 0) return;
      entries.delete(key); // re-insert: Map order is then least recently remembered first
      entries.set(key, { passwordHash, expires: clock() + ttlMs });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
    },
  };
}

/**
 * `verifyPassword` where concurrent calls for the same (cache key, hash) share one scrypt run:
 * a client's first burst would otherwise cost one run per request. The caller still counts
 * every failure.
 */
export function createSharedVerifier(): (cacheKey: string, password: string, passwordHash: string) => Promise<boolean> {
  const inFlight = new Map<string, Promise<boolean>>();
  return (cacheKey, password, passwordHash) => {
    const flightKey = `${cacheKey} ${passwordHash}`;
    let verification = inFlight.get(flightKey);
    if (verification === undefined) {
      verification = verifyPassword(password, passwordHash).finally(() => inFlight.delete(flightKey));
      inFlight.set(flightKey, verification);
    }
    return verification;
  };
}
