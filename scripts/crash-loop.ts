/**
 * Many crash rounds outside CI: `npx tsx scripts/crash-loop.ts [--rounds 50] [--seed S]`.
 * `smskit serve` under load over all bindings, SIGKILLed once a seeded number of messages
 * (20-400) is acknowledged, and restarted on the same database; prints acknowledged vs stored
 * and every problem. Exit 0 when clean, 1 otherwise.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compareWithOutbox, crashRound, formatCrashReport, prepareDb } from '../tools/fuzz/crash.js';
import type { Outcome } from '../tools/fuzz/load.js';
import { tempDir } from '../tools/serve-process.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '50' },
    seed: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
  },
});
const rounds = Number(values.rounds);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const dir = tempDir('crash-loop');
let failed = true;
try {
  const db = join(dir.path, 'crash.db');
  await prepareDb(db);
  const outcomes: Outcome[] = [];
  for (let round = 0; round < rounds; round++) {
    const got = await crashRound(db, seed, round, {
      minAcks: 20,
      maxAcks: 400,
      concurrency: Number(values.concurrency),
    });
    outcomes.push(...got);
    process.stdout.write(
      `  round ${round + 1}/${rounds}: ${got.filter((o) => o.kind === 'ack').length} acknowledged\n`,
    );
  }
  const report = await compareWithOutbox(db, outcomes, rounds);
  process.stdout.write(`seed ${seed}: ${formatCrashReport(report)}\n`);
  for (const problem of report.problems.slice(0, 50)) process.stdout.write(`  - ${problem}\n`);
  failed = report.problems.length > 0;
} finally {
  dir.remove();
}
process.exit(failed ? 1 : 0);
