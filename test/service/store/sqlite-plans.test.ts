/**
 * Nothing the SQLite store runs per message reads the whole outbox: with a backlog of a million
 * queued messages, a claim, a state change, a receipt or an outbox listing that scanned every row
 * would stall delivery (and every request, on the one event loop). Each statement the store runs
 * while it claims, records `accepted`, applies a receipt, lists the outbox, counts it per state and
 * sweeps the overdue is recorded (the
 * statement class's run/get/all/iterate, wrapped for this file only), and its EXPLAIN QUERY PLAN
 * is read on the same file. A plan step `SCAN <outbox table>` reads every row unless the scan
 * walks in the statement's own order and stops at its LIMIT (no temporary B-tree for the ORDER BY):
 * that is how a claim walks the queued index and a listing walks the primary key. A sort for the
 * ORDER BY reads every row its filter matches first: at a million queued, the whole queue.
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

const OUTBOX_TABLES = ['outbox', 'outbox_parts', 'outbox_events'];
const QUEUED = 5_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'smskit-store-plans-'));
const path = join(dir, 'plans.sqlite');
let store: SqliteStore;

/**
 * The plan steps of `sql` that read a whole outbox table, or every row a filter matches (empty:
 * none does): a `SCAN` that does not stop at a LIMIT, and a sort (temporary B-tree) for the
 * ORDER BY, which must read every matching row (the whole queue, for a state) before the first.
 */
function wholeTableScans(sql: string): string[] {
  const reader = new Database(path, { readonly: true });
  try {
    const bindings = (sql.match(/\?/g) ?? []).map(() => null);
    const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1], null]));
    const statement = reader.prepare(`EXPLAIN QUERY PLAN ${sql}`);
    const rows = (Object.keys(named).length > 0 ? statement.all(named) : statement.all(...bindings)) as {
      detail: string;
    }[];
    const sortsAfter = rows.some((r) => r.detail.startsWith('USE TEMP B-TREE'));
    const stopsAtLimit = /\bLIMIT\b/i.test(sql) && !sortsAfter;
    const readsOutbox = rows.some((r) => OUTBOX_TABLES.includes(/^(?:SCAN|SEARCH) (\w+)/.exec(r.detail)?.[1] ?? ''));
    return rows
      .map((r) => r.detail)
      .filter((detail) => {
        if (detail.startsWith('USE TEMP B-TREE FOR') && detail.includes('ORDER BY')) return readsOutbox;
        const table = /^SCAN (\w+)/.exec(detail)?.[1];
        return table !== undefined && OUTBOX_TABLES.includes(table) && !stopsAtLimit;
      })
      .map((detail) => `${detail}  ←  ${sql.replace(/\s+/g, ' ')}`);
  } finally {
    reader.close();
  }
}

const MESSAGE: NewMessage = {
  account: 'plans@example.com',
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
  openSqliteStore({ path }).close();
  const fill = new Database(path);
  const insert = fill.prepare(OUTBOX_INSERT);
  const nextId = createIdGenerator();
  fill.transaction(() => {
    for (let i = 0; i < QUEUED; i++) insert.run(toInsertRow(nextId(T0 + i), T0 + i, MESSAGE, 'queued'));
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

describe('SQLite store: no statement run per message reads the whole outbox', () => {
  let claimedId = '';

  it('claim', async () => {
    const sql = await statementsOf(async () => {
      const claimed = await store.delivery.claim({
        route: 'smsc',
        carriers: { except: [] },
        limit: 10,
        owner: 'plans',
        now: T0 + QUEUED,
        leaseUntil: T0 + QUEUED + 60_000,
      });
      expect(claimed).toHaveLength(10);
      claimedId = claimed[0]!.id;
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('accepted', async () => {
    const sql = await statementsOf(async () => {
      const applied = await store.delivery.apply([
        {
          kind: 'accepted',
          id: claimedId,
          owner: 'plans',
          at: T0 + QUEUED,
          attempt: 1,
          route: 'smsc',
          peerIds: ['P1'],
        },
      ]);
      expect(applied).toEqual([true]);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('receipt', async () => {
    const sql = await statementsOf(async () => {
      const applied = await store.delivery.apply([
        {
          kind: 'receipt',
          route: 'smsc',
          at: T0 + QUEUED + 1,
          receipt: { peerId: 'P1', state: 'delivered', code: 'DELIVRD', text: 'plans' },
        },
      ]);
      expect(applied).toEqual([true]);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
    expect((await store.getMessage(claimedId))?.state).toBe('delivered');
  });

  it.each([
    ['newest first', {}],
    ['one state', { states: ['queued' as const] }],
    ['since', { since: T0 + QUEUED - 100 }],
  ])('outbox listing (smskit outbox): %s', async (_name, query) => {
    const sql = await statementsOf(async () => {
      expect(await store.findOutbox({ ...query, limit: 20 })).toHaveLength(20);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('the count per state (every /metrics scrape and /healthz)', async () => {
    const sql = await statementsOf(async () => {
      const counts = await store.countByState();
      expect((counts.queued ?? 0) + (counts.sending ?? 0) + (counts.delivered ?? 0)).toBe(QUEUED);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
    expect(sql.join(' ')).not.toMatch(/FROM outbox\b(?!_)/);
  });

  it('the expiry sweep (at start and every minute)', async () => {
    const sql = await statementsOf(async () => {
      // The first hundred accepted are overdue, ten of them claimed above: only they are read.
      expect(await store.delivery.expireOverdue(T0 + 100, T0 + QUEUED)).toBe(90);
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.flatMap(wholeTableScans)).toEqual([]);
  });

  it('the check itself finds a whole-table scan', () => {
    expect(wholeTableScans('SELECT count(*) FROM outbox_parts WHERE state IS NULL')).toHaveLength(1);
    // The queued ones sorted by another column: every queued row is read before the first 20.
    expect(wholeTableScans("SELECT * FROM outbox WHERE state = 'queued' ORDER BY created_at LIMIT 20")).toHaveLength(1);
    expect(wholeTableScans('SELECT * FROM outbox ORDER BY id DESC LIMIT 20')).toEqual([]);
  });
});
