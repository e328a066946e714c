/**
 * The short CI soak: SOAK_CALLS calls (default 1,800: 6 s at the default rate) to `smskit serve`
 * at a steady rate of at most SOAK_RATE per second over all four bindings. Zero errors; RSS flat
 * (the last third's mean within a bound of the mean after warm-up, sampled by calls done, so a
 * slow machine only takes longer). `scripts/soak.ts` runs the same for minutes.
 */
import { describe, expect, it } from 'vitest';
import { formatSoak, soak } from '../../tools/fuzz/soak.js';

const CALLS = Number(process.env.SOAK_CALLS ?? 1_800);
const RATE = Number(process.env.SOAK_RATE ?? 300);

describe('soak', () => {
  it(`${CALLS} calls at up to ${RATE}/s over all bindings: zero errors, RSS flat`, async () => {
    const report = await soak({ calls: CALLS, rate: RATE, concurrency: 16 });
    console.log(formatSoak(report));
    expect(report.errorSamples).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.calls).toBe(CALLS);
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const third = Math.max(1, Math.floor(report.rss.length / 3));
    const warm = mean(report.rss.slice(1, 1 + third));
    const last = mean(report.rss.slice(-third));
    expect(last - warm).toBeLessThan(40 * 1024 * 1024);
  }, 600_000);
});
