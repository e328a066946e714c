/**
 * The SQLite callback sender reads events from the history through a cursor and keeps the events
 * in flight in memory (service/store/sqlite/callback-cursor.ts). What the store contract cannot
 * see from outside: a sender call whose transaction rolls back leaves the memory as it was (the
 * writer thread runs a failed batch's calls again one by one); a process that starts again sends
 * what the last one had in flight; a seq is never used twice; history of accounts without a
 * receiver is passed over; the cursor follows the sender.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallbackClaim } from '../../../service/store/callbacks.js';
import { openSqliteStore, type SqliteStore } from '../../../service/store/index.js';
import { message } from './callbacks-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-callback-cursor-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const T0 = 1_800_000_000_000;
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

const claim = (over: Partial<CallbackClaim> = {}): CallbackClaim => ({
  owner: 'sender',
  now: T0 + 10_000,
  leaseUntil: T0 + 40_000,
  limit: 100,
  ...over,
});

async function freshStore(path = join(dir, `cursor-${files++}.db`)): Promise<SqliteStore> {
  const store = openSqliteStore({ path });
  const row = { passwordHash: 'x', keywords: ['ACME'], disabled: false, createdAt: T0 };
  await store.insertAccount({
    ...row,
    email: ALICE,
    callbackUrl: 'https://hooks.example.com/',
    callbackSecret: 'whsec_eA==',
  });
  await store.insertAccount({ ...row, email: BOB });
  return store;
}

/** `count` messages of `account`, each claimed for delivery: one `sending` event each. */
async function sendingEvents(store: SqliteStore, account: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await store.enqueue(message(account))).id);
  const request = {
    route: 'smsc',
    carriers: { except: [] },
    limit: count,
    owner: 'worker',
    now: T0 + 100,
    leaseUntil: T0 + 60_000,
  };
  await store.delivery.claim(request);
  return ids;
}

/** One message of Alice's claimed for delivery and then accepted: `sending` and `accepted` events. */
async function sendingThenAccepted(store: SqliteStore): Promise<string> {
  const [id] = await sendingEvents(store, ALICE, 1);
  await store.delivery.apply([
    { kind: 'accepted', id: id!, owner: 'worker', at: T0 + 200, attempt: 1, route: 'smsc', peerIds: ['P1'] },
  ]);
  return id!;
}

/** Runs `call` inside a transaction that is then rolled back, as a failed writer batch is. */
async function rolledBack<T>(store: SqliteStore, call: () => Promise<T>): Promise<T> {
  store.database.exec('BEGIN IMMEDIATE');
  try {
    return await call();
  } finally {
    store.database.exec('ROLLBACK');
  }
}

const cursorOf = (store: SqliteStore) =>
  store.database.prepare('SELECT scanned, settled FROM callback_cursor').get() as { scanned: number; settled: number };

describe('SQLite callbacks read from the history', () => {
  it('a claim that rolled back hands the same events out again, not held as if in flight', async () => {
    const store = await freshStore();
    try {
      const ids = await sendingEvents(store, ALICE, 3);
      const lost = await rolledBack(store, () => store.callbacks.claimCallbacks(claim()));
      expect(lost.map((e) => e.messageId)).toEqual(ids);
      const again = await store.callbacks.claimCallbacks(claim());
      expect(again.map((e) => [e.messageId, e.tries])).toEqual(ids.map((id) => [id, 0]));
    } finally {
      await store.close();
    }
  });

  it('a settlement that rolled back can be settled again: a failed try is not lost', async () => {
    const store = await freshStore();
    try {
      const [id] = await sendingEvents(store, ALICE, 1);
      const [event] = await store.callbacks.claimCallbacks(claim());
      const failed = { seq: event!.seq, kind: 'retry', nextAttemptAt: T0 + 20_000, error: 'HTTP 503' } as const;
      await rolledBack(store, () => store.callbacks.settleCallbacks('sender', [failed]));
      expect(await store.callbacks.listCallbacks({ limit: 10 })).toMatchObject([{ messageId: id, tries: 0 }]);
      await store.callbacks.settleCallbacks('sender', [failed]);
      expect(await store.callbacks.listCallbacks({ limit: 10 })).toMatchObject([
        { messageId: id, eventState: 'pending', tries: 1, nextAttemptAt: T0 + 20_000, lastError: 'HTTP 503' },
      ]);
      const [retried] = await store.callbacks.claimCallbacks(claim({ now: T0 + 20_000 }));
      expect([retried?.seq, retried?.tries]).toEqual([event!.seq, 1]);
    } finally {
      await store.close();
    }
  });

  it('a new try that rolled back leaves the event due, with its tries as they were', async () => {
    const store = await freshStore();
    try {
      await sendingEvents(store, ALICE, 1);
      // Its lease ends at T0 + 40 s: another sender takes it over later, and that rolls back.
      const [event] = await store.callbacks.claimCallbacks(claim());
      const late = claim({ owner: 'other', now: T0 + 50_000, leaseUntil: T0 + 80_000 });
      const lost = await rolledBack(store, () => store.callbacks.claimCallbacks(late));
      expect([lost[0]?.seq, lost[0]?.tries]).toEqual([event!.seq, 1]);
      const [again] = await store.callbacks.claimCallbacks(late);
      expect([again?.seq, again?.tries]).toEqual([event!.seq, 1]);
    } finally {
      await store.close();
    }
  });

  it("a settlement that rolled back keeps the message's next event waiting, sent once when it is settled", async () => {
    const store = await freshStore();
    try {
      const id = await sendingThenAccepted(store);
      // `sending` goes out; `accepted` waits behind it.
      const [sending] = await store.callbacks.claimCallbacks(claim());
      expect(await store.callbacks.claimCallbacks(claim())).toEqual([]);
      const sent = { seq: sending!.seq, kind: 'sent' } as const;
      await rolledBack(store, () => store.callbacks.settleCallbacks('sender', [sent]));
      expect(await store.callbacks.claimCallbacks(claim())).toEqual([]);
      await store.callbacks.settleCallbacks('sender', [sent]);
      const next = await store.callbacks.claimCallbacks(claim());
      expect(next.map((e) => [e.messageId, e.state, e.previousState])).toEqual([[id, 'accepted', 'sending']]);
    } finally {
      await store.close();
    }
  });

  it('a retried event holds its message’s next one as a row, which is due once the retry is sent', async () => {
    const store = await freshStore();
    try {
      const id = await sendingThenAccepted(store);
      const [sending] = await store.callbacks.claimCallbacks(claim());
      const retry = { seq: sending!.seq, kind: 'retry', nextAttemptAt: T0 + 20_000, error: 'HTTP 503' } as const;
      await store.callbacks.settleCallbacks('sender', [retry]);
      const later = claim({ now: T0 + 20_000 });
      const [again] = await store.callbacks.claimCallbacks(later);
      expect([again?.seq, again?.tries]).toEqual([sending!.seq, 1]);
      expect(await store.callbacks.claimCallbacks(later)).toEqual([]);
      await store.callbacks.settleCallbacks('sender', [{ seq: sending!.seq, kind: 'sent' }]);
      const next = await store.callbacks.claimCallbacks(later);
      expect(next.map((e) => [e.messageId, e.state])).toEqual([[id, 'accepted']]);
    } finally {
      await store.close();
    }
  });

  it('a process that starts again sends what the last one had in flight, and nothing it had settled', async () => {
    const path = join(dir, `cursor-${files++}.db`);
    const first = await freshStore(path);
    const ids = await sendingEvents(first, ALICE, 3);
    const events = await first.callbacks.claimCallbacks(claim());
    // The first one sent, the other two still in flight when the process ends.
    await first.callbacks.settleCallbacks('sender', [{ seq: events[0]!.seq, kind: 'sent' }]);
    await first.close();
    const second = openSqliteStore({ path });
    try {
      const resent = await second.callbacks.claimCallbacks(claim({ owner: 'after' }));
      expect(resent.map((e) => e.messageId)).toEqual(ids.slice(1));
      expect(resent.map((e) => e.seq)).toEqual(events.slice(1).map((e) => e.seq));
    } finally {
      await second.close();
    }
  });

  it('a process whose first call rolled back still sends again what the last one had in flight', async () => {
    const path = join(dir, `cursor-${files++}.db`);
    const first = await freshStore(path);
    const ids = await sendingEvents(first, ALICE, 2);
    await first.callbacks.claimCallbacks(claim());
    await first.close();
    const second = openSqliteStore({ path });
    try {
      await rolledBack(second, () => second.callbacks.claimCallbacks(claim({ owner: 'after' })));
      const resent = await second.callbacks.claimCallbacks(claim({ owner: 'after' }));
      expect(resent.map((e) => e.messageId)).toEqual(ids);
    } finally {
      await second.close();
    }
  });

  it('never gives a seq twice, even after the newest history row is deleted', async () => {
    const store = await freshStore();
    try {
      await sendingEvents(store, BOB, 2);
      const db = store.database;
      const newest = (db.prepare('SELECT max(seq) AS seq FROM outbox_events').get() as { seq: number }).seq;
      db.prepare('DELETE FROM outbox_events WHERE seq = ?').run(newest);
      await sendingEvents(store, BOB, 1);
      const after = (db.prepare('SELECT max(seq) AS seq FROM outbox_events').get() as { seq: number }).seq;
      expect(after).toBeGreaterThan(newest);
    } finally {
      await store.close();
    }
  });

  it('passes over the history of accounts without a receiver, and moves the cursor past it', async () => {
    const store = await freshStore();
    try {
      await sendingEvents(store, BOB, 1_200);
      const [mine] = await sendingEvents(store, ALICE, 1);
      const events = await store.callbacks.claimCallbacks(claim());
      expect(events.map((e) => e.messageId)).toEqual([mine]);
      const newest = (store.database.prepare('SELECT max(seq) AS seq FROM outbox_events').get() as { seq: number }).seq;
      // The one event in flight holds `settled` back; everything read is behind `scanned`.
      expect(cursorOf(store)).toEqual({ scanned: newest, settled: newest - 1 });
      await store.callbacks.settleCallbacks('sender', [{ seq: events[0]!.seq, kind: 'sent' }]);
      expect(cursorOf(store)).toEqual({ scanned: newest, settled: newest });
      expect(await store.callbacks.callbackStats()).toEqual({ pending: 0, dead: 0, oldestPendingAt: null });
    } finally {
      await store.close();
    }
  });

  it('a receiver switched on reads from then on: the cursor skips the history before it, the sender is needed at once', async () => {
    const store = await freshStore();
    try {
      await store.updateAccount(ALICE, { callbackUrl: null });
      await sendingEvents(store, ALICE, 5);
      expect(await store.callbacks.callbackSenderNeeded()).toBe(false);
      await store.updateAccount(ALICE, { callbackUrl: 'https://hooks.example.com/' });
      expect(await store.callbacks.callbackSenderNeeded()).toBe(true);
      const newest = (store.database.prepare('SELECT max(seq) AS seq FROM outbox_events').get() as { seq: number }).seq;
      expect(cursorOf(store)).toEqual({ scanned: newest, settled: newest });
      const [later] = await sendingEvents(store, ALICE, 1);
      expect((await store.callbacks.claimCallbacks(claim())).map((e) => e.messageId)).toEqual([later]);
    } finally {
      await store.close();
    }
  });
});
