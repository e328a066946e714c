/**
 * The operator's reads and retention, part of the store contract (run by contract.ts on every
 * store): filtered listings newest first, the history stream `smskit outbox --follow` reads with
 * a cursor, and pruning whole messages or only their text — the same answers on SQLite and
 * PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { NewMessage, Store } from '../../../service/store/index.js';
import type { StoreFactory } from './contract.js';

const T0 = 1_800_000_000_000;

const message = (smsto: string, account = 'alice@example.com'): NewMessage => ({
  account,
  keyword: 'ACME',
  smsto,
  carrierCode: 'att',
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg: 'private text',
});

/** Claims everything and records `accepted` for `id`, the rest `rejected`: two events each. */
async function settle(store: Store, accepted: string, now: number): Promise<void> {
  const claimed = await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: 100,
    owner: 'w',
    now,
    leaseUntil: now + 60_000,
  });
  await store.delivery.apply(
    claimed.map((m) => {
      const owned = { id: m.id, owner: 'w', at: now, attempt: m.attempt, route: 'smsc' };
      return m.id === accepted
        ? { ...owned, kind: 'accepted' as const, peerIds: ['peer-1'] }
        : { ...owned, kind: 'final' as const, state: 'rejected' as const, code: 'X', text: 'refused' };
    }),
  );
}

export function describeOperations(factory: StoreFactory): void {
  describe('operations: status and retention', () => {
    it('finds messages newest first by state, smsto, account and time; streams the history after a cursor', async () => {
      let now = T0;
      const t = await factory.fresh({ clock: () => now });
      try {
        const { store } = t;
        const a = (await store.enqueue(message('+15550000001'))).id;
        now += 60_000;
        const b = (await store.enqueue(message('+15550000002', 'bob@example.com'))).id;
        now += 60_000;
        const c = (await store.enqueue(message('+15550000001'), 'test')).id;
        const cursor = await store.lastHistorySeq();
        await settle(store, a, now);
        const ids = async (query: Parameters<Store['findOutbox']>[0]) =>
          (await store.findOutbox(query)).map((m) => m.id);
        expect(await ids({})).toEqual([c, b, a]);
        expect(await ids({ order: 'oldest', limit: 2 })).toEqual([a, b]);
        expect(await ids({ states: ['accepted', 'test'] })).toEqual([c, a]);
        expect(await ids({ smsto: '+15550000001' })).toEqual([c, a]);
        expect(await ids({ account: 'bob@example.com' })).toEqual([b]);
        expect(await ids({ since: T0 + 60_000 })).toEqual([c, b]);
        const changes = await store.historyAfter(cursor, 100);
        expect(changes.map((e) => [e.messageId, e.state])).toEqual([
          [a, 'sending'],
          [b, 'sending'],
          [a, 'accepted'],
          [b, 'rejected'],
        ]);
        expect(changes.map((e) => e.seq)).toEqual([...changes.map((e) => e.seq)].sort((x, y) => x - y));
        expect(await store.historyAfter(changes.at(-1)?.seq ?? 0, 100)).toEqual([]);
        expect(await store.lastHistorySeq()).toBe(changes.at(-1)?.seq);
      } finally {
        await t.dispose();
      }
    });

    it('prunes text or whole messages accepted before a time, only once they will not be sent again', async () => {
      let now = T0;
      const t = await factory.fresh({ clock: () => now });
      try {
        const { store } = t;
        const sent = (await store.enqueue(message('+15550000001'))).id;
        const refused = (await store.enqueue(message('+15550000002'))).id;
        await settle(store, sent, now);
        const waiting = (await store.enqueue(message('+15550000003'))).id;
        now += 86_400_000;
        const recent = (await store.enqueue(message('+15550000004'), 'test')).id;
        expect(await store.pruneOutbox(now - 1, 'text')).toBe(2);
        expect((await store.getMessage(sent))?.smsmsg).toBe('');
        expect((await store.history(sent)).length).toBe(3);
        expect((await store.getMessage(waiting))?.smsmsg).toBe('private text');
        expect((await store.getMessage(recent))?.smsmsg).toBe('private text');
        expect(await store.pruneOutbox(now - 1, 'messages')).toBe(2);
        expect(await store.getMessage(refused)).toBeUndefined();
        expect(await store.history(sent)).toEqual([]);
        expect((await store.findOutbox({})).map((m) => m.id)).toEqual([recent, waiting]);
      } finally {
        await t.dispose();
      }
    });
  });
}
