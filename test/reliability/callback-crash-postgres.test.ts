/**
 * The callback guarantee through the shipped CLI with two `smskit serve` instances on one
 * PostgreSQL sharing one queue, one killed under load and restarted, three times: every state
 * change of every acknowledged message arrives, in order per message.
 */
import { describe, it } from 'vitest';
import { openStore } from '../../service/store/index.js';
import type { ServeProcess } from '../../tools/serve-process.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { requirePeer } from '../helpers/peers.js';
import { startPostgresCluster } from '../helpers/postgres-cluster.js';
import { seededFloat } from '../helpers/seeded.js';
import { waitFor } from '../helpers/wait-for.js';
import { drained, expectAllArrived, load, SECRET, SEED, useCallbackHarness } from './callback-harness.js';

const postgres = requirePeer('postgres', 'reliability/callback-crash-postgres: two instances on PostgreSQL');
const { setUpAccount, serve } = useCallbackHarness('callback-crash-postgres');

describe('callbacks across kill -9 on PostgreSQL', () => {
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
