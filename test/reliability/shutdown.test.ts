/**
 * Graceful shutdown through the real CLI: `smskit serve` under load over all four
 * bindings gets SIGTERM. It must exit 0; every acknowledged message is in the outbox exactly
 * once; a call that got no answer (connection refused or reset) was never accepted, i.e. its
 * message is not stored; nothing refused is stored.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CRASH_ACCOUNT, compareWithOutbox, prepareDb } from '../../tools/fuzz/crash.js';
import { count, startLoad } from '../../tools/fuzz/load.js';
import { startServe, tempDir } from '../../tools/serve-process.js';

const dir = tempDir('shutdown');
afterAll(() => dir.remove());

describe('SIGTERM under load', () => {
  it('exits 0, loses no acknowledged message, and resets no accepted request', async () => {
    const db = join(dir.path, 'shutdown.db');
    await prepareDb(db);
    const serve = await startServe({ db });
    const load = startLoad({
      url: serve.url,
      email: CRASH_ACCOUNT.email,
      password: CRASH_ACCOUNT.password,
      keyword: 'CRASH',
      concurrency: 24,
      tag: 'term',
      seed: 11,
      timeoutMs: 30_000,
    });
    let exit: Awaited<ReturnType<typeof serve.stop>>;
    try {
      // The signal comes in the middle of the work, at the same point however fast the machine is.
      await load.until('50 acknowledged', (outcomes) => count(outcomes, 'ack') >= 50);
      exit = await serve.stop('SIGTERM', 60_000);
    } finally {
      await load.stop();
      await serve.kill().catch(() => undefined);
    }
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/SIGTERM: finishing in-flight requests/);
    const report = await compareWithOutbox(db, load.outcomes, 1);
    console.log(
      `shutdown: ${report.acknowledged} acknowledged, ${report.stored} stored, ${report.refused} refused, ${report.unanswered} unanswered after SIGTERM (${report.storedUnacknowledged} of them stored)`,
    );
    expect(report.problems).toEqual([]);
    // An accepted request is answered: no call without an answer has its message stored.
    expect(report.storedUnacknowledged).toBe(0);
    const unanswered = load.outcomes.filter((o) => o.kind === 'transport');
    expect(unanswered.every((o) => o.value === 'REFUSED' || o.value === 'RESET')).toBe(true);
  }, 300_000);
});
