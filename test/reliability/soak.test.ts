/**
 * The short CI soak: `smskit serve` at a steady rate over all four bindings for
 * SOAK_SECONDS (default 12). Zero errors; RSS flat (the last third's mean within a bound of the
 * mean after warm-up). `scripts/soak.ts` runs the same for minutes.
 */
import { describe, expect, it } from 'vitest';
import { formatSoak, soak } from './helpers/fuzz/soak.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 12);
const RATE = Number(process.env.SOAK_RATE ?? 150);

describe('soak', () => {
  it(`${SECONDS} s at ${RATE} calls/s over all bindings: zero errors, RSS flat`, async () => {
    const report = await soak({ seconds: SECONDS, rate: RATE, concurrency: 16 });
    console.log(formatSoak(report));
    expect(report.errorSamples).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.throughput).toBeGreaterThan(RATE * 0.5);
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const third = Math.max(1, Math.floor(report.rss.length / 3));
    const warm = mean(report.rss.slice(1, 1 + third));
    const last = mean(report.rss.slice(-third));
    expect(last - warm).toBeLessThan(40 * 1024 * 1024);
  }, 90_000);
});
