/**
 * The callback guarantee through the shipped CLI, three ways, each with an SMSC simulator and a
 * receiver of its own, side by side in one file (concurrent suites): most of their time is spent
 * waiting (a 60 s outage, restarts, drains), so together they hold a test worker for about as long
 * as the longest of them instead of for the three in turn.
 *   - kill -9: `smskit serve --routes` delivers (receipts on) and sends callbacks while clients
 *     send; it is SIGKILLed at a seeded moment (CALLBACK_CRASH_RUNS times, 10 by default),
 *     restarted on the same database each time, then left to finish. Kills land between a state
 *     change's commit and its callback, mid-callback and mid-settle alike.
 *   - an outage: the receiver's port refuses connections (CALLBACK_OUTAGE_MS, 60 s by default)
 *     while messages are delivered, then it is back; nothing is given up, and the backlog drains
 *     at once (the first try it takes brings the rest forward).
 *   - PostgreSQL: two instances share one queue, one killed under load and restarted, 3 times.
 * Each time every state change of every acknowledged message must reach the receiver at least
 * once, in history order per message (callback-harness.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../service/store/index.js';
import type { ServeProcess } from '../../tools/serve-process.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { requirePeer } from '../helpers/peers.js';
import { startTestCluster } from '../helpers/postgres-test-cluster.js';
import { seededFloat } from '../helpers/seeded.js';
import { waitFor } from '../helpers/wait-for.js';
import { drained, expectAllArrived, load, SECRET, SEED, useCallbackHarness } from './callback-harness.js';

const RUNS = Number(process.env.CALLBACK_CRASH_RUNS ?? 10);
const OUTAGE_MS = Number(process.env.CALLBACK_OUTAGE_MS ?? 60_000);
const postgres = requirePeer('postgres', 'reliability/callback-guarantee: two instances on PostgreSQL');

describe.concurrent('callbacks across kill -9', () => {
  const { dir, setUpAccount, serve } = useCallbackHarness('callback-kills');

  it(`${RUNS} kill -9 of serve while it delivers and calls back: every state change arrives, in order`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir, 'killed.db');
    const random = seededFloat(SEED);
    const acknowledged = new Set<string>();
    let store: Store | undefined;
    try {
      await setUpAccount(db, receiver);
      store = await openStore({ db });
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
      await store?.close();
      await receiver.close();
    }
  }, 600_000);
});

describe.concurrent('callbacks across a receiver outage', () => {
  const { dir, setUpAccount, serve } = useCallbackHarness('callback-outage');

  it(`the receiver down for ${OUTAGE_MS / 1000} s, then up: nothing lost, the backlog drains`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir, 'outage.db');
    let store: Store | undefined;
    let server: ServeProcess | undefined;
    try {
      await setUpAccount(db, receiver);
      store = await openStore({ db });
      server = await serve(db);
      await receiver.down();
      const downAt = performance.now();
      const serving = server;
      const traffic = load(() => serving, 'outage');
      await waitFor('200 acknowledged', () => traffic.acknowledged.size >= 200);
      await traffic.stop();
      const outbox = store;
      await waitFor(
        'all delivered',
        async () => ((await outbox.countByState()).delivered ?? 0) >= traffic.acknowledged.size,
      );
      const pending = (await store.callbacks.callbackStats()).pending;
      expect(pending).toBeGreaterThanOrEqual(traffic.acknowledged.size * 3);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (performance.now() - downAt))));
      expect(receiver.received).toEqual([]);
      await receiver.up();
      const upAt = performance.now();
      await drained(store, traffic.acknowledged.size);
      // Timed loosely: the sender's thread runs at nice 19 beside the suite's other workers, which
      // decide its pace (a quiet CI run once took 32 s here). That the first try the receiver takes
      // brings the rest forward, not each event's backoff, is timed where the test owns the clock
      // (test/service/callbacks/sender.test.ts, "sends an account's backlog as soon as …").
      expect(performance.now() - upAt).toBeLessThan(60_000);
      await expectAllArrived(store, traffic.acknowledged, receiver, `receiver down ${OUTAGE_MS / 1000} s`);
    } finally {
      await server?.stop();
      await store?.close();
      await receiver.close();
    }
  }, 600_000);
});

describe.concurrent('callbacks across kill -9 on PostgreSQL', () => {
  const { setUpAccount, serve } = useCallbackHarness('callback-postgres');

  it.skipIf(postgres.skip)(
    'two instances on one PostgreSQL, one killed under load and restarted: every state change arrives, in order',
    async () => {
      const cluster = await startTestCluster({ settings: { fsync: 'off' } });
      // For this case's processes only: the cases beside it share this process's environment.
      const password = { PGPASSWORD: cluster.password };
      const db = cluster.tcpUrl('callbacks');
      const instances: Array<ServeProcess | undefined> = [];
      const random = seededFloat(SEED + 1);
      let next = 0;
      const target = () =>
        instances.filter((i) => i !== undefined)[next++ % 2] ?? instances.find((i) => i !== undefined);
      const acknowledged = new Set<string>();
      let receiver: CallbackReceiver | undefined;
      let store: Store | undefined;
      try {
        await cluster.createDatabase('callbacks');
        receiver = await startCallbackReceiver(SECRET);
        await setUpAccount(db, receiver, password);
        store = await openStore({ db: cluster.socketUrl('callbacks'), poolSize: 2 });
        instances.push(await serve(db, password), await serve(db, password));
        for (let run = 0; run < 3; run++) {
          const traffic = load(target, `pg run ${run}`);
          const victim = run % 2;
          await waitFor(`40 acknowledged in run ${run}`, () => traffic.acknowledged.size >= 40, { timeoutMs: 60_000 });
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 600)));
          const dead = instances[victim];
          instances[victim] = undefined;
          await dead?.kill();
          const more = traffic.acknowledged.size + 20;
          await waitFor(`the other serving in run ${run}`, () => traffic.acknowledged.size >= more, {
            timeoutMs: 60_000,
          });
          await traffic.stop();
          for (const id of traffic.acknowledged) acknowledged.add(id);
          instances[victim] = await serve(db, password);
        }
        await drained(store, acknowledged.size);
        await expectAllArrived(store, acknowledged, receiver, 'two PostgreSQL instances, one killed 3 times');
      } finally {
        await Promise.all(instances.map((i) => i?.stop()));
        await store?.close();
        await receiver?.close();
        cluster.stop();
      }
    },
    600_000,
  );
});
