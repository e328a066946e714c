/**
 * The soak run outside CI: `npx tsx scripts/soak.ts [--seconds 300] [--rate 200] [--concurrency 32]`.
 * Drives `smskit serve` at a steady rate over all four bindings; prints RSS every 10 s, then
 * throughput, latency percentiles, errors (must be 0) and the RSS series. Exit 1 on any error.
 */
import { parseArgs } from 'node:util';
import { formatSoak, soak } from '../test/helpers/fuzz/soak.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    rate: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '32' },
  },
});
const report = await soak({
  seconds: Number(values.seconds),
  rate: Number(values.rate),
  concurrency: Number(values.concurrency),
  onSample: (second, rss, calls) => {
    if (second % 10 === 0)
      process.stdout.write(`  ${second} s: ${calls} calls, RSS ${(rss / 1048576).toFixed(0)} MiB\n`);
  },
});
process.stdout.write(`${formatSoak(report)}\n`);
for (const sample of report.errorSamples) process.stdout.write(`  error: ${sample}\n`);
process.exit(report.errors === 0 ? 0 : 1);
