/**
 * SQLite databases made by earlier smskits open at the current version with every row, column
 * and index kept: version 4 (before the `unknown` state; the outbox copy that widens the state
 * CHECK must lose nothing), version 6 (before callbacks: the queue is added, and changes are
 * queued once an account has a receiver) and version 7 (callbacks as queue rows: the rows kept,
 * new events read from the history).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore, SCHEMA_VERSION } from '../../../service/store/index.js';
import { MIGRATIONS } from '../../../service/store/sqlite/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('upgrades a version 4 database to the unknown state, keeping rows, parts, history and indexes', async () => {
  const path = join(dir, 'v4.db');
  const old = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 4)) old.exec(migration);
  old.pragma('user_version = 4');
  old.exec(`INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg,
                                state, updated_at, attempts, route, smsc_id, possible_duplicate)
              VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att',
                      'gsm7', 2, 2948, 'sent in v4', 'accepted', 1700000000200, 1, 'main', 'P1', 1);
            INSERT INTO outbox_parts VALUES ('main', 'P1', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1, 1, NULL),
                                            ('main', 'P2', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 2, 1, NULL);
            INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id)
              VALUES ('SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 1700000000200, 'accepted', 1, 'main', 'P1');`);
  expect(() => old.exec(`UPDATE outbox SET state = 'unknown'`)).toThrow(/CHECK/);
  old.close();

  const store = openSqliteStore({ path });
  try {
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const indexes = store.database
      .prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'outbox'`)
      .all()
      .map((row) => row.name);
    expect(indexes).toEqual(
      expect.arrayContaining(['outbox_queued', 'outbox_sending', 'outbox_state', 'outbox_accepted']),
    );
    const id = 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K';
    expect(await store.getMessage(id)).toMatchObject({
      smsmsg: 'sent in v4',
      segments: 2,
      port: 2948,
      state: 'accepted',
      route: 'main',
      smscId: 'P1',
      possibleDuplicate: true,
      updatedAt: 1700000000200,
    });
    const text = 'no delivery receipt within 1 s';
    const request = { route: 'main', acceptedBefore: 1700000001000, now: 1700000002000, text, limit: 10 };
    expect(await store.delivery.timeOutReceipts(request)).toBe(1);
    expect((await store.history(id)).map((e) => e.state)).toEqual(['queued', 'accepted', 'unknown']);
  } finally {
    await store.close();
  }
});

it('upgrades a version 6 database to callbacks: accounts, messages and history kept, the queue added and filled from then on', async () => {
  const path = join(dir, 'v6.db');
  const old = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 6)) old.exec(migration);
  old.pragma('user_version = 6');
  const id = 'SMS-01HF7YAT3V65A2YJVXTXM4Y11K';
  old.exec(`INSERT INTO accounts (email, password_hash, keywords, disabled, created_at) VALUES ('a@example.com', 'h', 'ACME', 0, 1);
            INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, smsmsg, state,
                                updated_at, attempts, route, smsc_id)
              VALUES ('${id}', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att', 'gsm7', 1, 'sent in v6',
                      'accepted', 1700000000200, 1, 'main', 'P1');
            INSERT INTO outbox_parts VALUES ('main', 'P1', '${id}', 1, 1, NULL);
            INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id)
              VALUES ('${id}', 1700000000200, 'accepted', 1, 'main', 'P1');`);
  old.close();

  const store = openSqliteStore({ path });
  try {
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(await store.getAccount('a@example.com')).toMatchObject({ keywords: ['ACME'], callbackUrl: null });
    expect(await store.callbacks.callbackStats()).toEqual({ pending: 0, dead: 0, oldestPendingAt: null });
    await store.updateAccount('a@example.com', {
      callbackUrl: 'https://hooks.example.com/',
      callbackSecret: 'whsec_eA==',
    });
    const receipt = { peerId: 'P1', state: 'delivered', code: 'DELIVRD', text: 'ok' } as const;
    expect(await store.delivery.apply([{ kind: 'receipt', route: 'main', at: 1700000000300, receipt }])).toEqual([
      true,
    ]);
    const [event] = await store.callbacks.claimCallbacks({
      owner: 'o',
      now: 1700000000300,
      leaseUntil: 1700000001000,
      limit: 5,
    });
    expect(event).toMatchObject({
      messageId: id,
      state: 'delivered',
      previousState: 'accepted',
      smsto: '+14155550123',
    });
  } finally {
    await store.close();
  }
});

it('upgrades a version 7 database to callbacks read from the history: queued events kept, new ones read, no seq reused', async () => {
  const path = join(dir, 'v7.db');
  const old = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 7)) old.exec(migration);
  old.pragma('user_version = 7');
  const [a, b] = ['SMS-01HF7YAT3V65A2YJVXTXM4Y11K', 'SMS-01HF7YAT3V65A2YJVXTXM4Y11M'];
  const outbox = (id: string) => `INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding,
      segments, smsmsg, state, updated_at, attempts, route, smsc_id)
    VALUES ('${id}', 1700000000000, 'a@example.com', 'ACME', '+14155550123', 'att', 'gsm7', 1, 'sent in v7',
            'accepted', 1700000000200, 1, 'main', 'P-${id}');`;
  // Version 7's trigger queues a row for each change: one stays pending, one died.
  old.exec(`INSERT INTO accounts (email, password_hash, keywords, disabled, created_at, callback_url, callback_secret)
              VALUES ('a@example.com', 'h', 'ACME', 0, 1, 'https://hooks.example.com/', 'whsec_eA==');
            ${outbox(a)} ${outbox(b)}
            INSERT INTO outbox_parts VALUES ('main', 'P-${a}', '${a}', 1, 1, NULL);
            INSERT INTO outbox_events (message_id, at, state, attempt, route) VALUES ('${a}', 1700000000200, 'accepted', 1, 'main');
            INSERT INTO outbox_events (message_id, at, state, attempt, route) VALUES ('${b}', 1700000000200, 'accepted', 1, 'main');
            UPDATE callback_queue SET state = 'dead', due_at = NULL, last_error = 'refused' WHERE message_id = '${b}';`);
  const newest = (old.prepare('SELECT max(seq) AS seq FROM outbox_events').get() as { seq: number }).seq;
  old.close();

  const store = openSqliteStore({ path });
  try {
    expect(store.database.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(await store.callbacks.callbackStats()).toEqual({ pending: 1, dead: 1, oldestPendingAt: 1700000000200 });
    const claim = { owner: 'o', now: 1700000000300, leaseUntil: 1700000001000, limit: 5 };
    const [queued] = await store.callbacks.claimCallbacks(claim);
    expect(queued).toMatchObject({ messageId: a, state: 'accepted', seq: newest - 1 });
    await store.callbacks.settleCallbacks('o', [{ seq: queued!.seq, kind: 'sent' }]);
    const receipt = { peerId: `P-${a}`, state: 'delivered', code: 'DELIVRD', text: 'ok' } as const;
    await store.delivery.apply([{ kind: 'receipt', route: 'main', at: 1700000000400, receipt }]);
    const [fresh] = await store.callbacks.claimCallbacks({ ...claim, now: 1700000000500 });
    expect(fresh).toMatchObject({ messageId: a, state: 'delivered', previousState: 'accepted' });
    expect(fresh!.seq).toBeGreaterThan(newest);
    expect(await store.callbacks.listCallbacks({ eventState: 'dead', limit: 5 })).toMatchObject([{ messageId: b }]);
  } finally {
    await store.close();
  }
});
