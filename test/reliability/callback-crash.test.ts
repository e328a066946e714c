/**
 * The callback guarantee through the shipped CLI: every state change of every acknowledged message
 * reaches the account's receiver at least once, in history order per message, whatever happens
 * to the service or the receiver in between.
 *
 * - kill -9: `smskit serve --routes` delivers (simulator SMSC, receipts on) and sends callbacks
 *   while clients send; it is SIGKILLed at a seeded moment, 10 times, restarted on the same
 *   database each time, and finally left to finish. Kills land between a state change's commit
 *   and its callback, mid-callback and mid-settle alike.
 * - the receiver down for 60 s (its port refusing connections) while messages are delivered,
 *   then up: nothing lost, the backlog drains, nothing given up.
 * - two instances on one PostgreSQL sharing one queue, one killed under load and restarted.
 * Each ends by comparing the receiver's log with the outbox history (callback-check.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../service/store/index.js';
import { addAccount, runCliAsync, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';
import { startPostgresCluster } from '../helpers/postgres-cluster.js';
import { requirePeer } from '../helpers/peers.js';
import { seededFloat } from '../helpers/seeded.js';
import { waitFor } from '../helpers/wait-for.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { auditCallbacks } from './callback-check.js';
import { type CrashSmsc, startSimulatorSmsc } from './crash-smsc.js';

const RUNS = Number(process.env.CALLBACK_CRASH_RUNS ?? 10);
const OUTAGE_MS = Number(process.env.CALLBACK_OUTAGE_MS ?? 60_000);
const SEED = Number(process.env.CALLBACK_CRASH_SEED ?? 3939);
const ACCOUNT = { email: 'callbacks@example.com', keywords: ['STATUS'], password: 'callback-crash-password' };
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const postgres = requirePeer('postgres', 'reliability/callback-crash: two instances on PostgreSQL');
const dir = tempDir('callback-crash');
let smsc: CrashSmsc;
let routes: string;

beforeAll(async () => {
  smsc = await startSimulatorSmsc('cback');
  process.env[smsc.passwordEnv[0]] = smsc.passwordEnv[1];
  routes = join(dir.path, 'routes.yaml');
  const lines = ['routes:', '  sim:', ...smsc.routeLines, '    throughput: 400', 'default: sim'];
  writeFileSync(routes, [...lines, 'delivery:', '  lease: 2s', ''].join('\n'));
});

afterAll(async () => {
  await smsc?.close();
  dir.remove();
});

async function setUpAccount(db: string, receiver: CallbackReceiver): Promise<void> {
  await addAccount(db, ACCOUNT);
  const set = await runCliAsync([
    'account',
    'set',
    '--db',
    db,
    '--email',
    ACCOUNT.email,
    '--callback-url',
    receiver.url,
    '--allow-http-callback',
    '--callback-secret',
    SECRET,
  ]);
  expect(set.stderr).toBe('');
  expect(set.status).toBe(0);
}

function serve(db: string): Promise<ServeProcess> {
  return startServe({ db, args: ['--routes', routes, '--allow-private-callbacks'], startTimeoutMs: 60_000 });
}

/** Clients sending until `stop()` to whichever instance `target()` names; acknowledged ids kept. */
function load(target: () => ServeProcess | undefined, prefix: string) {
  const acknowledged = new Set<string>();
  let stopped = false;
  let n = 0;
  const send = async (): Promise<void> => {
    const server = target();
    if (server === undefined) return;
    const form = new URLSearchParams({
      keyword: 'STATUS',
      emailAddress: ACCOUNT.email,
      password: ACCOUNT.password,
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: `${prefix} ${n++}`,
    });
    try {
      const response = await fetch(`${server.url}/SMSSend`, { method: 'POST', body: form });
      const id = /(SMS-[0-9A-Z]{26})</.exec(await response.text())?.[1];
      if (response.status === 200 && id !== undefined) acknowledged.add(id);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5)); // killed mid-request: not acknowledged
    }
  };
  const clients = Array.from({ length: 6 }, async () => {
    while (!stopped) await send();
  });
  return {
    acknowledged,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Waits until every message is final and every callback sent (none pending, none dead). */
async function drained(store: Store, expected: number, timeoutMs = 180_000): Promise<void> {
  let seen = '';
  await waitFor(
    'every message delivered and every callback sent',
    async () => {
      const counts = await store.countByState();
      const stats = await store.callbacks.callbackStats();
      seen = JSON.stringify({ counts, stats });
      return (counts.delivered ?? 0) >= expected && stats.pending === 0 && stats.dead === 0;
    },
    { timeoutMs, pollMs: 250, state: () => seen },
  );
}

async function expectAllArrived(store: Store, ids: ReadonlySet<string>, receiver: CallbackReceiver, what: string) {
  const audit = await auditCallbacks(store, ids, receiver.received);
  expect(audit.unverified).toBe(0);
  expect(audit.missing).toEqual([]);
  expect(audit.wrongState).toEqual([]);
  expect(audit.outOfOrder).toEqual([]);
  // sending, accepted and delivered at the least for each message.
  expect(audit.changes).toBeGreaterThanOrEqual(ids.size * 3);
  console.log(
    `callbacks, ${what}: ${ids.size} acknowledged, ${audit.changes} state changes, ` +
      `${receiver.received.length} callbacks arrived (${audit.repeats} repeats), all in order`,
  );
}

describe('callbacks across failures', () => {
  it(`${RUNS} kill -9 of serve while it delivers and calls back: every state change arrives, in order`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir.path, 'killed.db');
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

  it(`the receiver down for ${OUTAGE_MS / 1000} s, then up: nothing lost, the backlog drains`, async () => {
    const receiver = await startCallbackReceiver(SECRET);
    const db = join(dir.path, 'outage.db');
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

  it.skipIf(postgres.skip)(
    'two instances on one PostgreSQL, one killed under load and restarted: every state change arrives, in order',
    async () => {
      const cluster = await startPostgresCluster({ settings: { fsync: 'off' } });
      process.env.PGPASSWORD = cluster.password;
      cluster.createDatabase('callbacks');
      const db = cluster.tcpUrl('callbacks');
      const receiver = await startCallbackReceiver(SECRET);
      await setUpAccount(db, receiver);
      const store = await openStore({ db: cluster.socketUrl('callbacks'), poolSize: 2 });
      const instances: Array<ServeProcess | undefined> = [await serve(db), await serve(db)];
      const random = seededFloat(SEED + 1);
      let next = 0;
      const target = () =>
        instances.filter((i) => i !== undefined)[next++ % 2] ?? instances.find((i) => i !== undefined);
      const acknowledged = new Set<string>();
      try {
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
          instances[victim] = await serve(db);
        }
        await drained(store, acknowledged.size);
        await expectAllArrived(store, acknowledged, receiver, 'two PostgreSQL instances, one killed 3 times');
      } finally {
        await Promise.all(instances.map((i) => i?.stop()));
        await store.close();
        await receiver.close();
        cluster.stop();
        delete process.env.PGPASSWORD;
      }
    },
    600_000,
  );
});
