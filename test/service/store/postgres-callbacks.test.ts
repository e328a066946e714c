/**
 * The callback queue where only PostgreSQL has several instances on one queue: two senders
 * claiming at once never get the same event (SKIP LOCKED), and a message's next event queued
 * while its previous one is being settled on another connection is never left waiting for
 * nothing; the claim and the counts read indexes, not the queue or the outbox. Plus the upgrade:
 * a version 7 database keeps its rows and gains the queue.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION, type Store } from '../../../service/store/index.js';
import { CLAIM, STATS } from '../../../service/store/postgres/callbacks.js';
import { PG_MIGRATIONS } from '../../../service/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../../../service/store/postgres/store.js';
import { requirePeer } from '../../helpers/peers.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';

const skip = requirePeer('postgres', 'service/store/postgres').reason;
let cluster: Promise<PostgresCluster> | undefined;
afterAll(async () => (await cluster)?.stop());
let counter = 0;

async function freshDatabase(): Promise<{ c: PostgresCluster; url: string; name: string }> {
  cluster ??= startTestCluster({ settings: { fsync: 'off' } });
  const c = await cluster;
  const name = `callbacks_${counter++}`;
  await c.createDatabase(name);
  return { c, url: c.socketUrl(name), name };
}

const T0 = 1_800_000_000_000;
const ALICE = 'alice@example.com';

async function withMessages(store: Store, count: number): Promise<string[]> {
  await store.insertAccount({
    email: ALICE,
    passwordHash: 'x',
    keywords: ['ACME'],
    disabled: false,
    createdAt: T0,
    callbackUrl: 'https://hooks.example.com/sms',
    callbackSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  });
  const message = {
    account: ALICE,
    keyword: 'ACME',
    smsto: '+14155550123',
    carrierCode: 'att',
    encoding: 'gsm7',
    segments: 1,
    port: null,
    smsmsg: 'x',
  } as const;
  await Promise.all(Array.from({ length: count }, () => store.enqueue(message)));
  const claimed = await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: count,
    owner: 'worker',
    now: T0,
    leaseUntil: T0 + 600_000,
  });
  return claimed.map((m) => m.id);
}

describe.skipIf(skip !== undefined)('postgres callback queue: several instances', () => {
  it('two senders claiming at once never get the same event, and together get them all', async () => {
    const { url } = await freshDatabase();
    const one = await openPostgresStore({ url });
    const two = await openPostgresStore({ url });
    try {
      const ids = await withMessages(one, 60);
      const taken: number[][] = [[], []];
      const claim = async (store: Store, owner: number): Promise<number> => {
        const events = await store.callbacks.claimCallbacks({
          owner: `sender-${owner}`,
          now: T0 + 1,
          leaseUntil: T0 + 600_000,
          limit: 4,
        });
        taken[owner]!.push(...events.map((e) => e.seq));
        return events.length;
      };
      // In rounds of four claims at once, two from each instance, until none gets anything: every
      // round is a real race between the instances, however fast one of them happens to be.
      for (;;) {
        const claimed = await Promise.all([claim(one, 0), claim(two, 1), claim(one, 0), claim(two, 1)]);
        if (claimed.every((count) => count === 0)) break;
      }
      const all = [...taken[0]!, ...taken[1]!];
      expect(new Set(all).size).toBe(all.length);
      expect(all).toHaveLength(ids.length);
      expect(taken[0]!.length).toBeGreaterThan(0);
      expect(taken[1]!.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("a message's next event queued while its previous one is settled elsewhere always becomes due", async () => {
    const { url } = await freshDatabase();
    const delivery = await openPostgresStore({ url });
    const sender = await openPostgresStore({ url });
    try {
      const ids = await withMessages(delivery, 40);
      const sending = await sender.callbacks.claimCallbacks({ owner: 's', now: T0, leaseUntil: T0 + 1000, limit: 40 });
      expect(sending).toHaveLength(40);
      // Each message's accepted is recorded while its sending event is settled on another instance.
      await Promise.all(
        ids.flatMap((id, i) => [
          delivery.delivery.apply([
            { kind: 'accepted', id, owner: 'worker', at: T0 + 10, attempt: 1, route: 'smsc', peerIds: [`P${i}`] },
          ]),
          sender.callbacks.settleCallbacks('s', [{ seq: sending[i]!.seq, kind: 'sent' }]),
        ]),
      );
      const next = await sender.callbacks.claimCallbacks({
        owner: 's',
        now: T0 + 500,
        leaseUntil: T0 + 1000,
        limit: 100,
      });
      expect(next.map((e) => [e.state, e.previousState])).toEqual(ids.map(() => ['accepted', 'sending']));
      expect(new Set(next.map((e) => e.messageId))).toEqual(new Set(ids));
    } finally {
      await Promise.all([delivery.close(), sender.close()]);
    }
  });

  it('claims and counts through indexes, never a whole table, with a backlog queued', async () => {
    const { c, url, name } = await freshDatabase();
    const store = await openPostgresStore({ url });
    try {
      await withMessages(store, 1);
      // A backlog of 5000 messages with two events each, then statistics as autovacuum would keep them.
      c.psql(
        `INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, smsmsg, state, updated_at)
           SELECT 'SMS-' || lpad(i::text, 26, '0'), ${T0}, '${ALICE}', 'ACME', '+14155550123', 'att', 'gsm7', 1, 'x',
                  'sending', ${T0} FROM generate_series(1, 5000) AS i;
         INSERT INTO outbox_events (message_id, at, state, attempt, route)
           SELECT 'SMS-' || lpad(i::text, 26, '0'), ${T0} + i, s, 1, 'smsc'
           FROM generate_series(1, 5000) AS i, (VALUES ('sending'), ('accepted')) AS v(s) ORDER BY i;
         ANALYZE;`,
        name,
      );
      const plan = (sql: string, types: string, values: string): string =>
        c.psql(`PREPARE q${types === '' ? '' : `(${types})`} AS ${sql}; EXPLAIN EXECUTE q${values};`, name);
      const claim = plan(CLAIM, 'bigint, integer, text, bigint', `(${T0 + 10_000}, 10, 'o', ${T0 + 60_000})`);
      const stats = plan(STATS, '', '');
      expect(claim).not.toMatch(/Seq Scan on (callback_queue|outbox|outbox_events)\b/);
      // Counting the pending reads the pending (here every row: the planner may read them in
      // table order); the rest are index lookups, and the outbox is never read.
      expect(stats).not.toMatch(/Seq Scan on (outbox|outbox_events)\b/);
      expect(stats).toMatch(/Index Only Scan using callback_queue_state .*\n\s+Index Cond: \(state = 'dead'/);
      expect(claim).toMatch(/Index Scan using callback_queue_due/);
      expect(plan('SELECT * FROM callback_queue WHERE last_error IS NULL', '', '')).toMatch(
        /Seq Scan on callback_queue/,
      );
      expect(
        (await store.callbacks.claimCallbacks({ owner: 'o', now: T0 + 10_000, leaseUntil: T0 + 60_000, limit: 10 }))
          .length,
      ).toBe(10);
      expect(await store.callbacks.callbackSenderNeeded()).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('upgrades a version 7 database: accounts and history kept, the queue and columns added', async () => {
    const { c, url, name } = await freshDatabase();
    c.psql(
      `${PG_MIGRATIONS.slice(0, 7).join(';\n')};
       CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL);
       INSERT INTO schema_migrations SELECT v, 0 FROM generate_series(1, 7) AS v;
       INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ('${ALICE}', 'h', 'ACME', false, 1);
       INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, smsmsg, state, updated_at)
         VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, '${ALICE}', 'ACME', '+14155550123', 'att', 'gsm7', 1,
                 'sent in v7', 'accepted', 1700000000200);
       INSERT INTO outbox_events (message_id, at, state, attempt, route)
         VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000200, 'accepted', 1, 'main');`,
      name,
    );
    const store: PostgresStore = await openPostgresStore({ url });
    try {
      expect(c.psql('SELECT max(version) FROM schema_migrations', name).trim()).toBe(String(PG_SCHEMA_VERSION));
      expect(await store.getAccount(ALICE)).toMatchObject({ keywords: ['ACME'], callbackUrl: null });
      expect((await store.history('SMS-01HF7YAT3V65A2YJVXTXM4Y11K')).map((e) => e.state)).toEqual([
        'queued',
        'accepted',
      ]);
      // Nothing queued for changes made before the account had a receiver.
      expect(await store.callbacks.callbackStats()).toEqual({ pending: 0, dead: 0, oldestPendingAt: null });
      expect(await store.callbacks.callbackSenderNeeded()).toBe(false);
    } finally {
      await store.close();
    }
  });
});
