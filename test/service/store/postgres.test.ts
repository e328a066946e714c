/**
 * The store contract (contract.ts) on a real PostgreSQL: one throw-away cluster for the file, a
 * fresh database per test. Plus what only PostgreSQL has: schema_migrations and the refusal of
 * a newer schema, the password kept out of errors, ServiceUnavailable while the server is down
 * and recovery without reopening the store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../../service/errors.js';
import { openStore, PG_SCHEMA_VERSION, type Store } from '../../../service/store/index.js';
import { PG_MIGRATIONS } from '../../../service/store/postgres/migrations.js';
import { applyChanges } from '../../../service/store/postgres/delivery.js';
import { openPostgresStore, type PostgresStore } from '../../../service/store/postgres/store.js';
import { waitFor } from '../../helpers/wait-for.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { describeStore, message } from './contract.js';
import { requirePeer } from '../../helpers/peers.js';

const skip = requirePeer('postgres', 'service/store/postgres').reason;
let cluster: Promise<PostgresCluster> | undefined;
const theCluster = (): Promise<PostgresCluster> => {
  cluster ??= startTestCluster({ settings: { fsync: 'off' } });
  return cluster;
};
afterAll(async () => (await cluster)?.stop());
let counter = 0;

async function freshDatabase(template?: string): Promise<{ c: PostgresCluster; url: string; name: string }> {
  const c = await theCluster();
  const name = `contract_${counter++}`;
  await c.createDatabase(name, { template });
  return { c, url: c.socketUrl(name), name };
}

let migrated: Promise<string> | undefined;
/**
 * A database the store has migrated and closed, for the contract's tests to start from copies
 * of: migrating each one anew cost the server ~135 ms of CPU a test, some sixty tests. The
 * migrations themselves are tested below, each on an empty database.
 */
function migratedTemplate(): Promise<string> {
  migrated ??= (async () => {
    const { url, name } = await freshDatabase();
    await (await openStore({ db: url, poolSize: 1 })).close();
    return name;
  })();
  return migrated;
}

describeStore('postgres', {
  skip,
  holdsEarlyReceipts: true,
  async fresh(options = {}) {
    const { url } = await freshDatabase(await migratedTemplate());
    const store = await openStore({ ...options, db: url, poolSize: 4 });
    return {
      store,
      another: (more = {}) => openStore({ ...more, db: url, poolSize: 4 }),
      dispose: () => store.close(),
      pendingCallbacksSql: `SELECT count(*) AS n FROM callback_queue WHERE state = 'pending'`,
      async rolledBack(statements, count) {
        const client = await (store as PostgresStore).pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(statements);
          const { rows } = await client.query<{ n: number }>(count);
          return Number(rows[0]?.n);
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
      },
    };
  },
});

describe.skipIf(skip !== undefined)('postgres store: schema, secrets, outages', () => {
  it('records its migrations, reopens without migrating again, and refuses a newer schema', async () => {
    const { c, url } = await freshDatabase();
    const name = url.slice(url.lastIndexOf('/') + 1, url.indexOf('?'));
    const store = await openStore({ db: url });
    await store.close();
    const again = await openStore({ db: url });
    await again.close();
    expect(c.psql('SELECT version FROM schema_migrations ORDER BY version', name).trim().split('\n')).toEqual(
      Array.from({ length: PG_SCHEMA_VERSION }, (_, i) => String(i + 1)),
    );
    c.psql(`INSERT INTO schema_migrations VALUES (${PG_SCHEMA_VERSION + 5}, 0)`, name);
    await expect(openStore({ db: url })).rejects.toThrow(
      `database schema version ${PG_SCHEMA_VERSION + 5} is newer than this smskit (${PG_SCHEMA_VERSION})`,
    );
  });

  it('renames a version 3 database to the contract names (smsto, carrier_code, smsmsg), keeping rows, history and indexes', async () => {
    const { c, url } = await freshDatabase();
    const name = url.slice(url.lastIndexOf('/') + 1, url.indexOf('?'));
    c.psql(
      `${PG_MIGRATIONS.slice(0, 3).join(';\n')};
       CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL);
       INSERT INTO schema_migrations VALUES (1, 0), (2, 0), (3, 0);
       INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message,
                           state, updated_at, attempts, route, smsc_id)
         VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
                 'gsm7', 1, NULL, 'sent in v3', 'delivered', 1700000000300, 1, 'main', 'P1'),
                ('SMS-01HF7YAT3V65A2YJVXTXM4Y11M', 1700000000001, 'a@example.com', 'ACME', '+447700900123',
                 'vodafone-uk', 'gsm7', 1, 2948, 'queued in v3', 'queued', 1700000000001, 0, NULL, NULL);
       INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
         VALUES ('main', 'P1', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1, 1, 'delivered');
       INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
         VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000100, 'sending', 1, 'main', NULL, NULL, NULL),
                ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000200, 'accepted', 1, 'main', 'P1', NULL, NULL),
                ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000300, 'delivered', 1, 'main', 'P1', 'DELIVRD', 'stat:DELIVRD');`,
      name,
    );
    const store = await openStore({ db: url });
    try {
      expect(c.psql('SELECT max(version) FROM schema_migrations', name).trim()).toBe(String(PG_SCHEMA_VERSION));
      const columns = c.psql(`SELECT column_name FROM information_schema.columns WHERE table_name = 'outbox'`, name);
      expect(columns.split('\n').map((line) => line.trim())).toEqual(
        expect.arrayContaining(['smsto', 'carrier_code', 'smsmsg']),
      );
      expect(columns).not.toMatch(/^\s*(recipient|carrier|message)\s*$/m);
      const indexes = c.psql(`SELECT indexname FROM pg_indexes WHERE tablename = 'outbox'`, name);
      for (const index of ['outbox_queued', 'outbox_sending', 'outbox_state']) expect(indexes).toContain(index);
      expect(await store.getMessage('SMS-01HF7YAT3V65A2YJVXTXM4Y11K')).toMatchObject({
        smsto: '+14155550123',
        carrierCode: 'att',
        smsmsg: 'sent in v3',
        state: 'delivered',
        smscId: 'P1',
      });
      expect((await store.history('SMS-01HF7YAT3V65A2YJVXTXM4Y11K')).map((e) => e.state)).toEqual([
        'queued',
        'sending',
        'accepted',
        'delivered',
      ]);
      expect((await store.findOutbox({ smsto: '+447700900123' })).map((m) => m.smsmsg)).toEqual(['queued in v3']);
      const now = Date.now();
      const claim = { route: 'r', limit: 5, owner: 'me', now, leaseUntil: now + 1000 };
      expect(await store.delivery.claim({ ...claim, carriers: { only: ['att'] } })).toEqual([]);
      expect(await store.delivery.claim({ ...claim, carriers: { only: ['vodafone-uk'] } })).toMatchObject([
        { smsto: '+447700900123', carrierCode: 'vodafone-uk', smsmsg: 'queued in v3', port: 2948, attempt: 1 },
      ]);
    } finally {
      await store.close();
    }
  });

  it('claims past rows another instance holds locked, without waiting for it (SKIP LOCKED)', async () => {
    const { url } = await freshDatabase();
    const store = await openPostgresStore({ url, statementTimeoutMs: 2000 });
    const other = await store.pool.connect();
    try {
      const first = await store.enqueue(message('held'));
      const second = await store.enqueue(message('free'));
      await other.query('BEGIN');
      await other.query('SELECT id FROM outbox WHERE id = $1 FOR UPDATE', [first.id]);
      const now = Date.now();
      const claimed = await store.delivery.claim({
        route: 'r',
        carriers: { except: [] },
        limit: 10,
        owner: 'w',
        now,
        leaseUntil: now + 1000,
      });
      expect(claimed.map((m) => m.id)).toEqual([second.id]);
      await other.query('ROLLBACK');
    } finally {
      other.release();
      await store.close();
    }
  });

  it('a receipt that comes while its accepted is uncommitted waits for it, or is kept and applied: never lost', async () => {
    const { url } = await freshDatabase();
    const store = await openPostgresStore({ url });
    const sender = await store.pool.connect();
    try {
      const { id } = await store.enqueue(message('race'));
      const now = Date.now();
      await store.delivery.claim({
        route: 'r',
        carriers: { except: [] },
        limit: 1,
        owner: 'w',
        now,
        leaseUntil: now + 60_000,
      });
      // The sending instance records accepted but has not committed yet...
      await sender.query('BEGIN');
      await applyChanges(sender, [
        { kind: 'accepted', id, owner: 'w', at: now, attempt: 1, route: 'r', peerIds: ['P1'] },
      ]);
      // ...when the receipt reaches another instance.
      let settled = false;
      const receipt = store.delivery
        .apply([
          {
            kind: 'receipt',
            route: 'r',
            at: now + 1,
            receipt: { peerId: 'P1', state: 'delivered', code: 'DELIVRD', text: 'ok' },
          },
        ])
        .finally(() => {
          settled = true;
        });
      await waitFor('the receipt waiting for the sender, or done', async () => {
        if (settled) return true;
        const { rows } = await store.pool.query<{ n: number }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        );
        return (rows[0]?.n ?? 0) > 0;
      });
      await sender.query('COMMIT');
      await receipt;
      expect(await store.getMessage(id)).toMatchObject({ state: 'delivered' });
    } finally {
      sender.release();
      await store.close();
    }
  });

  it('refuses an older schema when asked to require the current one', async () => {
    const { url } = await freshDatabase();
    await expect(openPostgresStore({ url, schema: 'require-current' })).rejects.toThrow(/run smskit db migrate/);
  });

  it('keeps the password out of the error when it is wrong, and says what failed', async () => {
    const c = await theCluster();
    const url = c.tcpUrl('postgres').replace('smskit@', 'smskit:wrong-secret-123@');
    const failure = await openStore({ db: url }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StorageError);
    const text = `${(failure as Error).message} ${String((failure as StorageError).driverCode)}`;
    expect(text).toMatch(/password authentication failed/);
    expect(text).not.toContain('wrong-secret-123');
    expect(text).toContain('smskit:***@127.0.0.1');
  });

  it('answers StorageUnreachable while the server is down and recovers by itself when it is back', async () => {
    const { c, url } = await freshDatabase();
    const logged: string[] = [];
    const store: Store = await openStore({ db: url, poolSize: 2, log: (line) => logged.push(line) });
    try {
      const before = await store.enqueue(message('before'));
      c.stopServer();
      const down = await store.enqueue(message('while down')).catch((e: StorageError) => e);
      expect(down).toMatchObject({ code: 'StorageUnreachable' });
      await expect(store.getAccount('a@example.com')).rejects.toMatchObject({ code: 'StorageUnreachable' });
      await expect(
        store.delivery.claim({
          route: 'r',
          carriers: { except: [] },
          limit: 1,
          owner: 'w',
          now: Date.now(),
          leaseUntil: Date.now() + 1000,
        }),
      ).rejects.toMatchObject({ code: 'StorageUnreachable' });
      c.startServer();
      const after = await store.enqueue(message('after'));
      expect((await store.listOutbox()).map((m) => m.id)).toEqual([before.id, after.id]);
    } finally {
      await store.close();
    }
  });
});
