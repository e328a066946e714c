/**
 * Nothing the callback queue runs reads a whole table: with a backlog of events behind a failing
 * receiver, a claim, a settlement or a count that scanned the queue (or the outbox, or the
 * history) would stall the writer thread the delivery engine commits on. Each statement the store
 * runs is recorded (the statement class's run/get/all/iterate, wrapped for this file only) and its
 * EXPLAIN QUERY PLAN read, as sqlite-plans.test.ts does for delivery. The one exception allowed:
 * EXISTS over the partial index of accounts whose receiver is on, which stops at its first entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdGenerator } from '../../../service/store/ids.js';
import { openSqliteStore, type SqliteStore } from '../../../service/store/index.js';
import type { NewMessage } from '../../../service/store/records.js';
import { OUTBOX_INSERT, toInsertRow } from '../../../service/store/sqlite/outbox.js';
import { recordStatements, type StatementRecorder } from './statement-recorder.js';

const TABLES = ['outbox', 'outbox_events', 'callback_queue', 'accounts'];
const MESSAGES = 5_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const ACCOUNT = 'plans@example.com';

const dir = mkdtempSync(join(tmpdir(), 'smskit-callback-plans-'));
const path = join(dir, 'plans.sqlite');
let store: SqliteStore;

/** The plan steps of `sql` that read a whole table (a SCAN not stopped by a LIMIT) or sort what they read. */
function wholeTableScans(sql: string): string[] {
  const reader = new Database(path, { readonly: true });
  try {
    const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1], null]));
    const statement = reader.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const positional = (sql.match(/\?/g) ?? []).map(() => null);
    const rows = (Object.keys(named).length > 0 ? statement.all(named) : statement.all(...positional)) as {
      detail: string;
    }[];
    const sorts = rows.some((r) => r.detail.startsWith('USE TEMP B-TREE'));
    const stopsAtLimit = /\bLIMIT\b/i.test(sql) && !sorts;
    return rows
      .map((r) => r.detail)
      .filter((detail) => {
        if (detail.startsWith('USE TEMP B-TREE FOR') && detail.includes('ORDER BY')) return true;
        const table = /^SCAN (\w+)/.exec(detail)?.[1];
        if (detail.includes('INDEX accounts_callbacks')) return false;
        return table !== undefined && TABLES.includes(table) && !stopsAtLimit;
      })
      .map((detail) => `${detail}  ←  ${sql.replace(/\s+/g, ' ')}`);
  } finally {
    reader.close();
  }
}

function planOf(sql: string): string[] {
  const reader = new Database(path, { readonly: true });
  try {
    const bindings = (sql.match(/\?/g) ?? []).map(() => null);
    return (reader.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...bindings) as { detail: string }[]).map((r) => r.detail);
  } finally {
    reader.close();
  }
}

const MESSAGE: NewMessage = {
  account: ACCOUNT,
  keyword: 'PLANS',
  smsto: '+14155550123',
  carrierCode: 'att',
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg: 'query plans',
};

let recorder: StatementRecorder | undefined;
const statementsOf = (action: () => Promise<unknown>): Promise<string[]> => recorder!.statementsOf(action);
beforeAll(async () => {
  const setup = openSqliteStore({ path });
  await setup.insertAccount({
    email: ACCOUNT,
    passwordHash: 'x',
    keywords: ['PLANS'],
    disabled: false,
    createdAt: T0,
    callbackUrl: 'https://hooks.example.com/',
    callbackSecret: 'whsec_eA==',
  });
  await setup.close();
  const fill = new Database(path);
  const insert = fill.prepare(OUTBOX_INSERT);
  const event = fill.prepare(
    `INSERT INTO outbox_events (message_id, at, state, attempt, route) VALUES (?, ?, ?, 1, 'smsc')`,
  );
  const nextId = createIdGenerator();
  fill.transaction(() => {
    // Two events per message: the second waits behind the first (the claim reads it while the first is in flight).
    for (let i = 0; i < MESSAGES; i++) {
      const id = nextId(T0 + i);
      insert.run(toInsertRow(id, T0 + i, MESSAGE, 'queued'));
      event.run(id, T0 + i, 'sending');
      event.run(id, T0 + i, 'accepted');
    }
  })();
  fill.close();
  store = openSqliteStore({ path });
  recorder = recordStatements();
});

afterAll(async () => {
  recorder?.restore();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite callback queue: no statement reads a whole table', () => {
  let claimed: number[] = [];
  let claimStatements: string[] = [];

  it('claim', async () => {
    const sql = await statementsOf(async () => {
      const events = await store.callbacks.claimCallbacks({
        owner: 'plans',
        now: T0 + MESSAGES,
        leaseUntil: T0 + MESSAGES + 60_000,
        limit: 10,
      });
      expect(events.map((e) => e.state)).toEqual(Array(10).fill('sending'));
      claimed = events.map((e) => e.seq);
    });
    claimStatements = sql;
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('settle', async () => {
    const sql = await statementsOf(async () => {
      await store.callbacks.settleCallbacks('plans', [
        ...claimed.slice(0, 5).map((seq) => ({ seq, kind: 'sent' as const })),
        ...claimed.slice(5).map((seq) => ({ seq, kind: 'dead' as const, error: 'refused' })),
      ]);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
    // Pending: the 2 × MESSAGES - 10 events not sent, and the ones sent after the oldest event still
    // held (here the first message's second event, now due): the count reads the history from `settled`.
    const stats = await store.callbacks.callbackStats();
    expect(stats).toMatchObject({ dead: 5 });
    expect(stats.pending).toBe(2 * MESSAGES - 10 + 4);
  });

  it('the counts (every /metrics scrape and /healthz)', async () => {
    const sql = await statementsOf(() => store.callbacks.callbackStats());
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('the listing (smskit callbacks, and each look of --follow)', async () => {
    const sql = await statementsOf(async () => {
      const listed = await store.callbacks.listCallbacks({ limit: 5 });
      expect(listed.map((e) => e.eventState)).toEqual(Array(5).fill('pending'));
      await store.callbacks.listCallbacks({ account: ACCOUNT, afterSeq: 100, limit: 5 });
      await store.callbacks.listCallbacks({ eventState: 'dead', limit: 5 });
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('the look whether a sender is needed (serve, until its sender thread starts)', async () => {
    let pending = false;
    const sql = await statementsOf(async () => {
      pending = await store.callbacks.callbackSenderNeeded();
    });
    expect(pending).toBe(true);
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('the read of new events from the history: a range of its key, then lookups by key', () => {
    const read = claimStatements.find((sql) => /FROM outbox_events AS e LEFT JOIN outbox/.test(sql));
    expect(read).toBeDefined();
    // Each step a lookup by key: the queue by seq, and the message's pending events by their
    // index, never by the state index (every pending event of every message, for each change).
    const steps = planOf(read ?? '').filter((step) => /^(SEARCH|SCAN)/.test(step));
    expect(steps).toEqual([
      'SEARCH e USING INTEGER PRIMARY KEY (rowid>?)',
      'SEARCH o USING PRIMARY KEY (id=?) LEFT-JOIN',
      'SEARCH a USING INDEX sqlite_autoindex_accounts_1 (email=?) LEFT-JOIN',
      'SEARCH q USING INTEGER PRIMARY KEY (rowid=?)',
      'SEARCH p USING INDEX callback_queue_message (message_id=?)',
    ]);
  });

  it('the check itself finds a whole-table scan', () => {
    expect(wholeTableScans(`SELECT count(*) FROM callback_queue WHERE last_error IS NULL`)).toHaveLength(1);
    // The pending ones sorted by another column: every pending row is read before the first 5.
    expect(
      wholeTableScans(`SELECT seq FROM callback_queue WHERE state = 'pending' ORDER BY tries LIMIT 5`).length,
    ).toBeGreaterThan(0);
  });
});
