import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, toStorageError } from '../../../service/store/index.js';
import { MIGRATIONS } from '../../../service/store/sqlite/migrations.js';
import { StorageError } from '../../../service/errors.js';
import { createIdGenerator, MESSAGE_ID_PATTERN } from '../../../service/store/ids.js';
import {
  openSqliteStore,
  type NewMessage,
  type SqliteStoreOptions as StoreOptions,
} from '../../../service/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshPath = (): string => join(dir, `store-${counter++}.db`);

const message = (smsmsg = 'hello', smsto = '+14155550123'): NewMessage => ({
  account: 'alice@example.com',
  keyword: 'ACME',
  smsto,
  carrierCode: 'att',
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg,
});

/** Rows visible to an independent connection, i.e. committed. */
function committedRows(path: string): { count(): number; close(): void } {
  const observer = new Database(path, { readonly: true });
  const query = observer.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox');
  return { count: () => query.get()?.n ?? 0, close: () => observer.close() };
}

async function settle<T>(promises: Array<Promise<T>>): Promise<{ ok: T[]; failed: unknown[] }> {
  const results = await Promise.allSettled(promises);
  return {
    ok: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    failed: results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : [])),
  };
}

describe('open and schema', () => {
  it('uses WAL, synchronous=FULL, the latest schema version, and keeps data across reopen', async () => {
    const path = freshPath();
    const store = openSqliteStore({ path });
    expect(store.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.database.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const { id } = await store.enqueue(message('kept'));
    await store.close();
    const reopened = openSqliteStore({ path });
    expect(await reopened.listOutbox()).toMatchObject([{ id, smsmsg: 'kept', state: 'queued', port: null }]);
    await reopened.close();
  });

  it('moves a version 1 database to the current schema, keeping its messages queued', async () => {
    const path = freshPath();
    const v1 = new Database(path);
    v1.exec(MIGRATIONS[0] ?? '');
    v1.pragma('user_version = 1');
    v1.prepare(
      `INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message)
       VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
               'gsm7', 1, NULL, 'from v1')`,
    ).run();
    v1.close();
    const store = openSqliteStore({ path });
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(await store.listOutbox()).toMatchObject([
      { smsmsg: 'from v1', state: 'queued', updatedAt: 1_700_000_000_000, attempts: 0, possibleDuplicate: false },
    ]);
    const claimed = await store.delivery.claim({
      route: 'r',
      carriers: { except: [] },
      limit: 5,
      owner: 'me',
      now: Date.now(),
      leaseUntil: Date.now() + 1000,
    });
    expect(claimed.map((m) => m.smsmsg)).toEqual(['from v1']);
    await store.close();
  });

  it('renames a version 3 database to the contract names (smsto, carrier_code, smsmsg), keeping rows, history and indexes', async () => {
    const path = freshPath();
    const v3 = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 3)) v3.exec(migration);
    v3.pragma('user_version = 3');
    v3.exec(`
      INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message,
                          state, updated_at, attempts, route, smsc_id)
        VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
                'gsm7', 1, NULL, 'sent in v3', 'delivered', 1700000000300, 1, 'main', 'P1'),
               ('SMS-01HF7YAT3V65A2YJVXTXM4Y11M', 1700000000001, 'a@example.com', 'ACME', '+447700900123', 'vodafone-uk',
                'gsm7', 1, 2948, 'queued in v3', 'queued', 1700000000001, 0, NULL, NULL);
      INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
        VALUES ('main', 'P1', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1, 1, 'delivered');
      INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
        VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000100, 'sending', 1, 'main', NULL, NULL, NULL),
               ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000200, 'accepted', 1, 'main', 'P1', NULL, NULL),
               ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000300, 'delivered', 1, 'main', 'P1', 'DELIVRD', 'stat:DELIVRD');`);
    v3.close();
    const store = openSqliteStore({ path });
    try {
      expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const columns = (store.database.prepare('PRAGMA table_info(outbox)').all() as { name: string }[]).map(
        (c) => c.name,
      );
      expect(columns).toEqual(expect.arrayContaining(['smsto', 'carrier_code', 'smsmsg']));
      expect(columns.filter((c) => ['recipient', 'carrier', 'message'].includes(c))).toEqual([]);
      const indexes = (store.database.prepare('PRAGMA index_list(outbox)').all() as { name: string }[]).map(
        (i) => i.name,
      );
      expect(indexes).toEqual(expect.arrayContaining(['outbox_queued', 'outbox_sending', 'outbox_state']));
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

  it('keeps the count per state without reading the outbox: counted on upgrade, then kept by every write', async () => {
    const path = freshPath();
    const v4 = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 4)) v4.exec(migration);
    v4.pragma('user_version = 4');
    v4.exec(`
      INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg,
                          state, updated_at)
        VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
                'gsm7', 1, NULL, 'old', 'delivered', 1700000000300),
               ('SMS-01HF7YAT3V65A2YJVXTXM4Y11M', 1700000000001, 'a@example.com', 'ACME', '+14155550123', 'att',
                'gsm7', 1, NULL, 'old', 'queued', 1700000000001);`);
    v4.close();
    const store = openSqliteStore({ path });
    const counted = () =>
      Object.fromEntries(
        store.database
          .prepare<[], { state: string; n: number }>('SELECT state, count(*) AS n FROM outbox GROUP BY state')
          .all()
          .map((r) => [r.state, r.n]),
      );
    try {
      expect(await store.countByState()).toEqual({ delivered: 1, queued: 1 });
      for (let i = 0; i < 5; i++) await store.enqueue(message(`new${i}`));
      const now = Date.now();
      await store.delivery.claim({
        route: 'r',
        carriers: { except: [] },
        limit: 3,
        owner: 'me',
        now,
        leaseUntil: now + 1000,
      });
      expect(await store.countByState()).toEqual({ delivered: 1, queued: 3, sending: 3 });
      expect(await store.countByState()).toEqual(counted());
      // Retention deletes the delivered message: its count goes with it.
      expect(await store.pruneOutbox(1700000000500, 'messages')).toBe(1);
      expect(await store.countByState()).toEqual({ queued: 3, sending: 3 });
      expect(await store.countByState()).toEqual(counted());
      expect(await store.countOutbox()).toBe(6);
    } finally {
      await store.close();
    }
  });

  it('refuses a database from a newer smskit', () => {
    const path = freshPath();
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openSqliteStore({ path })).toThrow(/newer than this smskit/);
  });

  it('refuses a corrupt file with StorageCorrupt', () => {
    const path = freshPath();
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    expect(() => openSqliteStore({ path })).toThrow(expect.objectContaining({ code: 'StorageCorrupt' }));
  });
});

describe('group commit', () => {
  it('commits everything enqueued in one turn as one transaction, visible to others before resolving', async () => {
    const path = freshPath();
    const store = openSqliteStore({ path });
    const observer = committedRows(path);
    const seen: number[] = [];
    const promises = Array.from({ length: 100 }, (_, i) =>
      store.enqueue(message(`m${i}`)).then(({ id }) => {
        seen.push(observer.count());
        return id;
      }),
    );
    expect(observer.count()).toBe(0); // nothing written synchronously
    const ids = await Promise.all(promises);
    expect(new Set(ids).size).toBe(100);
    expect(seen).toEqual(Array(100).fill(100)); // all committed together, before any promise resolved
    expect(await store.countOutbox()).toBe(100);
    observer.close();
    await store.close();
  });

  it('commits early when maxBatch rows wait', async () => {
    const path = freshPath();
    const store = openSqliteStore({ path, maxBatch: 10 });
    const observer = committedRows(path);
    const promises = Array.from({ length: 25 }, () => store.enqueue(message()));
    expect(observer.count()).toBe(20); // two full batches committed at once, the rest waits for the turn to end
    await Promise.all(promises);
    expect(observer.count()).toBe(25);
    observer.close();
    await store.close();
  });

  it('close commits what is queued, then refuses new messages', async () => {
    const store = openSqliteStore({ path: freshPath() });
    const queued = store.enqueue(message());
    await store.close();
    await expect(queued).resolves.toMatchObject({ id: expect.stringMatching(MESSAGE_ID_PATTERN) });
    await expect(store.enqueue(message())).rejects.toMatchObject({ code: 'StorageClosed' });
  });

  it('stores every field', async () => {
    const store = openSqliteStore({ path: freshPath(), clock: () => 1_700_000_000_123 });
    const { id } = await store.enqueue({
      ...message('Привет'),
      encoding: 'ucs2',
      segments: 2,
      port: 2948,
      carrierCode: 'auto',
    });
    expect(await store.listOutbox()).toEqual([
      {
        id,
        createdAt: 1_700_000_000_123,
        account: 'alice@example.com',
        keyword: 'ACME',
        smsto: '+14155550123',
        carrierCode: 'auto',
        encoding: 'ucs2',
        segments: 2,
        port: 2948,
        smsmsg: 'Привет',
        state: 'queued',
        updatedAt: 1_700_000_000_123,
        attempts: 0,
        route: null,
        smscId: null,
        errorCode: null,
        errorText: null,
        possibleDuplicate: false,
      },
    ]);
    await store.close();
  });
});

describe('failed commits: every waiter rejects, nothing is stored, then recovery', () => {
  type Setup = (store: ReturnType<typeof openSqliteStore>, path: string) => { fail(): void; clear(): void };
  const cases: Array<[string, { given: { setup: Setup; options?: Partial<StoreOptions> }; want: string }]> = [
    [
      'a trigger that RAISEs',
      {
        given: {
          setup: (store) => {
            store.database.exec(`CREATE TABLE fail_switch (on_ INTEGER);
            CREATE TRIGGER outbox_fail BEFORE INSERT ON outbox WHEN EXISTS (SELECT 1 FROM fail_switch)
            BEGIN SELECT RAISE(ABORT, 'simulated failure'); END;`);
            return {
              fail: () => store.database.exec('INSERT INTO fail_switch VALUES (1)'),
              clear: () => store.database.exec('DELETE FROM fail_switch'),
            };
          },
        },
        want: 'StorageError',
      },
    ],
    [
      'a full disk (max_page_count)',
      {
        given: {
          setup: (store) => ({
            fail: () =>
              store.database.pragma(
                `max_page_count = ${Number(store.database.pragma('page_count', { simple: true }))}`,
              ),
            clear: () => store.database.pragma('max_page_count = 1073741823'),
          }),
        },
        want: 'StorageFull',
      },
    ],
    [
      'a lock held by another process',
      {
        given: {
          options: { busyTimeoutMs: 20 },
          setup: (_store, path) => {
            const other = new Database(path);
            return {
              fail: () => other.exec('BEGIN EXCLUSIVE'),
              clear: () => {
                other.exec('COMMIT');
                other.close();
              },
            };
          },
        },
        want: 'StorageLocked',
      },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const path = freshPath();
    const errors: string[] = [];
    const store = openSqliteStore({
      path,
      ...given.options,
      onError: (error, size) => errors.push(`${error.code}/${size}`),
    });
    await store.enqueue(message('before'));
    const condition = given.setup(store, path);
    condition.fail();
    const big = 'x'.repeat(4000); // needs new pages, so a full disk shows
    const { ok, failed } = await settle(Array.from({ length: 20 }, () => store.enqueue(message(big))));
    expect(ok).toEqual([]);
    expect(failed).toHaveLength(20);
    for (const error of failed) expect(error).toBeInstanceOf(StorageError);
    expect(failed[0]).toMatchObject({ code: want });
    expect(new Set(failed).size).toBe(1); // one batch, one error
    expect(errors).toEqual([`${want}/20`]);
    condition.clear();
    expect((await store.listOutbox()).map((m) => m.smsmsg)).toEqual(['before']);
    await expect(store.enqueue(message('after'))).resolves.toMatchObject({
      id: expect.stringMatching(MESSAGE_ID_PATTERN),
    });
    expect((await store.listOutbox()).map((m) => m.smsmsg)).toEqual(['before', 'after']);
    await store.close();
  });

  it('after a read-only failure the connection is reopened (query_only stands in for a read-only file)', async () => {
    const path = freshPath();
    const errors: string[] = [];
    const store = openSqliteStore({ path, onError: (error) => errors.push(`${error.code}/${error.driverCode ?? ''}`) });
    await store.enqueue(message('before'));
    const first = store.database;
    first.pragma('query_only = 1'); // writes now fail with SQLITE_READONLY on this connection only
    await expect(store.enqueue(message('refused'))).rejects.toMatchObject({ code: 'StorageReadOnly' });
    await expect(store.enqueue(message('after'))).resolves.toMatchObject({
      id: expect.stringMatching(MESSAGE_ID_PATTERN),
    });
    expect(store.database).not.toBe(first);
    expect(first.open).toBe(false);
    expect((await store.listOutbox()).map((m) => m.smsmsg)).toEqual(['before', 'after']);
    expect(errors).toEqual(['StorageReadOnly/SQLITE_READONLY']);
    await store.close();
  });

  it('one bad row fails its whole batch atomically', async () => {
    const store = openSqliteStore({ path: freshPath() });
    store.database.exec(`CREATE TRIGGER poison BEFORE INSERT ON outbox WHEN NEW.smsmsg = 'poison'
      BEGIN SELECT RAISE(ABORT, 'poison'); END;`);
    const { ok, failed } = await settle([
      store.enqueue(message('good 1')),
      store.enqueue(message('poison')),
      store.enqueue(message('good 2')),
    ]);
    expect({ ok: ok.length, failed: failed.length, stored: await store.countOutbox() }).toEqual({
      ok: 0,
      failed: 3,
      stored: 0,
    });
    await store.close();
  });

  const codes: Array<[string, { given: string; want: string }]> = [
    ['full', { given: 'SQLITE_FULL', want: 'StorageFull' }],
    ['read-only', { given: 'SQLITE_READONLY', want: 'StorageReadOnly' }],
    ['read-only, moved', { given: 'SQLITE_READONLY_DBMOVED', want: 'StorageReadOnly' }],
    ['busy', { given: 'SQLITE_BUSY', want: 'StorageLocked' }],
    ['locked', { given: 'SQLITE_LOCKED', want: 'StorageLocked' }],
    ['corrupt', { given: 'SQLITE_CORRUPT', want: 'StorageCorrupt' }],
    ['not a database', { given: 'SQLITE_NOTADB', want: 'StorageCorrupt' }],
    ['I/O error', { given: 'SQLITE_IOERR_WRITE', want: 'StorageError' }],
  ];
  it.each(codes)('classifies %s', (_name, { given, want }) => {
    const error = Object.assign(new Error('driver says no'), { code: given });
    expect(toStorageError(error, 'context')).toMatchObject({ code: want, driverCode: given });
  });
});

describe('message ids', () => {
  it('are SMS-<ULID>, unique and increasing within one millisecond and when the clock steps back', () => {
    const next = createIdGenerator();
    const ids = [next(1000), next(1000), next(1000), next(999), next(1001)];
    for (const id of ids) expect(id).toMatch(MESSAGE_ID_PATTERN);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(next(0)).toMatch(MESSAGE_ID_PATTERN);
    expect(createIdGenerator()(Date.UTC(2024, 0, 1)).slice(4, 14)).toBe('01HK153X00');
  });

  it('draw a fresh random part for each new millisecond, across refills of their random pool', () => {
    const next = createIdGenerator();
    const randomParts = Array.from({ length: 1_000 }, (_, ms) => next(ms).slice(14));
    expect(new Set(randomParts).size).toBe(randomParts.length);
    // Not all zero, nor one repeated byte: the bytes came from the generator.
    expect(new Set(randomParts.join('')).size).toBeGreaterThan(20);
  });
});
