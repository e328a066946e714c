/**
 * The soak run outside CI: `npx tsx scripts/soak.ts [--seconds 300] [--rate 200] [--concurrency 32]`.
 * Drives `smskit serve` with `seconds × rate` calls at a steady rate over all four bindings (a
 * slower machine takes longer); prints RSS every 10 samples (a sample after every `rate` calls),
 * then throughput, latency percentiles, errors (must be 0) and the RSS series. Exit 1 on any error.
 */
import { parseArgs } from 'node:util';
import { formatSoak, soak } from '../tools/fuzz/soak.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    rate: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '32' },
  },
});
const rate = Number(values.rate);
const report = await soak({
  calls: Number(values.seconds) * rate,
  rate,
  concurrency: Number(values.concurrency),
  onSample: (sample, rss, calls) => {
    if (sample % 10 === 0) process.stdout.write(`  ${calls} calls: RSS ${(rss / 1048576).toFixed(0)} MiB\n`);
  },
});
process.stdout.write(`${formatSoak(report)}\n`);
for (const sample of report.errorSamples) process.stdout.write(`  error: ${sample}\n`);
process.exit(report.errors === 0 ? 0 : 1);
