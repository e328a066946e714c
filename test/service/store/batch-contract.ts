/**
 * One batch of delivery changes must mean what its changes mean one by one, in order, on every
 * store (run by contract.ts): SQLite applies them one by one, PostgreSQL as a few set-based
 * statements over the whole batch, so the cases where order inside a batch matters are written
 * here — a message's accepted and its receipts together, a failed and a delivered part together,
 * a message named twice.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryChange, Store } from '../../../service/store/index.js';
import type { ReceiptState } from '../../../service/store/records.js';
import { message, type StoreFactory } from './contract.js';

const T0 = 1_800_000_000_000;

const owned = (id: string) => ({ id, owner: 'worker-a', at: T0 + 100, attempt: 1, route: 'smsc' });

const receipt = (peerId: string, state: ReceiptState, at = T0 + 200): DeliveryChange => ({
  kind: 'receipt',
  route: 'smsc',
  at,
  receipt: { peerId, state, code: `code-${peerId}`, text: `text-${peerId}` },
});

async function claimAll(store: Store): Promise<void> {
  await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: 1000,
    owner: 'worker-a',
    now: T0,
    leaseUntil: T0 + 60_000,
  });
}

export function describeBatches(factory: StoreFactory): void {
  describe('a batch means its changes one by one', () => {
    it('settles on the receipt that completes the message, or on its first failed one', async () => {
      const { store, dispose } = await factory.fresh();
      try {
        const together = (await store.enqueue(message('together', 'att', 2))).id;
        const mixed = (await store.enqueue(message('mixed', 'att', 2))).id;
        const failures = (await store.enqueue(message('failures', 'att', 2))).id;
        const twice = (await store.enqueue(message('twice'))).id;
        await claimAll(store);
        await store.delivery.apply([
          { kind: 'accepted', ...owned(mixed), peerIds: ['M1', 'M2'] },
          { kind: 'accepted', ...owned(failures), peerIds: ['F1', 'F2'] },
        ]);
        const applied = await store.delivery.apply([
          { kind: 'accepted', ...owned(together), peerIds: ['T1', 'T2'] },
          receipt('T2', 'delivered', T0 + 201),
          receipt('M1', 'delivered'),
          receipt('T1', 'delivered', T0 + 202),
          receipt('F2', 'rejected', T0 + 203),
          receipt('M2', 'undeliverable', T0 + 204),
          receipt('F1', 'undeliverable', T0 + 205),
          { kind: 'final', ...owned(twice), state: 'failed', code: 'FIRST', text: 'first' },
          { kind: 'requeue', ...owned(twice), nextAttemptAt: T0, code: 'SECOND', text: 'second', maybeSent: false },
        ]);
        expect(applied).toEqual([true, true, true, true, true, true, true, true, false]);
        expect(await store.getMessage(together)).toMatchObject({ state: 'delivered', updatedAt: T0 + 202 });
        expect((await store.history(together)).map((e) => [e.state, e.smscId])).toEqual([
          ['queued', null],
          ['sending', null],
          ['accepted', 'T1'],
          ['delivered', 'T1'],
        ]);
        expect(await store.getMessage(mixed)).toMatchObject({ state: 'undeliverable', errorCode: 'code-M2' });
        expect(await store.getMessage(failures)).toMatchObject({
          state: 'rejected',
          errorCode: 'code-F2',
          errorText: 'text-F2',
          updatedAt: T0 + 203,
        });
        expect((await store.history(failures)).filter((e) => e.state !== 'queued' && e.state !== 'sending')).toEqual([
          expect.objectContaining({ state: 'accepted' }),
          expect.objectContaining({ state: 'rejected', smscId: 'F2', code: 'code-F2' }),
        ]);
        expect(await store.getMessage(twice)).toMatchObject({ state: 'failed', errorCode: 'FIRST' });
        expect((await store.history(twice)).map((e) => e.state)).toEqual(['queued', 'sending', 'failed']);
      } finally {
        await dispose();
      }
    });

    it('answers every change of a large batch in its place', async () => {
      const { store, dispose } = await factory.fresh();
      try {
        const ids: string[] = [];
        for (let i = 0; i < 150; i++) ids.push((await store.enqueue(message(`m${i}`))).id);
        await claimAll(store);
        // Every third change names a message that is not the owner's: false in its place.
        const changes: DeliveryChange[] = ids.map((id, i) =>
          i % 3 === 0
            ? { kind: 'accepted', ...owned(id), owner: 'worker-b', peerIds: [`P${i}`] }
            : { kind: 'accepted', ...owned(id), peerIds: [`P${i}`] },
        );
        const applied = await store.delivery.apply(changes);
        expect(applied).toEqual(ids.map((_, i) => i % 3 !== 0));
        const receipts = await store.delivery.apply(ids.map((_, i) => receipt(`P${i}`, 'delivered')));
        expect(receipts).toEqual(applied);
        expect(await store.countByState()).toEqual({ delivered: 100, sending: 50 });
      } finally {
        await dispose();
      }
    });
  });
}
