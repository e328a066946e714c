/** The retry policy as a table: backoff growth, its cap, the jitter's spread, the budget, validity. */
import { describe, expect, it } from 'vitest';
import { backoffMs, decideRetry, type RetryPolicy } from '../../../service/delivery/policy.js';

const policy: RetryPolicy = {
  maxAttempts: 4,
  initialBackoffMs: 1_000,
  maxBackoffMs: 5_000,
  jitter: 0.2,
  validityMs: 60_000,
};

describe('backoff', () => {
  it.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 5_000],
    [40, 5_000],
  ])('after attempt %i waits %i ms without jitter', (attempt, want) => {
    expect(backoffMs(policy, attempt, () => 0.5)).toBe(want);
  });

  it('jitter spreads each wait by at most ±jitter', () => {
    expect(backoffMs(policy, 2, () => 0)).toBe(1_600);
    expect(backoffMs(policy, 2, () => 0.999999)).toBe(2_400);
  });
});

describe('decideRetry', () => {
  it('retries at now + backoff while within budget and validity', () => {
    expect(decideRetry(policy, { createdAt: 0, attempt: 1 }, 10_000, () => 0.5)).toEqual({ next: 'retry', at: 11_000 });
  });
  it('fails once the budget is spent', () => {
    expect(decideRetry(policy, { createdAt: 0, attempt: 4 }, 10_000, () => 0.5)).toEqual({ next: 'failed' });
  });
  it('expires when the next attempt would fall past the validity period', () => {
    expect(decideRetry(policy, { createdAt: 0, attempt: 3 }, 56_500, () => 0.5)).toEqual({ next: 'expired' });
    expect(decideRetry(policy, { createdAt: 0, attempt: 3 }, 55_000, () => 0.5)).toEqual({ next: 'retry', at: 59_000 });
  });
});
