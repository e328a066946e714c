/**
 * The callback guarantee through the shipped CLI across a receiver outage: its port refuses
 * connections for 60 s while messages are delivered, then it is back; nothing is lost or given
 * up, and the backlog drains at once (the first try it takes brings the rest forward).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../service/store/index.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { waitFor } from '../helpers/wait-for.js';
import { drained, expectAllArrived, load, SECRET, useCallbackHarness } from './callback-harness.js';

const OUTAGE_MS = Number(process.env.CALLBACK_OUTAGE_MS ?? 60_000);
const { dir, setUpAccount, serve } = useCallbackHarness('callback-outage');

describe('callbacks across a receiver outage', () => {
  it(`the receiver down for ${OUTAGE_MS / 1000} s, then up: nothing lost, the backlog drains`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir, 'outage.db');
    await setUpAccount(db, receiver);
    const store = await openStore({ db });
    const server = await serve(db);
    try {
      await receiver.down();
      const downAt = performance.now();
      const traffic = load(() => server, 'outage');
      await waitFor('200 acknowledged', () => traffic.acknowledged.size >= 200);
      await traffic.stop();
      await waitFor(
        'all delivered',
        async () => ((await store.countByState()).delivered ?? 0) >= traffic.acknowledged.size,
      );
      const pending = (await store.callbacks.callbackStats()).pending;
      expect(pending).toBeGreaterThanOrEqual(traffic.acknowledged.size * 3);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (performance.now() - downAt))));
      expect(receiver.received).toEqual([]);
      await receiver.up();
      const upAt = performance.now();
      await drained(store, traffic.acknowledged.size);
      // The first try the receiver takes brings the rest forward: no waiting out backoffs of up to a minute.
      expect(performance.now() - upAt).toBeLessThan(30_000);
      await expectAllArrived(store, traffic.acknowledged, receiver, `receiver down ${OUTAGE_MS / 1000} s`);
    } finally {
      await server.stop();
      await store.close();
      await receiver.close();
    }
  }, 600_000);
});
