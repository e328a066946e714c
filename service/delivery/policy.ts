/**
 * When to try a message again, and when to stop trying: exponential backoff with jitter, a retry
 * budget, and a validity period after which a message is `expired` rather than retried forever.
 */
export interface RetryPolicy {
  /** Attempts before a message that keeps failing transiently becomes `failed`. */
  readonly maxAttempts: number;
  /** The wait after the first failed attempt (ms); doubled per attempt. */
  readonly initialBackoffMs: number;
  /** The longest wait between attempts (ms). */
  readonly maxBackoffMs: number;
  /** Each wait is spread by ±jitter (0-1) at random, so a burst of failures does not retry in lockstep. */
  readonly jitter: number;
  /** How long after acceptance a message may still be sent (ms). */
  readonly validityMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  initialBackoffMs: 5_000,
  maxBackoffMs: 10 * 60_000,
  jitter: 0.2,
  validityMs: 48 * 3_600_000,
};

/** The wait before attempt `attempt + 1`, after `attempt` attempts failed. */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 30));
  const base = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** exponent);
  const spread = 1 + policy.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base * spread));
}

/** What a transient failure of attempt `attempt` leads to. */
export type RetryDecision =
  | { readonly next: 'retry'; readonly at: number }
  | { readonly next: 'failed' }
  | { readonly next: 'expired' };

export function decideRetry(
  policy: RetryPolicy,
  message: { readonly createdAt: number; readonly attempt: number },
  now: number,
  random: () => number,
): RetryDecision {
  if (message.attempt >= policy.maxAttempts) return { next: 'failed' };
  const at = now + backoffMs(policy, message.attempt, random);
  if (at > message.createdAt + policy.validityMs) return { next: 'expired' };
  return { next: 'retry', at };
}
