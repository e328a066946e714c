/**
 * The long fuzz run, outside CI: `npx tsx scripts/fuzz-long.ts [--count N] [--seed S] [--only I]`.
 * Same cases and checks as test/reliability/fuzz.test.ts; prints progress, a summary and every
 * failure (with the seed and the redacted request). Exit 0 when clean, 1 on failures.
 */
import { parseArgs } from 'node:util';
import { startFuzzServer } from '../tools/fuzz/child.js';
import { formatFailures, formatSummary, runFuzz } from '../tools/fuzz/run.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    seed: { type: 'string' },
    only: { type: 'string' },
    concurrency: { type: 'string', default: '8' },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const count = Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
  process.stderr.write('fuzz-long: --seed and --count must be integers\n');
  process.exit(2);
}
const server = await startFuzzServer();
let failed = true;
try {
  const report = await runFuzz(server, {
    seed,
    count,
    concurrency: Number(values.concurrency),
    ...(values.only === undefined ? {} : { only: Number(values.only) }),
    onProgress: (done, r) => process.stdout.write(`  ${done}/${count} sent, ${r.failures.length} failures\n`),
  });
  process.stdout.write(`${formatSummary(report)}\n`);
  const growth = report.heapFinal - report.heapBaseline;
  if (growth > 64 * 1048576)
    report.failures.push({
      index: -1,
      problems: [`heap grew by ${(growth / 1048576).toFixed(1)} MiB after GC`],
      request: '(memory)',
    });
  if (report.failures.length > 0) process.stdout.write(`${formatFailures(report)}\n`);
  failed = report.failures.length > 0;
} finally {
  await server.close();
}
process.exit(failed ? 1 : 0);
