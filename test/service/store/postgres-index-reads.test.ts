/**
 * A claim and a batch of state changes on PostgreSQL read the index entries of the rows they
 * touch, not of every message delivered before them. A row that changes state leaves a dead
 * entry in the state indexes until a VACUUM (autovacuum looks once a minute), so a plan that
 * finds rows through `state = ...`, or a claim that reads the queue from its start, reads more
 * with every message delivered: thousands of entries per call after a few thousand messages.
 * Counted from pg_stat_user_indexes over the test's own connection (its statistics flushed on
 * demand), after 2,000 messages delivered with no VACUUM, and with the apply function's plans
 * made while the outbox held one message (as a service's first call makes them).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClaimRequest, DeliveryChange } from '../../../service/store/index.js';
import { applyChanges, claim } from '../../../service/store/postgres/delivery.js';
import { openPostgresStore } from '../../../service/store/postgres/store.js';
import { requirePeer } from '../../helpers/peers.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { message } from './contract.js';

const skip = requirePeer('postgres', 'service/store/postgres').reason;
let cluster: PostgresCluster | undefined;
afterAll(() => cluster?.stop());

/** Index entries read so far on the session's table indexes, by index (its pending counts flushed first). */
async function entriesRead(client: pg.Client): Promise<Map<string, number>> {
  await client.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await client.query<{ name: string; n: string }>(
    'SELECT indexrelname AS name, idx_tup_read AS n FROM pg_stat_user_indexes',
  );
  return new Map(rows.map((row) => [row.name, Number(row.n)]));
}

describe.skipIf(skip !== undefined)('postgres store: index entries read per call', () => {
  it('claims and records a batch reading the entries of its own messages, whatever was delivered before', async () => {
    cluster = await startTestCluster({ settings: { fsync: 'off', autovacuum: 'off' } });
    await cluster.createDatabase('reads');
    const url = cluster.socketUrl('reads');
    const store = await openPostgresStore({ url, poolSize: 2 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const now = Date.now();
      const request: ClaimRequest = {
        route: 'r',
        carriers: { except: [] },
        limit: 100,
        owner: 'w',
        now,
        leaseUntil: now + 60_000,
      };
      let peer = 0;
      /** Accepts `count` messages, then claims, accepts at the SMSC and delivers them, from `floor`. */
      const deliver = async (count: number, floor = ''): Promise<string[]> => {
        await Promise.all(Array.from({ length: count }, (_, i) => store.enqueue(message(`m${i}`))));
        const taken = await claim(client, { ...request, limit: count }, floor);
        const peers = taken.map(() => `P${peer++}`);
        const owned = (id: string) => ({ id, owner: 'w', at: now, attempt: 1, route: 'r' });
        const accepted: DeliveryChange[] = taken.map((m, i) => ({
          kind: 'accepted',
          ...owned(m.id),
          peerIds: [peers[i]!],
        }));
        expect((await applyChanges(client, accepted)).every(Boolean)).toBe(true);
        const receipts: DeliveryChange[] = peers.map((peerId) => ({
          kind: 'receipt',
          route: 'r',
          at: now,
          receipt: { peerId, state: 'delivered', code: 'DELIVRD', text: 'ok' },
        }));
        expect((await applyChanges(client, receipts)).every(Boolean)).toBe(true);
        return taken.map((m) => m.id);
      };
      await deliver(1);
      let last: string[] = [];
      for (let batch = 0; batch < 20; batch++) last = await deliver(100);

      const before = await entriesRead(client);
      const floor = last[0] ?? '';
      const measured = await deliver(20, floor);
      const after = await entriesRead(client);
      const read = (index: string) => (after.get(index) ?? 0) - (before.get(index) ?? 0);

      expect(measured).toHaveLength(20);
      expect(await store.countByState()).toEqual({ delivered: 2_021 });
      // 20 messages from a floor 100 below them: a few hundred entries, not the 2,000 messages
      // delivered before them (twice: their queued and their accepted entries).
      expect(read('outbox_state')).toBeLessThan(500);
      expect(read('outbox_queued')).toBeLessThan(500);
    } finally {
      await client.end();
      await store.close();
    }
  }, 120_000);
});
