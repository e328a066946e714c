/**
 * The behaviour every store must have, written once and run against each implementation
 * (sqlite.test.ts, postgres.test.ts): accounts, enqueue with group commit, outbox reads, the
 * delivery engine's claims, leases, state changes, receipts, expiry and history. A store that
 * differs from SQLite in any of these fails here, not in production.
 */
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../../service/errors.js';
import { MESSAGE_ID_PATTERN } from '../../../service/store/ids.js';
import type { ClaimRequest, DeliveryChange, NewMessage, Store, StoreOptions } from '../../../service/store/index.js';
import { describeBatches } from './batch-contract.js';
import { describeCallbacks } from './callbacks-contract.js';
import { describeOperations } from './operations-contract.js';
import { describeReceiptContract } from './receipts-contract.js';

export interface StoreUnderTest {
  readonly store: Store;
  /** Another store (its own connection) on the same database, as a second instance would have. */
  another(options?: StoreOptions): Promise<Store>;
  dispose(): Promise<void>;
  /**
   * Runs `statements` in a transaction on the store's database, reads the number `count` selects
   * (as `n`) inside it, and rolls back: what a change that failed before its commit leaves.
   */
  rolledBack?(statements: string, count: string): Promise<number>;
  /** SQL that counts, as `n`, the callback events waiting to be sent (each store keeps them its own way). */
  readonly pendingCallbacksSql?: string;
}

export interface StoreFactory {
  /** Set when the store cannot be tested here: the suite skips with this one line. */
  readonly skip?: string | undefined;
  /**
   * The store is shared by several instances, so a receipt can come (on another instance's bind)
   * before the submit it answers is recorded: it must be kept and applied then. A store for one
   * instance leaves that to its engine, which waits for its own submits in flight.
   */
  readonly holdsEarlyReceipts?: boolean;
  /** A store on a fresh, empty database. */
  fresh(options?: StoreOptions): Promise<StoreUnderTest>;
}

export const message = (smsmsg = 'hello', carrierCode = 'att', segments = 1): NewMessage => ({
  account: 'alice@example.com',
  keyword: 'ACME',
  smsto: '+14155550123',
  carrierCode,
  encoding: 'gsm7',
  segments,
  port: null,
  smsmsg,
});

const T0 = 1_800_000_000_000;

function claimRequest(overrides: Partial<ClaimRequest> = {}): ClaimRequest {
  return {
    route: 'smsc',
    carriers: { except: [] },
    limit: 100,
    owner: 'worker-a',
    now: T0,
    leaseUntil: T0 + 30_000,
    ...overrides,
  };
}

async function using(factory: StoreFactory, run: (t: StoreUnderTest) => Promise<void>, options?: StoreOptions) {
  const t = await factory.fresh(options);
  try {
    await run(t);
  } finally {
    await t.dispose();
  }
}

export function describeStore(name: string, factory: StoreFactory): void {
  const suite = factory.skip === undefined ? describe : describe.skip;
  if (factory.skip !== undefined) console.log(`${name} store contract ${factory.skip}`);
  suite(`${name} store contract`, () => {
    describeAccounts(factory);
    describeEnqueue(factory);
    describeClaims(factory);
    describeChanges(factory);
    describeBatches(factory);
    if (factory.holdsEarlyReceipts === true) describeEarlyReceipts(factory);
    describeOperations(factory);
    describeReceiptContract(factory);
    describeCallbacks(factory);
  });
}

function describeEarlyReceipts(factory: StoreFactory): void {
  it('keeps a receipt that comes before its submit is recorded, and applies it with the accepted', () =>
    using(factory, async ({ store, another }) => {
      const second = await another();
      try {
        const { id } = await store.enqueue(message('early', 'att', 2));
        await store.delivery.claim(claimRequest());
        const early = (peerId: string): DeliveryChange => ({
          kind: 'receipt',
          route: 'smsc',
          at: T0 + 50,
          receipt: { peerId, state: 'delivered', code: 'DELIVRD', text: 'early' },
        });
        // Both parts' receipts reach the other instance first: nothing matches yet.
        expect(await second.delivery.apply([early('E1'), early('E2')])).toEqual([false, false]);
        expect(await store.getMessage(id)).toMatchObject({ state: 'sending' });
        const accepted = await store.delivery.apply([
          { kind: 'accepted', id, owner: 'worker-a', at: T0 + 60, attempt: 1, route: 'smsc', peerIds: ['E1', 'E2'] },
        ]);
        expect(accepted).toEqual([true]);
        expect(await store.getMessage(id)).toMatchObject({ state: 'delivered', smscId: 'E1' });
        expect((await store.history(id)).map((e) => e.state)).toEqual(['queued', 'sending', 'accepted', 'delivered']);
        // Applied once: the same ids later are plain late receipts, the message stays delivered.
        expect(await second.delivery.apply([early('E1')])).toEqual([true]);
        expect((await store.history(id)).filter((e) => e.state === 'delivered')).toHaveLength(1);
      } finally {
        await second.close();
      }
    }));

  it('settles every message when receipts race their accepted on two connections', () =>
    using(factory, async ({ store, another }) => {
      const second = await another();
      try {
        const ids: string[] = [];
        for (let i = 0; i < 30; i++) ids.push((await store.enqueue(message(`race${i}`))).id);
        await store.delivery.claim(claimRequest());
        await Promise.all(
          ids.flatMap((id, i) => [
            store.delivery.apply([
              { kind: 'accepted', id, owner: 'worker-a', at: T0 + 60, attempt: 1, route: 'smsc', peerIds: [`R${i}`] },
            ]),
            second.delivery.apply([
              {
                kind: 'receipt',
                route: 'smsc',
                at: T0 + 61,
                receipt: { peerId: `R${i}`, state: 'delivered', code: 'DELIVRD', text: 'x' },
              },
            ]),
          ]),
        );
        expect(await store.countByState()).toEqual({ delivered: 30 });
      } finally {
        await second.close();
      }
    }));
}

function describeAccounts(factory: StoreFactory): void {
  describe('accounts', () => {
    it('inserts, reads, lists in order and updates each field; unknown accounts are undefined / false', () =>
      using(factory, async ({ store }) => {
        const row = {
          email: 'b@example.com',
          passwordHash: 'h1',
          keywords: ['ACME', 'BETA'],
          disabled: false,
          createdAt: T0,
          test: false,
          lockedUntil: null,
          unlockedAt: null,
          callbackUrl: null,
          callbackSecret: null,
          callbacksDisabledAt: null,
        };
        await store.insertAccount(row);
        await store.insertAccount({ ...row, email: 'a@example.com', keywords: [] });
        expect(await store.getAccount('b@example.com')).toEqual(row);
        expect((await store.listAccounts()).map((a) => a.email)).toEqual(['a@example.com', 'b@example.com']);
        expect(await store.updateAccount('b@example.com', { disabled: true })).toBe(true);
        expect(await store.updateAccount('b@example.com', { keywords: ['GAMMA'], passwordHash: 'h2' })).toBe(true);
        expect(await store.getAccount('b@example.com')).toEqual({
          ...row,
          disabled: true,
          keywords: ['GAMMA'],
          passwordHash: 'h2',
        });
        expect(await store.updateAccount('b@example.com', {})).toBe(true);
        // Test accounts and lockouts (smskit account test|unlock; a server's lockout).
        expect(
          await store.updateAccount('b@example.com', { test: true, lockedUntil: T0 + 5, unlockedAt: T0 + 1 }),
        ).toBe(true);
        expect(await store.getAccount('b@example.com')).toMatchObject({
          test: true,
          lockedUntil: T0 + 5,
          unlockedAt: T0 + 1,
        });
        expect(await store.updateAccount('b@example.com', { lockedUntil: null })).toBe(true);
        expect(await store.getAccount('b@example.com')).toMatchObject({
          test: true,
          lockedUntil: null,
          unlockedAt: T0 + 1,
        });
        // Callbacks (smskit account set; a receiver's 410).
        const callback = { callbackUrl: 'https://hooks.example.com/x', callbackSecret: 'whsec_c2VjcmV0' };
        expect(await store.updateAccount('b@example.com', { ...callback, callbacksDisabledAt: T0 + 9 })).toBe(true);
        expect(await store.getAccount('b@example.com')).toMatchObject({ ...callback, callbacksDisabledAt: T0 + 9 });
        expect(await store.updateAccount('b@example.com', { callbacksDisabledAt: null })).toBe(true);
        expect((await store.listAccounts())[1]).toMatchObject({ ...callback, callbacksDisabledAt: null });
        expect(await store.updateAccount('nobody@example.com', { disabled: true })).toBe(false);
        expect(await store.getAccount('nobody@example.com')).toBeUndefined();
      }));

    it('refuses a second account with the same address with a StorageError', () =>
      using(factory, async ({ store }) => {
        const row = { email: 'a@example.com', passwordHash: 'h', keywords: ['K'], disabled: false, createdAt: T0 };
        await store.insertAccount(row);
        await expect(store.insertAccount(row)).rejects.toBeInstanceOf(StorageError);
      }));
  });
}

function describeEnqueue(factory: StoreFactory): void {
  describe('enqueue and outbox reads', () => {
    it('commits concurrent messages in batches, tells onCommitted, and answers each with its id in acceptance order', () =>
      using(factory, async ({ store, another }) => {
        const committed: number[] = [];
        store.onCommitted((count) => committed.push(count));
        const ids = await Promise.all(Array.from({ length: 50 }, (_, i) => store.enqueue(message(`m${i}`))));
        for (const { id } of ids) expect(id).toMatch(MESSAGE_ID_PATTERN);
        expect(committed.reduce((a, b) => a + b, 0)).toBe(50);
        expect(committed.length).toBeLessThan(50); // grouped: fewer commits than messages
        // Committed, i.e. visible to another connection, as soon as the promise resolved.
        const observer = await another();
        try {
          expect(await observer.countOutbox()).toBe(50);
          expect((await observer.listOutbox()).map((m) => m.smsmsg)).toEqual(ids.map((_, i) => `m${i}`));
        } finally {
          await observer.close();
        }
      }));

    it('commits in batches of maxBatch', () =>
      using(
        factory,
        async ({ store }) => {
          const committed: number[] = [];
          store.onCommitted((count) => committed.push(count));
          await Promise.all(Array.from({ length: 10 }, (_, i) => store.enqueue(message(`m${i}`))));
          expect(Math.max(...committed)).toBeLessThanOrEqual(3);
          expect(committed.reduce((a, b) => a + b, 0)).toBe(10);
        },
        { maxBatch: 3 },
      ));

    it('stores every field, pages by id, counts by state, and keeps test messages out of delivery', () =>
      using(
        factory,
        async ({ store }) => {
          const first = await store.enqueue({ ...message('€ [x] 😀'), encoding: 'ucs2', port: 5000, segments: 2 });
          const second = await store.enqueue(message('two'), 'test');
          const third = await store.enqueue(message('three'));
          expect(await store.getMessage(first.id)).toEqual({
            ...message('€ [x] 😀'),
            encoding: 'ucs2',
            port: 5000,
            segments: 2,
            id: first.id,
            createdAt: T0,
            updatedAt: T0,
            state: 'queued',
            attempts: 0,
            route: null,
            smscId: null,
            errorCode: null,
            errorText: null,
            possibleDuplicate: false,
          });
          expect(await store.getMessage('SMS-00000000000000000000000000')).toBeUndefined();
          expect((await store.listOutbox({ limit: 2 })).map((m) => m.id)).toEqual([first.id, second.id]);
          expect((await store.listOutbox({ afterId: first.id })).map((m) => m.id)).toEqual([second.id, third.id]);
          expect(await store.listOutbox({ limit: 0 })).toEqual([]);
          expect(await store.countOutbox()).toBe(3);
          expect(await store.countByState()).toEqual({ queued: 2, test: 1 });
          expect(await store.delivery.claim(claimRequest())).toHaveLength(2);
          expect((await store.history(second.id)).map((e) => e.state)).toEqual(['test']);
          expect(await store.history('SMS-00000000000000000000000000')).toEqual([]);
        },
        { clock: () => T0 },
      ));

    it('refuses messages after close with StorageClosed, having committed what was queued', () =>
      using(factory, async ({ store, another }) => {
        const pending = store.enqueue(message('last'));
        await store.close();
        await expect(pending).resolves.toMatchObject({ id: expect.stringMatching(MESSAGE_ID_PATTERN) });
        await expect(store.enqueue(message('late'))).rejects.toMatchObject({ code: 'StorageClosed' });
        const observer = await another();
        try {
          expect(await observer.countOutbox()).toBe(1);
        } finally {
          await observer.close();
        }
      }));
  });
}

function describeClaims(factory: StoreFactory): void {
  describe('claims and leases', () => {
    it('claims due messages in acceptance order, up to the limit, for the route carriers only', () =>
      using(factory, async ({ store }) => {
        const ids: string[] = [];
        for (const carrier of ['att', 'vzw', 'att', 'tmo', 'att'])
          ids.push((await store.enqueue(message(carrier, carrier))).id);
        expect(await store.delivery.claim(claimRequest({ carriers: { only: [] } }))).toEqual([]);
        const vzw = await store.delivery.claim(claimRequest({ carriers: { only: ['vzw', 'tmo'] } }));
        expect(vzw.map((m) => m.id)).toEqual([ids[1], ids[3]]);
        const two = await store.delivery.claim(claimRequest({ carriers: { except: ['vzw', 'tmo'] }, limit: 2 }));
        expect(two.map((m) => m.id)).toEqual([ids[0], ids[2]]);
        expect(two[0]).toMatchObject({
          smsmsg: 'att',
          carrierCode: 'att',
          smsto: '+14155550123',
          encoding: 'gsm7',
          segments: 1,
          port: null,
          attempt: 1,
          possibleDuplicate: false,
        });
        const rest = await store.delivery.claim(claimRequest());
        expect(rest.map((m) => m.id)).toEqual([ids[4]]);
        expect(await store.delivery.claim(claimRequest())).toEqual([]);
        expect(await store.getMessage(ids[0] ?? '')).toMatchObject({
          state: 'sending',
          attempts: 1,
          route: 'smsc',
          updatedAt: T0,
        });
        expect((await store.history(ids[0] ?? '')).map((e) => [e.state, e.attempt, e.route])).toEqual([
          ['queued', 0, null],
          ['sending', 1, 'smsc'],
        ]);
      }));

    it('never gives one message to two claimers at once (two connections claiming together)', () =>
      using(factory, async ({ store, another }) => {
        for (let i = 0; i < 40; i++) await store.enqueue(message(`m${i}`));
        const second = await another();
        try {
          const claimed: string[][] = [[], []];
          const claimers = [store, second].map(async (s, index) => {
            for (let round = 0; round < 20; round++) {
              const got = await s.delivery.claim(claimRequest({ owner: `w${index}`, limit: 3 }));
              claimed[index]?.push(...got.map((m) => m.id));
            }
          });
          await Promise.all(claimers);
          const all = [...(claimed[0] ?? []), ...(claimed[1] ?? [])];
          expect(new Set(all).size).toBe(all.length);
          expect(all).toHaveLength(40);
        } finally {
          await second.close();
        }
      }));

    it('takes back an expired lease as a possible duplicate; a renewed one stays; the old owner can no longer answer', () =>
      using(factory, async ({ store }) => {
        const a = (await store.enqueue(message('a'))).id;
        const b = (await store.enqueue(message('b'))).id;
        await store.delivery.claim(claimRequest({ owner: 'w1', limit: 1, leaseUntil: T0 + 1000 }));
        await store.delivery.claim(claimRequest({ owner: 'w2', limit: 1, leaseUntil: T0 + 1000 }));
        await store.delivery.renewLeases('w2', T0 + 5000, T0 + 500);
        expect(await store.delivery.recoverExpiredLeases(T0 + 1000)).toBe(0); // lease_until < now only
        expect(await store.delivery.recoverExpiredLeases(T0 + 2000)).toBe(1);
        expect(await store.getMessage(a)).toMatchObject({
          state: 'queued',
          possibleDuplicate: true,
          errorCode: 'LEASE_EXPIRED',
          attempts: 1,
        });
        expect(await store.getMessage(b)).toMatchObject({ state: 'sending' });
        const late = await store.delivery.apply([
          { kind: 'accepted', id: a, owner: 'w1', at: T0 + 2100, attempt: 1, route: 'smsc', peerIds: ['p'] },
        ]);
        expect(late).toEqual([false]);
        const again = await store.delivery.claim(claimRequest({ owner: 'w3', now: T0 + 2000 }));
        expect(again).toMatchObject([{ id: a, attempt: 2, possibleDuplicate: true }]);
        const history = await store.history(a);
        expect(history.map((e) => [e.state, e.attempt, e.code])).toEqual([
          ['queued', 0, null],
          ['sending', 1, null],
          ['queued', 1, 'LEASE_EXPIRED'],
          ['sending', 2, null],
        ]);
      }));

    it('claims only messages whose next attempt is due', () =>
      using(factory, async ({ store }) => {
        const { id } = await store.enqueue(message());
        await store.delivery.claim(claimRequest());
        const requeue: DeliveryChange = {
          kind: 'requeue',
          id,
          owner: 'worker-a',
          at: T0,
          attempt: 1,
          route: 'smsc',
          nextAttemptAt: T0 + 5000,
          code: 'ESME_RSYSERR',
          text: 'system error',
          maybeSent: false,
        };
        expect(await store.delivery.apply([requeue])).toEqual([true]);
        expect(await store.delivery.claim(claimRequest({ now: T0 + 4999 }))).toEqual([]);
        expect(await store.delivery.claim(claimRequest({ now: T0 + 5000 }))).toMatchObject([
          { id, attempt: 2, possibleDuplicate: false },
        ]);
      }));

    it('expires queued messages accepted before the cut-off, with a history event', () =>
      using(
        factory,
        async ({ store }) => {
          const { id } = await store.enqueue(message());
          expect(await store.delivery.expireOverdue(T0, T0 + 10)).toBe(0);
          expect(await store.delivery.expireOverdue(T0 + 1, T0 + 10)).toBe(1);
          expect(await store.getMessage(id)).toMatchObject({
            state: 'expired',
            errorCode: 'VALIDITY',
            updatedAt: T0 + 10,
          });
          expect((await store.history(id)).at(-1)).toMatchObject({ state: 'expired', code: 'VALIDITY', at: T0 + 10 });
          expect(await store.delivery.expireOverdue(T0 + 1, T0 + 20)).toBe(0);
        },
        { clock: () => T0 },
      ));
  });
}

function describeChanges(factory: StoreFactory): void {
  describe('state changes and receipts', () => {
    const owned = (id: string, attempt = 1) => ({ id, owner: 'worker-a', at: T0 + 100, attempt, route: 'smsc' });

    it('records accepted, requeue, final and released changes, each only for the owner, in one batch', () =>
      using(factory, async ({ store }) => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push((await store.enqueue(message(`m${i}`))).id);
        await store.delivery.claim(claimRequest());
        const [a, b, c, d, e] = ids as [string, string, string, string, string];
        const result = await store.delivery.apply([
          { kind: 'accepted', ...owned(a), peerIds: ['peer-a'] },
          {
            kind: 'requeue',
            ...owned(b),
            nextAttemptAt: T0 + 1000,
            code: 'ESME_RTHROTTLED',
            text: 'throttled',
            maybeSent: true,
          },
          { kind: 'final', ...owned(c), state: 'rejected', code: 'ESME_RINVDSTADR', text: 'invalid destination' },
          { kind: 'released', ...owned(d) },
          { kind: 'accepted', ...owned(e), owner: 'someone-else', peerIds: ['x'] },
          { kind: 'final', ...owned('SMS-00000000000000000000000000'), state: 'failed', code: 'X', text: 'x' },
        ]);
        expect(result).toEqual([true, true, true, true, false, false]);
        expect(await store.getMessage(a)).toMatchObject({
          state: 'accepted',
          smscId: 'peer-a',
          errorCode: null,
          updatedAt: T0 + 100,
        });
        expect(await store.getMessage(b)).toMatchObject({
          state: 'queued',
          possibleDuplicate: true,
          errorCode: 'ESME_RTHROTTLED',
          attempts: 1,
        });
        expect(await store.getMessage(c)).toMatchObject({
          state: 'rejected',
          errorCode: 'ESME_RINVDSTADR',
          errorText: 'invalid destination',
        });
        expect(await store.getMessage(d)).toMatchObject({ state: 'queued', attempts: 0, possibleDuplicate: false });
        expect(await store.getMessage(e)).toMatchObject({ state: 'sending' });
        expect((await store.history(a)).at(-1)).toMatchObject({
          state: 'accepted',
          smscId: 'peer-a',
          attempt: 1,
          route: 'smsc',
        });
        expect((await store.history(b)).at(-1)).toMatchObject({
          state: 'queued',
          attempt: 1,
          code: 'ESME_RTHROTTLED',
          text: 'throttled',
        });
        expect((await store.history(c)).at(-1)).toMatchObject({
          state: 'rejected',
          attempt: 1,
          route: 'smsc',
          code: 'ESME_RINVDSTADR',
          text: 'invalid destination',
        });
        expect((await store.history(d)).at(-1)).toMatchObject({
          state: 'queued',
          attempt: 0,
          text: 'returned to the queue unsent at shutdown',
        });
        expect(await store.countByState()).toEqual({ accepted: 1, queued: 2, rejected: 1, sending: 1 });
        // A later requeue without maybeSent keeps the earlier possible-duplicate flag.
        await store.delivery.claim(claimRequest({ now: T0 + 1000 }));
        await store.delivery.apply([
          { kind: 'requeue', ...owned(b, 2), nextAttemptAt: T0, code: 'E', text: 'e', maybeSent: false },
        ]);
        expect(await store.getMessage(b)).toMatchObject({ possibleDuplicate: true });
      }));

    it('settles a long message delivered only when every part of the attempt is, a failed part at once, and answers false for unknown ids', () =>
      using(factory, async ({ store }) => {
        const long = (await store.enqueue(message('long', 'att', 3))).id;
        const other = (await store.enqueue(message('other', 'att', 2))).id;
        await store.delivery.claim(claimRequest());
        await store.delivery.apply([
          { kind: 'accepted', ...owned(long), peerIds: ['L1', 'L2', 'L3'] },
          { kind: 'accepted', ...owned(other), peerIds: ['O1', 'O2'] },
        ]);
        const receipt = (peerId: string, state: 'delivered' | 'undeliverable', route = 'smsc'): DeliveryChange => ({
          kind: 'receipt',
          route,
          at: T0 + 200,
          receipt: { peerId, state, code: state === 'delivered' ? 'DELIVRD' : 'UNDELIV', text: `stat:${state}` },
        });
        expect(await store.delivery.apply([receipt('L1', 'delivered'), receipt('L3', 'delivered')])).toEqual([
          true,
          true,
        ]);
        expect(await store.getMessage(long)).toMatchObject({ state: 'accepted' });
        expect(await store.delivery.apply([receipt('L2', 'delivered')])).toEqual([true]);
        expect(await store.getMessage(long)).toMatchObject({
          state: 'delivered',
          errorCode: null,
          updatedAt: T0 + 200,
        });
        expect((await store.history(long)).at(-1)).toMatchObject({ state: 'delivered', smscId: 'L2', code: 'DELIVRD' });
        expect(await store.delivery.apply([receipt('O2', 'undeliverable')])).toEqual([true]);
        expect(await store.getMessage(other)).toMatchObject({
          state: 'undeliverable',
          errorCode: 'UNDELIV',
          errorText: 'stat:undeliverable',
        });
        // A late receipt for a settled message updates its part only; unknown ids and other routes match nothing.
        expect(
          await store.delivery.apply([
            receipt('O1', 'delivered'),
            receipt('nope', 'delivered'),
            receipt('L1', 'delivered', 'other-route'),
          ]),
        ).toEqual([true, false, false]);
        expect(await store.getMessage(other)).toMatchObject({ state: 'undeliverable' });
        expect((await store.history(other)).filter((e) => e.state === 'undeliverable')).toHaveLength(1);
      }));

    it('keeps hostile text from the peer as it came (quotes, backslashes, placeholders)', () =>
      using(factory, async ({ store }) => {
        const { id } = await store.enqueue(message('hostile'));
        await store.delivery.claim(claimRequest());
        const peerId = `it's \\ $1 ${'\u{1F600}'}`;
        const text = `stat:UNDELIV err:'); DROP TABLE outbox; -- $2 \\x00`;
        await store.delivery.apply([{ kind: 'accepted', ...owned(id), peerIds: [peerId] }]);
        const applied = await store.delivery.apply([
          {
            kind: 'receipt',
            route: 'smsc',
            at: T0 + 200,
            receipt: { peerId, state: 'undeliverable', code: "E'1", text },
          },
        ]);
        expect(applied).toEqual([true]);
        expect(await store.getMessage(id)).toMatchObject({
          state: 'undeliverable',
          smscId: peerId,
          errorCode: "E'1",
          errorText: text,
        });
      }));

    it('settles a long message whose parts are receipted at once on two connections', () =>
      using(factory, async ({ store, another }) => {
        const second = await another();
        try {
          const ids: string[] = [];
          for (let i = 0; i < 10; i++) ids.push((await store.enqueue(message(`m${i}`, 'att', 2))).id);
          await store.delivery.claim(claimRequest());
          await store.delivery.apply(
            ids.map((id, i) => ({ kind: 'accepted' as const, ...owned(id), peerIds: [`a${i}`, `b${i}`] })),
          );
          const receipt = (peerId: string): DeliveryChange => ({
            kind: 'receipt',
            route: 'smsc',
            at: T0 + 300,
            receipt: { peerId, state: 'delivered', code: 'DELIVRD', text: 'ok' },
          });
          await Promise.all(
            ids.flatMap((_, i) => [
              store.delivery.apply([receipt(`a${i}`)]),
              second.delivery.apply([receipt(`b${i}`)]),
            ]),
          );
          expect(await store.countByState()).toEqual({ delivered: 10 });
        } finally {
          await second.close();
        }
      }));
  });
}
