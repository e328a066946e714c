/**
 * Failed-attempt limiting: a sliding-window log per key (account or remote address), in memory.
 * A key is blocked while it has `maxFailures` failures within the last `windowMs`. Memory is
 * bounded: at most `limit.maxFailures` timestamps per key and `maxKeys` keys (the least recently
 * touched key is dropped first).
 */
export interface FailureLimit {
  readonly maxFailures: number;
  readonly windowMs: number;
}

export interface FailureLimiter {
  isBlocked(key: string): boolean;
  recordFailure(key: string): void;
  reset(key: string): void;
  /** Forgets the key's failures at or before `ms` (an administrator lifted the lockout then). */
  forgetBefore(key: string, ms: number): void;
  /** While blocked: when the key's oldest counted failure leaves the window (ms), else undefined. */
  blockedUntil(key: string): number | undefined;
}

export function createFailureLimiter(limit: FailureLimit, clock: () => number, maxKeys = 100_000): FailureLimiter {
  const failures = new Map<string, number[]>();

  function recent(key: string): number[] {
    const times = failures.get(key);
    if (times === undefined) return [];
    const since = clock() - limit.windowMs;
    while (times.length > 0 && (times[0] ?? 0) <= since) times.shift();
    if (times.length === 0) failures.delete(key);
    return times;
  }

  return {
    isBlocked: (key) => limit.maxFailures > 0 && recent(key).length >= limit.maxFailures,
    recordFailure(key) {
      if (limit.maxFailures <= 0) return; // limiting switched off
      const times = recent(key);
      times.push(clock());
      if (times.length > limit.maxFailures) times.shift();
      failures.delete(key); // re-insert: Map order is then least recently touched first
      failures.set(key, times);
      if (failures.size > maxKeys) {
        const oldest = failures.keys().next();
        if (oldest.done !== true) failures.delete(oldest.value);
      }
    },
    reset(key) {
      failures.delete(key);
    },
    forgetBefore(key, ms) {
      const times = failures.get(key);
      if (times === undefined) return;
      while (times.length > 0 && (times[0] ?? 0) <= ms) times.shift();
      if (times.length === 0) failures.delete(key);
    },
    blockedUntil(key) {
      const times = recent(key);
      if (limit.maxFailures <= 0 || times.length < limit.maxFailures) return undefined;
      return (times[0] ?? 0) + limit.windowMs;
    },
  };
}
