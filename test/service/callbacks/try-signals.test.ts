/**
 * Each try's signal: aborted at its timeout (and said to have timed out), or by a stop (every
 * live try, and any begun after it), never after the try ended.
 */
import { describe, expect, it } from 'vitest';
import { createTrySignals } from '../../../service/callbacks/try-signals.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('try signals', () => {
  it('aborts a try at its timeout, as a timeout', async () => {
    const tries = createTrySignals();
    const attempt = tries.begin(20);
    expect(attempt.signal.aborted).toBe(false);
    await pause(60);
    expect(attempt.signal.aborted).toBe(true);
    expect(attempt.timedOut()).toBe(true);
    expect((attempt.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(tries.stopped).toBe(false);
  });

  it('a stop aborts every live try and every later one, not as a timeout', () => {
    const tries = createTrySignals();
    const a = tries.begin(10_000);
    const b = tries.begin(10_000);
    tries.stopAll();
    expect([a.signal.aborted, b.signal.aborted]).toEqual([true, true]);
    expect(a.timedOut()).toBe(false);
    expect(tries.stopped).toBe(true);
    const late = tries.begin(10_000);
    expect(late.signal.aborted).toBe(true);
    for (const t of [a, b, late]) t.end();
  });

  it('an ended try is left alone by its timer and by a stop', async () => {
    const tries = createTrySignals();
    const attempt = tries.begin(20);
    attempt.end();
    await pause(60);
    tries.stopAll();
    expect(attempt.signal.aborted).toBe(false);
  });
});
