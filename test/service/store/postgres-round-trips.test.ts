/**
 * Round trips to PostgreSQL per batch, counted at the driver (every `query` a node-postgres
 * client sends is one request and one answer), and the statements the server parses and runs
 * for them, counted by pg_stat_statements (several statements sent as one string still count
 * one each): acceptance, account reads, claims, a batch of state changes and a batch of receipts
 * must each cost the same few whatever the batch size. A round trip per message, or statements
 * per message in one round trip, is what held one instance to a few hundred msg/s. Plus the
 * migration that installs the batch function, on a database of the version before it.
 */
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DeliveryChange } from '../../../service/store/index.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../../service/store/postgres/migrations.js';
import { openPostgresStore, type PostgresStore } from '../../../service/store/postgres/store.js';
import { requirePeer } from '../../helpers/peers.js';
import { waitFor } from '../../helpers/wait-for.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { message } from './contract.js';

const skip = requirePeer('postgres', 'service/store/postgres').reason;
let cluster: Promise<PostgresCluster> | undefined;
const theCluster = (): Promise<PostgresCluster> => {
  cluster ??= startTestCluster({
    settings: { fsync: 'off', shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'top' },
  });
  return cluster;
};
afterAll(async () => (await cluster)?.stop());
let databases = 0;

async function freshStore(): Promise<{ c: PostgresCluster; name: string; store: PostgresStore }> {
  const c = await theCluster();
  const name = `round_trips_${databases++}`;
  await c.createDatabase(name);
  c.psql('CREATE EXTENSION pg_stat_statements', name);
  return { c, name, store: await openPostgresStore({ url: c.socketUrl(name), poolSize: 4 }) };
}

/** `work`'s round trips (every node-postgres client of the process) and statements (the server's count). */
async function cost(store: PostgresStore, work: () => Promise<unknown>): Promise<string> {
  await store.pool.query('SELECT pg_stat_statements_reset()');
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  let roundTrips: number;
  try {
    await work();
    roundTrips = spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
  const { rows } = await store.pool.query<{ n: number }>(
    `SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT LIKE '%pg_stat_statements%'`,
  );
  return `${roundTrips} round trips, ${rows[0]?.n} statements`;
}

const NONE = '0 round trips, 0 statements';

/** The round trips of each step of delivering `size` messages, accepted together. */
async function perStep(size: number): Promise<Record<string, string>> {
  const { store } = await freshStore();
  try {
    const now = Date.now();
    const request = { route: 'r', carriers: { except: [] }, owner: 'w', now, leaseUntil: now + 60_000 };
    // Warm: both pools hold a connection, the account exists.
    await store.enqueue(message('warm'));
    await store.delivery.claim({ ...request, limit: 1 });
    await store.insertAccount({
      email: 'a@example.com',
      passwordHash: 'h',
      keywords: ['K'],
      disabled: false,
      createdAt: 0,
    });
    await waitFor(
      'the account row kept',
      async () => (await cost(store, () => store.getAccount('a@example.com'))) === NONE,
    );
    const ids: string[] = [];
    const counts: Record<string, string> = {};
    const all = Array.from({ length: size }, (_, i) => i);
    counts.accountReads = await cost(store, () => Promise.all(all.map(() => store.getAccount('a@example.com'))));
    counts.accept = await cost(store, async () => {
      for (const { id } of await Promise.all(all.map((i) => store.enqueue(message(`m${i}`))))) ids.push(id);
    });
    let claimed = 0;
    counts.claim = await cost(store, async () => {
      claimed = (await store.delivery.claim({ ...request, limit: size })).length;
    });
    const owned = (id: string) => ({ id, owner: 'w', at: now, attempt: 1, route: 'r' });
    const accepted: DeliveryChange[] = ids.map((id, i) => ({ kind: 'accepted', ...owned(id), peerIds: [`P${i}`] }));
    counts.stateChanges = await cost(store, () => store.delivery.apply(accepted));
    const receipts: DeliveryChange[] = ids.map((_, i) => ({
      kind: 'receipt',
      route: 'r',
      at: now,
      receipt: { peerId: `P${i}`, state: 'delivered', code: 'DELIVRD', text: 'ok' },
    }));
    counts.receipts = await cost(store, () => store.delivery.apply(receipts));
    expect(claimed).toBe(size);
    expect(await store.countByState()).toEqual({ delivered: size, sending: 1 });
    return counts;
  } finally {
    await store.close();
  }
}

describe.skipIf(skip !== undefined)('postgres store: round trips per batch', () => {
  it('costs the same few round trips per step for 8 messages as for 256', async () => {
    const small = await perStep(8);
    const large = await perStep(256);
    // The account row is kept between changes (./account-cache.ts): acceptance reads nothing.
    const one = '1 round trips, 1 statements';
    expect(small).toEqual({
      accountReads: NONE,
      accept: one,
      claim: one,
      stateChanges: one,
      receipts: one,
    });
    expect(large).toEqual(small);
  });

  it('reads an account once, then learns of every change made anywhere: update, delete, truncate, a lost listener', async () => {
    const { c, name, store } = await freshStore();
    const email = 'b@example.com';
    const read = () => store.getAccount(email);
    try {
      await store.insertAccount({ email, passwordHash: 'h', keywords: ['K'], disabled: false, createdAt: 0 });
      await waitFor('the account row kept', async () => (await cost(store, read)) === NONE);
      // Another process (smskit account disable, another instance) changes it.
      c.psql(`UPDATE accounts SET disabled = true WHERE email = '${email}'`, name);
      await waitFor('the change seen', async () => (await read())?.disabled === true, { timeoutMs: 5000 });
      c.psql(`DELETE FROM accounts WHERE email = '${email}'`, name);
      await waitFor('the delete seen', async () => (await read()) === undefined, { timeoutMs: 5000 });
      c.psql(
        `INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ('${email}', 'h2', 'K', false, 0)`,
        name,
      );
      await waitFor('the insert seen', async () => (await read())?.passwordHash === 'h2', { timeoutMs: 5000 });
      c.psql('TRUNCATE accounts', name);
      await waitFor('the truncate seen', async () => (await read()) === undefined, { timeoutMs: 5000 });
      c.psql(
        `INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ('${email}', 'h3', 'K', false, 0)`,
        name,
      );
      await waitFor(
        'kept again',
        async () => (await read())?.passwordHash === 'h3' && (await cost(store, read)) === NONE,
      );
      // The listening connection is cut: nothing kept can be trusted, the change is still seen.
      c.psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'smskit accounts'`, name);
      c.psql(`UPDATE accounts SET keywords = 'NEW' WHERE email = '${email}'`, name);
      await waitFor('the change seen after the listener was cut', async () => (await read())?.keywords[0] === 'NEW', {
        timeoutMs: 5000,
      });
    } finally {
      await store.close();
    }
  });

  it('migrates a version 4 database to the batch function and settles what it holds', async () => {
    const c = await theCluster();
    const name = `round_trips_${databases++}`;
    await c.createDatabase(name);
    c.psql(
      `${PG_MIGRATIONS.slice(0, 4).join(';\n')};
       CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL);
       INSERT INTO schema_migrations VALUES (1, 0), (2, 0), (3, 0), (4, 0);
       INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg,
                           state, updated_at, attempts, route, smsc_id, lease_owner, lease_until)
         VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
                 'gsm7', 2, NULL, 'accepted in v4', 'accepted', 1700000000300, 1, 'main', 'P1', NULL, NULL),
                ('SMS-01HF7YAT3V65A2YJVXTXM4Y11M', 1700000000001, 'a@example.com', 'ACME', '+14155550123', 'att',
                 'gsm7', 1, NULL, 'sending in v4', 'sending', 1700000000001, 1, 'main', NULL, 'w', 9000000000000);
       INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
         VALUES ('main', 'P1', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1, 1, 'delivered'),
                ('main', 'P2', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 2, 1, NULL);
       INSERT INTO outbox_early_receipts (route, peer_id, state, code, text, at)
         VALUES ('main', 'Q1', 'delivered', 'DELIVRD', 'came early', 1700000000400);`,
      name,
    );
    const store = await openPostgresStore({ url: c.socketUrl(name) });
    try {
      expect(c.psql('SELECT max(version) FROM schema_migrations', name).trim()).toBe(String(PG_SCHEMA_VERSION));
      const at = 1700000000500;
      const applied = await store.delivery.apply([
        {
          kind: 'receipt',
          route: 'main',
          at,
          receipt: { peerId: 'P2', state: 'delivered', code: 'DELIVRD', text: 'ok' },
        },
        {
          kind: 'accepted',
          id: 'SMS-01HF7YAT3V65A2YJVXTXM4Y11M',
          owner: 'w',
          at,
          attempt: 1,
          route: 'main',
          peerIds: ['Q1'],
        },
      ]);
      expect(applied).toEqual([true, true]);
      expect(await store.countByState()).toEqual({ delivered: 2 });
      expect((await store.history('SMS-01HF7YAT3V65A2YJVXTXM4Y11M')).at(-1)).toMatchObject({
        state: 'delivered',
        smscId: 'Q1',
        text: 'came early',
      });
    } finally {
      await store.close();
    }
  });
});
