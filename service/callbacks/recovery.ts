/**
 * When an account's receiver is back after an outage. While it was down its events were spaced
 * out by backoff (up to 10 minutes apart); once it answers again they should go at once, not
 * trickle out over the next minutes. A receiver counts as having been down after `threshold`
 * failed tries in a row; its next success says "back". One event the receiver keeps refusing
 * among others it takes is not an outage (the successes in between reset the count), and
 * `cooldownMs` bounds how often one account's backlog is brought forward, so an event that
 * always fails keeps close to its own backoff and budget.
 */
export interface RecoveryWatchOptions {
  /** Failed tries in a row before a receiver counts as down (default 3). */
  readonly threshold?: number;
  /** Least time between two bring-forwards of one account (ms, default 60 s). */
  readonly cooldownMs?: number;
  /** Accounts tracked at once; beyond it the ones with no failure left are forgotten (default 10,000). */
  readonly limit?: number;
  readonly clock: () => number;
}

export interface RecoveryWatch {
  failed(account: string): void;
  /** True when this success ends an outage: the caller brings the account's waiting events forward. */
  succeeded(account: string): boolean;
}

interface AccountTrack {
  failures: number;
  hastenedAt: number;
}

export function createRecoveryWatch(options: RecoveryWatchOptions): RecoveryWatch {
  const threshold = options.threshold ?? 3;
  const cooldownMs = options.cooldownMs ?? 60_000;
  const limit = options.limit ?? 10_000;
  const tracks = new Map<string, AccountTrack>();

  const forgetRecovered = (): void => {
    for (const [account, track] of tracks) if (track.failures === 0) tracks.delete(account);
  };

  return {
    failed(account) {
      let track = tracks.get(account);
      if (track === undefined) {
        if (tracks.size >= limit) forgetRecovered();
        // Still full of failing receivers: this one just waits out its backoff.
        if (tracks.size >= limit) return;
        track = { failures: 0, hastenedAt: Number.NEGATIVE_INFINITY };
        tracks.set(account, track);
      }
      track.failures++;
    },
    succeeded(account) {
      const track = tracks.get(account);
      if (track === undefined) return false;
      const wasDown = track.failures >= threshold;
      track.failures = 0;
      if (!wasDown) return false;
      const now = options.clock();
      if (now - track.hastenedAt < cooldownMs) return false;
      track.hastenedAt = now;
      return true;
    },
  };
}
