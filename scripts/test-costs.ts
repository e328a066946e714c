/**
 * Where a test run's time went: `npx tsx scripts/test-costs.ts <log> [--top 25]`, the log written
 * by a run with SMSKIT_TEST_COSTS=<log> (test/setup/file-costs.ts). One row per test file,
 * longest first: seconds of wall time, CPU-seconds (its worker's and the processes it started),
 * and the time it waited; then the totals. A run lasts about the files' wall time over the
 * workers; a file high on waiting leaves a core idle unless another file fills it.
 * Exit 1 when the log cannot be read, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { formatCosts, rankFiles } from '../tools/test-costs.js';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' } },
  allowPositionals: true,
});
const top = Number(values.top);
const log = positionals[0];
if (log === undefined || positionals.length > 1 || !Number.isInteger(top) || top < 1) {
  process.stderr.write('usage: npx tsx scripts/test-costs.ts <log written with SMSKIT_TEST_COSTS> [--top N]\n');
  process.exit(2);
}
try {
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stdout.write(`${formatCosts(rankFiles(readFileSync(log, 'utf8'), root), top)}\n`);
} catch (err) {
  process.stderr.write(`test-costs: ${log}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
