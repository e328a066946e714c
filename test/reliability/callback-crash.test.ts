/**
 * The callback guarantee through the shipped CLI across kill -9: `smskit serve --routes` delivers
 * (simulator SMSC, receipts on) and sends callbacks while clients send; it is SIGKILLed at a seeded
 * moment, 10 times, restarted on the same database each time, and finally left to finish. Kills
 * land between a state change's commit and its callback, mid-callback and mid-settle alike; every
 * state change of every acknowledged message must reach the receiver at least once, in history
 * order per message (callback-harness.ts; the outage and PostgreSQL cases are files of their own).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../service/store/index.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { seededFloat } from '../helpers/seeded.js';
import { waitFor } from '../helpers/wait-for.js';
import { drained, expectAllArrived, load, SECRET, SEED, useCallbackHarness } from './callback-harness.js';

const RUNS = Number(process.env.CALLBACK_CRASH_RUNS ?? 10);
const { dir, setUpAccount, serve } = useCallbackHarness('callback-crash');

describe('callbacks across kill -9', () => {
  it(`${RUNS} kill -9 of serve while it delivers and calls back: every state change arrives, in order`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir, 'killed.db');
    await setUpAccount(db, receiver);
    const store = await openStore({ db });
    const random = seededFloat(SEED);
    const acknowledged = new Set<string>();
    try {
      for (let run = 0; run < RUNS; run++) {
        const server = await serve(db);
        const traffic = load(() => server, `run ${run}`);
        const killAfter = 10 + Math.floor(random() * 40);
        await waitFor(`${killAfter} acknowledged in run ${run}`, () => traffic.acknowledged.size >= killAfter);
        // A seeded pause so the kill lands at every stage: claims, submits, receipts, callbacks, settles.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 600)));
        await server.kill();
        await traffic.stop();
        for (const id of traffic.acknowledged) acknowledged.add(id);
      }
      const last = await serve(db);
      try {
        await drained(store, acknowledged.size);
      } finally {
        await last.stop();
      }
      await expectAllArrived(store, acknowledged, receiver, `${RUNS} kills`);
      expect(acknowledged.size).toBeGreaterThanOrEqual(RUNS * 10);
    } finally {
      await store.close();
      await receiver.close();
    }
  }, 600_000);
});
