/**
 * The store contract (contract.ts) on a real PostgreSQL: one throw-away cluster for the file, a
 * fresh database per test. Plus what only PostgreSQL has: schema_migrations and the refusal of
 * a newer schema, the password kept out of errors, ServiceUnavailable while the server is down
 * and recovery without reopening the store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../../service/errors.js';
import { openStore, PG_SCHEMA_VERSION, type Store } from '../../../service/store/index.js';
import { openPostgresStore } from '../../../service/store/postgres/store.js';
import { postgresSkipReason, startPostgresCluster, type PostgresCluster } from '../../helpers/postgres-cluster.js';
import { describeStore, message } from './contract.js';

const skip = postgresSkipReason();
let cluster: Promise<PostgresCluster> | undefined;
const theCluster = (): Promise<PostgresCluster> => {
  cluster ??= startPostgresCluster({ settings: { fsync: 'off' } });
  return cluster;
};
afterAll(async () => (await cluster)?.stop());
let counter = 0;

async function freshDatabase(): Promise<{ c: PostgresCluster; url: string }> {
  const c = await theCluster();
  const name = `contract_${counter++}`;
  c.createDatabase(name);
  return { c, url: c.socketUrl(name) };
}

describeStore('postgres', {
  skip,
  holdsEarlyReceipts: true,
  async fresh(options = {}) {
    const { url } = await freshDatabase();
    const store = await openStore({ ...options, db: url, poolSize: 4 });
    return {
      store,
      another: (more = {}) => openStore({ ...more, db: url, poolSize: 4 }),
      dispose: () => store.close(),
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
