/**
 * A soak run against `smskit serve` (shared by test/reliability/soak.test.ts and scripts/soak.ts):
 * `calls` calls over all four bindings at a steady rate (at most `rate` per second), sampling the
 * server's RSS after every `rate` calls (a second's worth at that rate). The samples follow the
 * work, not the clock, so a slower machine takes longer but sees the same series.
 */
import { join } from 'node:path';
import { addAccount, startServe, tempDir } from '../serve-process.js';
import { percentile, rssOf, startLoad } from './load.js';

export interface SoakReport {
  readonly seconds: number;
  readonly calls: number;
  readonly acknowledged: number;
  /** Refusals the load meant to cause (bad recipients). */
  readonly refused: number;
  /** Anything else: unexpected faults, transport failures. Must be 0. */
  readonly errors: number;
  readonly errorSamples: string[];
  readonly throughput: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  /** RSS samples (bytes), one after every `rate` calls. */
  readonly rss: number[];
}

export interface SoakOptions {
  readonly calls: number;
  /** Calls per second at most. */
  readonly rate: number;
  readonly concurrency: number;
  readonly onSample?: (sample: number, rss: number, calls: number) => void;
}

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const dir = tempDir('soak');
  const account = { email: 'soak@example.com', keywords: ['SOAK'], password: 'Heron-Basalt-2718-pw' };
  try {
    const db = join(dir.path, 'soak.db');
    await addAccount(db, account);
    const serve = await startServe({ db });
    const rss: number[] = [];
    const load = startLoad({
      url: serve.url,
      email: account.email,
      password: account.password,
      keyword: 'SOAK',
      concurrency: options.concurrency,
      ratePerSecond: options.rate,
      tag: 'soak',
      seed: 3,
      limit: options.calls,
      timeoutMs: 30_000,
    });
    const t0 = performance.now();
    try {
      const samples = Math.ceil(options.calls / options.rate);
      for (let sample = 1; sample <= samples; sample++) {
        const done = Math.min(options.calls, sample * options.rate);
        await load.until(`${done} calls answered`, (outcomes) => outcomes.length >= done);
        const bytes = (await rssOf(serve.pid)) ?? 0;
        rss.push(bytes);
        options.onSample?.(sample, bytes, load.outcomes.length);
      }
    } finally {
      await load.stop();
      await serve.stop('SIGTERM', 15_000).catch(() => serve.kill());
    }
    const elapsed = (performance.now() - t0) / 1000;
    const outcomes = load.outcomes;
    const bad = outcomes.filter(
      (o) => !(o.kind === 'ack' && !o.refusal) && !(o.kind === 'fault' && o.refusal && o.value === 'InvalidRecipient'),
    );
    const latencies = outcomes.map((o) => o.ms);
    return {
      seconds: elapsed,
      calls: outcomes.length,
      acknowledged: outcomes.filter((o) => o.kind === 'ack').length,
      refused: outcomes.filter((o) => o.kind === 'fault' && o.refusal).length,
      errors: bad.length,
      errorSamples: bad.slice(0, 10).map((o) => `${o.binding} ${o.kind} ${o.value}`),
      throughput: outcomes.length / elapsed,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      rss,
    };
  } finally {
    dir.remove();
  }
}

export function formatSoak(r: SoakReport): string {
  const mb = (b: number): string => (b / 1048576).toFixed(0);
  return (
    `soak: ${r.calls} calls in ${r.seconds.toFixed(1)} s (${r.throughput.toFixed(0)}/s; ${r.acknowledged} acknowledged, ${r.refused} refused on purpose), errors ${r.errors}, ` +
    `latency p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, RSS MiB ${r.rss.map(mb).join(' ')}`
  );
}
