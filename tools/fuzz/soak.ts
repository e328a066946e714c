/**
 * A soak run against `smskit serve` (shared by test/reliability-soak.test.ts and scripts/soak.ts):
 * a steady rate over all four bindings for `seconds`, sampling the server's RSS every second.
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
  /** RSS samples (bytes), one per second. */
  readonly rss: number[];
}

export async function soak(options: {
  seconds: number;
  rate: number;
  concurrency: number;
  onSample?: (second: number, rss: number, calls: number) => void;
}): Promise<SoakReport> {
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
    });
    const t0 = performance.now();
    try {
      for (let second = 1; second <= options.seconds; second++) {
        await new Promise((resolve) => setTimeout(resolve, t0 + second * 1000 - performance.now()));
        const sample = (await rssOf(serve.pid)) ?? 0;
        rss.push(sample);
        options.onSample?.(second, sample, load.outcomes.length);
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
