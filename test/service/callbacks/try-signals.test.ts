/**
 * Each try's abort: called at its timeout (and said to have timed out), or by a stop (every
 * live try, and any begun after it), once at most, never after the try ended.
 */
import { describe, expect, it } from 'vitest';
import { createTrySignals } from '../../../service/callbacks/try-signals.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A try's abort that records the reasons it was called with. */
function recorder(): { reasons: Error[]; abort: (reason: Error) => void } {
  const reasons: Error[] = [];
  return { reasons, abort: (reason) => reasons.push(reason) };
}

describe('try signals', () => {
  it('aborts a try at its timeout, as a timeout, once', async () => {
    const tries = createTrySignals();
    const calls = recorder();
    const attempt = tries.begin(20, calls.abort);
    expect(calls.reasons).toEqual([]);
    await pause(60);
    tries.stopAll();
    expect(calls.reasons.map((r) => r.name)).toEqual(['TimeoutError']);
    expect(attempt.timedOut()).toBe(true);
  });

  it('a stop aborts every live try and every later one, not as a timeout', () => {
    const tries = createTrySignals();
    const [a, b, late] = [recorder(), recorder(), recorder()];
    const first = tries.begin(10_000, a.abort);
    const second = tries.begin(10_000, b.abort);
    tries.stopAll();
    expect([a.reasons.map((r) => r.name), b.reasons.map((r) => r.name)]).toEqual([['AbortError'], ['AbortError']]);
    expect(first.timedOut()).toBe(false);
    expect(tries.stopped).toBe(true);
    const third = tries.begin(10_000, late.abort);
    expect(late.reasons.map((r) => r.name)).toEqual(['AbortError']);
    for (const t of [first, second, third]) t.end();
  });

  it('an ended try is left alone by its timer and by a stop', async () => {
    const tries = createTrySignals();
    const calls = recorder();
    const attempt = tries.begin(20, calls.abort);
    attempt.end();
    await pause(60);
    tries.stopAll();
    expect(calls.reasons).toEqual([]);
    expect(attempt.timedOut()).toBe(false);
  });
});
