/**
 * The callback queue, part of the store contract (run by contract.ts on every store): a state
 * change queues its event in its own commit (a rolled-back one queues none), only for accounts
 * with a receiver that is not switched off; events are handed out oldest first, one per message
 * at a time, under a lease that runs out; outcomes, the 410 switch-off, re-queueing, listings and
 * counts mean the same on SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { CallbackClaim, CallbackEvent, CallbackStore } from '../../../service/store/callbacks.js';
import type { NewMessage, Store } from '../../../service/store/index.js';
import type { StoreFactory, StoreUnderTest } from './contract.js';

const T0 = 1_800_000_000_000;
const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const URL_A = 'https://hooks.example.com/sms';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A message of `account` (the callback tests' own: its text must never reach a callback). */
export const message = (account: string, smsto = '+14155550123'): NewMessage => ({
  account,
  keyword: 'ACME',
  smsto,
  carrierCode: 'att',
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg: 'never in a callback',
});

async function addAccounts(store: Store): Promise<void> {
  const row = { passwordHash: 'x', keywords: ['ACME'], disabled: false, createdAt: T0 };
  await store.insertAccount({ ...row, email: ALICE, callbackUrl: URL_A, callbackSecret: SECRET });
  await store.insertAccount({ ...row, email: BOB });
}

/** Claims every queued message at `at` (a `sending` event each); returns their ids in order. */
async function claimMessages(store: Store, at: number): Promise<string[]> {
  const claimed = await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: 100,
    owner: 'worker',
    now: at,
    leaseUntil: at + 60_000,
  });
  return claimed.map((m) => m.id);
}

const accepted = (id: string, at: number, peer: string) =>
  ({ kind: 'accepted', id, owner: 'worker', at, attempt: 1, route: 'smsc', peerIds: [peer] }) as const;
const delivered = (peer: string, at: number) =>
  ({
    kind: 'receipt',
    route: 'smsc',
    at,
    receipt: { peerId: peer, state: 'delivered', code: 'DELIVRD', text: 'ok' },
  }) as const;

const claim = (over: Partial<CallbackClaim> = {}): CallbackClaim => ({
  owner: 'sender-a',
  now: T0 + 10_000,
  leaseUntil: T0 + 40_000,
  limit: 100,
  ...over,
});

const shape = (events: CallbackEvent[]) => events.map((e) => [e.messageId, e.state, e.previousState, e.tries]);

async function using(factory: StoreFactory, run: (t: StoreUnderTest, callbacks: CallbackStore) => Promise<void>) {
  const t = await factory.fresh();
  try {
    await addAccounts(t.store);
    await run(t, t.store.callbacks);
  } finally {
    await t.dispose();
  }
}

export function describeCallbacks(factory: StoreFactory): void {
  describe('callback queue', () => {
    it('queues every committed change of an account with a receiver, with what the sender needs, and none of others', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        const b = (await store.enqueue(message(BOB))).id;
        expect(await claimMessages(store, T0 + 100)).toEqual([a, b]);
        await store.delivery.apply([accepted(a, T0 + 200, 'P1'), accepted(b, T0 + 200, 'P2')]);
        expect(await callbacks.callbackStats()).toEqual({ pending: 2, dead: 0, oldestPendingAt: T0 + 100 });
        const listed = await callbacks.listCallbacks({ limit: 10 });
        expect(listed.map((e) => [e.messageId, e.account, e.state, e.eventState])).toEqual([
          [a, ALICE, 'sending', 'pending'],
          [a, ALICE, 'accepted', 'pending'],
        ]);
        const [first] = await callbacks.claimCallbacks(claim());
        expect(first).toEqual({
          seq: listed[0]!.seq,
          messageId: a,
          account: ALICE,
          keyword: 'ACME',
          smsto: '+14155550123',
          state: 'sending',
          previousState: 'queued',
          at: T0 + 100,
          attempt: 1,
          route: 'smsc',
          smscId: null,
          errorCode: null,
          errorText: null,
          possibleDuplicate: false,
          url: URL_A,
          secret: SECRET,
          tries: 0,
          queuedAt: T0 + 100,
        } satisfies CallbackEvent);
      }));

    it('needs a sender once an account has a receiver, before its first change, and none while no account has one', async () => {
      const t = await factory.fresh();
      try {
        const row = { passwordHash: 'x', keywords: ['ACME'], disabled: false, createdAt: T0 };
        await t.store.insertAccount({ ...row, email: BOB });
        await t.store.enqueue(message(BOB));
        expect(await t.store.callbacks.callbackSenderNeeded()).toBe(false);
        await t.store.updateAccount(BOB, { callbackUrl: URL_A, callbackSecret: SECRET });
        expect(await t.store.callbacks.callbackSenderNeeded()).toBe(true);
        await t.store.updateAccount(BOB, { callbackUrl: null });
        expect(await t.store.callbacks.callbackSenderNeeded()).toBe(false);
      } finally {
        await t.dispose();
      }
    });

    it('queues nothing for a change that was rolled back', () =>
      using(factory, async (t, callbacks) => {
        if (t.rolledBack === undefined || t.pendingCallbacksSql === undefined)
          throw new Error('the factory must give rolledBack and pendingCallbacksSql');
        const a = (await t.store.enqueue(message(ALICE))).id;
        const inside = await t.rolledBack(
          `INSERT INTO outbox_events (message_id, at, state, attempt, route) VALUES ('${a}', ${T0}, 'sending', 1, 'smsc')`,
          t.pendingCallbacksSql,
        );
        // Queued inside the transaction, gone with it.
        expect(inside).toBe(1);
        expect(await callbacks.callbackStats()).toEqual({ pending: 0, dead: 0, oldestPendingAt: null });
        expect(await t.store.history(a)).toHaveLength(1);
      }));

    it('hands out oldest first, one event per message at a time, leased or not', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        const b = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 100);
        await store.delivery.apply([accepted(a, T0 + 200, 'P1'), accepted(b, T0 + 200, 'P2')]);
        await store.delivery.apply([delivered('P1', T0 + 300)]);
        // a: sending, accepted, delivered; b: sending, accepted.
        expect(shape(await callbacks.claimCallbacks(claim({ limit: 1 })))).toEqual([[a, 'sending', 'queued', 0]]);
        // a's sending is leased: nothing more of a, b's first.
        expect(shape(await callbacks.claimCallbacks(claim()))).toEqual([[b, 'sending', 'queued', 0]]);
        expect(await callbacks.claimCallbacks(claim())).toEqual([]);
        const leased = await callbacks.listCallbacks({ limit: 10 });
        await callbacks.settleCallbacks('sender-a', [{ seq: leased[0]!.seq, kind: 'sent' }]);
        expect(shape(await callbacks.claimCallbacks(claim()))).toEqual([[a, 'accepted', 'sending', 0]]);
        expect((await callbacks.listCallbacks({ messageId: a, limit: 10 })).map((e) => e.state)).toEqual([
          'accepted',
          'delivered',
        ]);
      }));

    it('gives an event back when its lease runs out, one try more; a late outcome of the old owner changes nothing', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 100);
        const [first] = await callbacks.claimCallbacks(claim({ leaseUntil: T0 + 20_000 }));
        expect(await callbacks.claimCallbacks(claim({ owner: 'sender-b', now: T0 + 19_999 }))).toEqual([]);
        const again = await callbacks.claimCallbacks(claim({ owner: 'sender-b', now: T0 + 20_000 }));
        expect(shape(again)).toEqual([[a, 'sending', 'queued', 1]]);
        expect(again[0]?.seq).toBe(first?.seq);
        await callbacks.settleCallbacks('sender-a', [{ seq: first!.seq, kind: 'sent' }]);
        expect((await callbacks.callbackStats()).pending).toBe(1);
        await callbacks.settleCallbacks('sender-b', [{ seq: first!.seq, kind: 'sent' }]);
        expect((await callbacks.callbackStats()).pending).toBe(0);
      }));

    it("renews its owner's leases only: a renewed event is not handed out until the new lease ends", () =>
      using(factory, async ({ store }, callbacks) => {
        await store.enqueue(message(ALICE));
        await claimMessages(store, T0 + 100);
        const [first] = await callbacks.claimCallbacks(claim({ leaseUntil: T0 + 20_000 }));
        await callbacks.renewCallbackLeases('sender-b', [first!.seq], T0 + 90_000);
        await callbacks.renewCallbackLeases('sender-a', [first!.seq], T0 + 60_000);
        expect(await callbacks.claimCallbacks(claim({ owner: 'sender-b', now: T0 + 59_999 }))).toEqual([]);
        const again = await callbacks.claimCallbacks(claim({ owner: 'sender-b', now: T0 + 60_000 }));
        expect(again.map((e) => e.seq)).toEqual([first!.seq]);
      }));

    it('settles sent, retry and dead in one batch; a dead event lets its message go on', () =>
      using(factory, async ({ store }, callbacks) => {
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await store.enqueue(message(ALICE, `+1415555000${i}`))).id);
        const [a, b, c] = ids as [string, string, string];
        await claimMessages(store, T0 + 100);
        await store.delivery.apply([
          accepted(a, T0 + 200, 'P1'),
          accepted(b, T0 + 200, 'P2'),
          accepted(c, T0 + 200, 'P3'),
        ]);
        const events = await callbacks.claimCallbacks(claim());
        expect(events.map((e) => e.messageId)).toEqual([a, b, c]);
        await callbacks.settleCallbacks('sender-a', [
          { seq: events[0]!.seq, kind: 'sent' },
          { seq: events[1]!.seq, kind: 'retry', nextAttemptAt: T0 + 50_000, error: 'HTTP 503' },
          { seq: events[2]!.seq, kind: 'dead', error: 'gave up after 50 tries' },
        ]);
        const listed = await callbacks.listCallbacks({ limit: 10 });
        expect(listed.map((e) => [e.messageId, e.state, e.eventState, e.tries, e.nextAttemptAt, e.lastError])).toEqual([
          [b, 'sending', 'pending', 1, T0 + 50_000, 'HTTP 503'],
          [c, 'sending', 'dead', 1, null, 'gave up after 50 tries'],
          [a, 'accepted', 'pending', 0, T0 + 200, null],
          [b, 'accepted', 'pending', 0, null, null],
          [c, 'accepted', 'pending', 0, T0 + 200, null],
        ]);
        expect(await callbacks.callbackStats()).toEqual({ pending: 4, dead: 1, oldestPendingAt: T0 + 100 });
        expect(shape(await callbacks.claimCallbacks(claim({ now: T0 + 49_999, leaseUntil: T0 + 200_000 })))).toEqual([
          [a, 'accepted', 'sending', 0],
          [c, 'accepted', 'sending', 0],
        ]);
        expect(shape(await callbacks.claimCallbacks(claim({ now: T0 + 50_000 })))).toEqual([
          [b, 'sending', 'queued', 1],
        ]);
      }));

    it("brings an account's events waiting for a later try forward, not its handed-out ones nor another account's", () =>
      using(factory, async ({ store }, callbacks) => {
        const carol = 'carol@example.com';
        const row = { passwordHash: 'x', keywords: ['ACME'], disabled: false, createdAt: T0 };
        await store.insertAccount({ ...row, email: carol, callbackUrl: URL_A, callbackSecret: SECRET });
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await store.enqueue(message(ALICE, `+1415555000${i}`))).id);
        const [a, b, c] = ids as [string, string, string];
        const d = (await store.enqueue(message(carol))).id;
        await claimMessages(store, T0 + 100);
        const events = await callbacks.claimCallbacks(claim());
        expect(events.map((e) => e.messageId)).toEqual([a, b, c, d]);
        const later = (e: CallbackEvent) => ({
          seq: e.seq,
          kind: 'retry' as const,
          nextAttemptAt: T0 + 500_000,
          error: 'ECONNREFUSED',
        });
        await callbacks.settleCallbacks('sender-a', [later(events[0]!), later(events[1]!), later(events[3]!)]);
        expect(await callbacks.hastenCallbacks(ALICE, T0 + 20_000)).toBe(2);
        const now = await callbacks.claimCallbacks(claim({ now: T0 + 20_000, leaseUntil: T0 + 80_000 }));
        expect(shape(now)).toEqual([
          [a, 'sending', 'queued', 1],
          [b, 'sending', 'queued', 1],
        ]);
        const waiting = await callbacks.listCallbacks({ messageId: d, limit: 10 });
        expect(waiting.map((e) => e.nextAttemptAt)).toEqual([T0 + 500_000]);
        expect(await callbacks.hastenCallbacks(ALICE, T0 + 20_000)).toBe(0);
      }));

    it('a 410 switches the account off: its pending events die, later changes are not queued until its URL is set again', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 100);
        await store.delivery.apply([accepted(a, T0 + 200, 'P1')]);
        await callbacks.disableCallbacks(ALICE, T0 + 300, 'the receiver answered 410 Gone');
        expect(await store.getAccount(ALICE)).toMatchObject({ callbackUrl: URL_A, callbacksDisabledAt: T0 + 300 });
        const dead = await callbacks.listCallbacks({ eventState: 'dead', limit: 10 });
        expect(dead.map((e) => [e.state, e.lastError])).toEqual([
          ['sending', 'the receiver answered 410 Gone'],
          ['accepted', 'the receiver answered 410 Gone'],
        ]);
        await store.delivery.apply([delivered('P1', T0 + 400)]);
        expect(await callbacks.callbackStats()).toEqual({ pending: 0, dead: 2, oldestPendingAt: null });
        expect(await callbacks.claimCallbacks(claim())).toEqual([]);
        // Setting the URL again is how an operator switches them back on.
        await store.updateAccount(ALICE, { callbackUrl: URL_A, callbacksDisabledAt: null });
        const b = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 500);
        const [inFlight] = await callbacks.claimCallbacks(claim());
        expect(shape([inFlight!])).toEqual([[b, 'sending', 'queued', 0]]);
        // Removing the URL kills what is pending; an event in flight dies when its try fails.
        await store.updateAccount(ALICE, { callbackUrl: null });
        await callbacks.settleCallbacks('sender-a', [
          { seq: inFlight!.seq, kind: 'retry', nextAttemptAt: T0 + 20_000, error: 'HTTP 503' },
        ]);
        expect(await callbacks.callbackStats()).toMatchObject({ pending: 0, dead: 3 });
        expect(await callbacks.claimCallbacks(claim({ now: T0 + 30_000 }))).toEqual([]);
      }));

    it('re-queues dead events by filter with a fresh budget, each message in order', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        const b = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 100);
        const events = await callbacks.claimCallbacks(claim());
        await callbacks.settleCallbacks(
          'sender-a',
          events.map((e) => ({ seq: e.seq, kind: 'dead' as const, error: 'refused' })),
        );
        await store.delivery.apply([accepted(a, T0 + 200, 'P1')]);
        expect(await callbacks.retryCallbacks({ messageId: b }, T0 + 60_000)).toBe(1);
        expect(await callbacks.retryCallbacks({ account: BOB }, T0 + 60_000)).toBe(0);
        expect(await callbacks.retryCallbacks({ account: ALICE }, T0 + 60_000)).toBe(1);
        const listed = await callbacks.listCallbacks({ eventState: 'pending', limit: 10 });
        expect(listed.map((e) => [e.messageId, e.state, e.tries, e.queuedAt, e.nextAttemptAt, e.lastError])).toEqual([
          [a, 'sending', 0, T0 + 60_000, T0 + 60_000, null],
          [b, 'sending', 0, T0 + 60_000, T0 + 60_000, null],
          [a, 'accepted', 0, T0 + 200, null, null],
        ]);
        // a's accepted was due before the retry; now it waits behind a's re-queued sending.
        expect(shape(await callbacks.claimCallbacks(claim({ now: T0 + 60_000 })))).toEqual([
          [a, 'sending', 'queued', 0],
          [b, 'sending', 'queued', 0],
        ]);
      }));

    it('lists by state, account, message and after a seq, oldest first, up to the limit', () =>
      using(factory, async ({ store }, callbacks) => {
        const a = (await store.enqueue(message(ALICE))).id;
        const b = (await store.enqueue(message(ALICE))).id;
        await claimMessages(store, T0 + 100);
        await store.delivery.apply([accepted(a, T0 + 200, 'P1'), accepted(b, T0 + 200, 'P2')]);
        const all = await callbacks.listCallbacks({ limit: 100 });
        expect(all.map((e) => [e.messageId, e.state])).toEqual([
          [a, 'sending'],
          [b, 'sending'],
          [a, 'accepted'],
          [b, 'accepted'],
        ]);
        expect((await callbacks.listCallbacks({ afterSeq: all[1]!.seq, limit: 100 })).map((e) => e.seq)).toEqual([
          all[2]!.seq,
          all[3]!.seq,
        ]);
        expect((await callbacks.listCallbacks({ messageId: b, limit: 1 })).map((e) => e.seq)).toEqual([all[1]!.seq]);
        expect(await callbacks.listCallbacks({ account: BOB, limit: 100 })).toEqual([]);
        expect(await callbacks.listCallbacks({ eventState: 'dead', limit: 100 })).toEqual([]);
      }));

    it('retention that deletes messages deletes their queued callbacks too', () =>
      using(factory, async ({ store }, callbacks) => {
        await store.enqueue(message(ALICE));
        await claimMessages(store, T0 + 100);
        const [event] = await callbacks.claimCallbacks(claim());
        await callbacks.settleCallbacks('sender-a', [{ seq: event!.seq, kind: 'dead', error: 'refused' }]);
        await store.delivery.apply([accepted(event!.messageId, T0 + 200, 'P1')]);
        expect(await callbacks.callbackStats()).toMatchObject({ pending: 1, dead: 1 });
        expect(await store.pruneOutbox(Date.now() + 1000, 'messages')).toBe(1);
        expect(await callbacks.callbackStats()).toEqual({ pending: 0, dead: 0, oldestPendingAt: null });
      }));
  });
}
