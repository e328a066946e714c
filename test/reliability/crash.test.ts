/**
 * Crash safety under load through the real CLI: `smskit serve` is SIGKILLed while clients send
 * over all four bindings, each time once a seeded number of messages (20-80) has been
 * acknowledged, restarted on the same database, and killed again. Then: every acknowledged message is stored exactly once (by `smskit outbox
 * --json` and by text), nothing refused is stored, nothing is stored that no client sent, and the
 * database passes `PRAGMA integrity_check`. `scripts/crash-loop.ts` runs many more rounds.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareWithOutbox, crashRound, formatCrashReport, prepareDb } from '../../tools/fuzz/crash.js';
import type { Outcome } from '../../tools/fuzz/load.js';
import { tempDir } from '../../tools/serve-process.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 4);
const SEED = Number(process.env.CRASH_SEED ?? 7331);
const dir = tempDir('crash');
afterAll(() => dir.remove());

describe('SIGKILL under load', () => {
  it(`${ROUNDS} kills at seeded points: acknowledged = stored exactly once, refused never stored, the database opens cleanly`, async () => {
    const db = join(dir.path, 'crash.db');
    await prepareDb(db);
    const outcomes: Outcome[] = [];
    for (let round = 0; round < ROUNDS; round++)
      outcomes.push(...(await crashRound(db, SEED, round, { minAcks: 20, maxAcks: 80, concurrency: 16 })));
    const report = await compareWithOutbox(db, outcomes, ROUNDS);
    console.log(formatCrashReport(report));
    expect(report.problems).toEqual([]);
    // Each round waited for its acknowledgements and a refusal before the kill: the checks above had work to check.
    expect(report.acknowledged).toBeGreaterThanOrEqual(ROUNDS * 20);
    expect(report.refused).toBeGreaterThanOrEqual(ROUNDS);
    expect(outcomes.filter((o) => o.kind === 'other')).toEqual([]);
  }, 600_000);
});
