/**
 * A claim and a batch of state changes on PostgreSQL read the index entries of the rows they
 * touch, not of every message delivered before them. A row that changes state leaves a dead
 * entry in the state indexes until a VACUUM, so a plan that finds rows through `state = ...`, or
 * a claim that reads the queue from its start, reads more with every message delivered:
 * thousands per call after a few thousand messages. A scan marks the dead entries it passes so
 * that later scans skip them, but not while a transaction that could still see them is open, as
 * under load one nearly always is: here a REPEATABLE READ transaction stays open on a third
 * connection throughout. Counted from pg_stat_user_indexes over the test's own connection (its
 * statistics flushed on demand), after 2,000 messages delivered with autovacuum off, and with the
 * apply function's plans made while the outbox held one message (as a service's first call
 * makes them). And the store's claim floor (service/store/postgres/claim-floor.ts) lets no
 * message put back below it wait past its time.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClaimedMessage, ClaimRequest, DeliveryChange } from '../../../service/store/index.js';
import { applyChanges, claim } from '../../../service/store/postgres/delivery.js';
import { openPostgresStore } from '../../../service/store/postgres/store.js';
import { requirePeer } from '../../helpers/peers.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { message } from './contract.js';

const skip = requirePeer('postgres', 'service/store/postgres').reason;
let cluster: PostgresCluster | undefined;
afterAll(() => cluster?.stop());

/** A claim at `now` for route r, every carrier, owner w. */
const claimAt = (now: number, limit: number): ClaimRequest => ({
  route: 'r',
  carriers: { except: [] },
  limit,
  owner: 'w',
  now,
  leaseUntil: now + 60_000,
});

/** Index entries read so far from the outbox's indexes (the session's pending counts flushed first). */
async function entriesRead(client: pg.Client): Promise<number> {
  await client.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await client.query<{ n: string }>(
    `SELECT coalesce(sum(idx_tup_read), 0) AS n FROM pg_stat_user_indexes WHERE relname = 'outbox'`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The outbox index entries `work` read on the session's connection. */
async function readBy(client: pg.Client, work: () => Promise<unknown>): Promise<number> {
  const before = await entriesRead(client);
  await work();
  return (await entriesRead(client)) - before;
}

describe.skipIf(skip !== undefined)('postgres store: index entries read per call', () => {
  it('claims and records a batch reading the entries of its own messages, whatever was delivered before', async () => {
    cluster ??= await startTestCluster({ settings: { fsync: 'off', autovacuum: 'off' } });
    await cluster.createDatabase('reads');
    const url = cluster.socketUrl('reads');
    const store = await openPostgresStore({ url, poolSize: 2 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // Open throughout: no dead entry can be marked for later scans to skip.
    const snapshot = new pg.Client({ connectionString: url });
    await snapshot.connect();
    await snapshot.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await snapshot.query('SELECT count(*) FROM outbox');
    try {
      const now = Date.now();
      let peer = 0;
      /** Accepts `count` messages, then claims (from `floor`), accepts at the SMSC and delivers them; the entries each step read. */
      const deliver = async (count: number, floor = '') => {
        await Promise.all(Array.from({ length: count }, (_, i) => store.enqueue(message(`m${i}`))));
        let taken: ClaimedMessage[] = [];
        const claimed = await readBy(client, async () => {
          taken = await claim(client, claimAt(now, count), floor);
        });
        const peers = taken.map(() => `P${peer++}`);
        const owned = (id: string) => ({ id, owner: 'w', at: now, attempt: 1, route: 'r' });
        const accepted: DeliveryChange[] = taken.map((m, i) => ({
          kind: 'accepted',
          ...owned(m.id),
          peerIds: [peers[i]!],
        }));
        const changed = await readBy(client, async () =>
          expect((await applyChanges(client, accepted)).every(Boolean)).toBe(true),
        );
        const receipts: DeliveryChange[] = peers.map((peerId) => ({
          kind: 'receipt',
          route: 'r',
          at: now,
          receipt: { peerId, state: 'delivered', code: 'DELIVRD', text: 'ok' },
        }));
        const receipted = await readBy(client, async () =>
          expect((await applyChanges(client, receipts)).every(Boolean)).toBe(true),
        );
        return { ids: taken.map((m) => m.id), claimed, changed, receipted };
      };
      await deliver(1);
      let last: string[] = [];
      for (let batch = 0; batch < 20; batch++) last = (await deliver(100)).ids;

      // 20 messages from a floor 100 below them: each step reads a few hundred entries at most,
      // not the 2,000 messages delivered before them (each with its dead queued, sending and
      // accepted entries).
      const measured = await deliver(20, last[0] ?? '');
      expect(measured.ids).toHaveLength(20);
      expect(await store.countByState()).toEqual({ delivered: 2_021 });
      expect(measured.claimed).toBeLessThan(500);
      expect(measured.changed).toBeLessThan(500);
      expect(measured.receipted).toBeLessThan(500);
      // From the start of the queue, the claim walks them all: what the floor saves.
      expect((await deliver(1)).claimed).toBeGreaterThan(2_000);
    } finally {
      await snapshot.query('ROLLBACK');
      await snapshot.end();
      await client.end();
      await store.close();
    }
  }, 120_000);

  it('claims a message put back below the floor at its attempt time, not at the next full scan', async () => {
    cluster ??= await startTestCluster({ settings: { fsync: 'off', autovacuum: 'off' } });
    await cluster.createDatabase('floor');
    const store = await openPostgresStore({ url: cluster.socketUrl('floor'), poolSize: 2 });
    try {
      const first = await store.enqueue(message('first'));
      const second = await store.enqueue(message('second'));
      // Later than the messages' own times, so both are due; the lane's floor becomes `second`.
      const t0 = Date.now() + 10_000;
      const at = (now: number) => claimAt(now, 1);
      expect((await store.delivery.claim(at(t0))).map((m) => m.id)).toEqual([first.id]);
      expect((await store.delivery.claim(at(t0 + 1))).map((m) => m.id)).toEqual([second.id]);
      const retry: DeliveryChange = {
        kind: 'requeue',
        id: first.id,
        owner: 'w',
        at: t0 + 2,
        attempt: 1,
        route: 'r',
        nextAttemptAt: t0 + 100,
        code: 'ESME_RTHROTTLED',
        text: 'throttled',
        maybeSent: false,
      };
      expect(await store.delivery.apply([retry])).toEqual([true]);
      expect(await store.delivery.claim(at(t0 + 99))).toEqual([]);
      // Well inside the once-a-second full scan: only the put-back message brings it forward.
      expect((await store.delivery.claim(at(t0 + 100))).map((m) => m.id)).toEqual([first.id]);
    } finally {
      await store.close();
    }
  });
});
