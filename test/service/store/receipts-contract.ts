/**
 * The store contract for what an SMSC's receipts can leave behind (run by contract.ts against
 * every store): the receipt timeout (accepted messages of one route, older than the cut-off,
 * become `unknown` with a history event; younger ones, other routes' and settled ones do not),
 * and a receipt that comes after the timeout still recording the true outcome, history keeping both.
 */
import { expect, it } from 'vitest';
import type { ClaimRequest, DeliveryChange, StoreOptions } from '../../../service/store/index.js';
import type { StoreFactory, StoreUnderTest } from './contract.js';
import { message } from './contract.js';

const T0 = 1_800_000_000_000;

async function using(factory: StoreFactory, run: (t: StoreUnderTest) => Promise<void>, options?: StoreOptions) {
  const t = await factory.fresh(options);
  try {
    await run(t);
  } finally {
    await t.dispose();
  }
}

const claim = (route: string, now: number): ClaimRequest => ({
  route,
  carriers: { except: [] },
  limit: 1,
  owner: 'worker-a',
  now,
  leaseUntil: now + 30_000,
});

const accepted = (id: string, route: string, at: number, peerIds: string[], attempt = 1): DeliveryChange => ({
  kind: 'accepted',
  id,
  owner: 'worker-a',
  at,
  attempt,
  route,
  peerIds,
});

const receipt = (route: string, peerId: string, at: number): DeliveryChange => ({
  kind: 'receipt',
  route,
  at,
  receipt: { peerId, state: 'delivered', code: 'DELIVRD', text: 'stat:DELIVRD err:000' },
});

export function describeReceiptContract(factory: StoreFactory): void {
  it('times out receipts: old accepted messages of the route become unknown; a later receipt still settles them', () =>
    using(factory, async ({ store }) => {
      const ids: string[] = [];
      const sent: Array<[string, number, string[]]> = [
        ['smsc', T0, ['A1']], // old: times out
        ['smsc', T0 + 5_000, ['B1']], // younger than the cut-off: stays accepted
        ['other', T0, ['C1']], // another route: its own timeout
        ['smsc', T0, ['D1']], // receipted before the sweep: stays delivered
      ];
      for (const [route, at, peerIds] of sent) {
        const { id } = await store.enqueue(message(`to ${peerIds[0]}`));
        ids.push(id);
        await store.delivery.claim(claim(route, at));
        expect(await store.delivery.apply([accepted(id, route, at, peerIds)])).toEqual([true]);
      }
      await store.delivery.apply([receipt('smsc', 'D1', T0 + 100)]);
      const text = 'no delivery receipt within 1 s (receiptTimeout)';
      const request = { route: 'smsc', acceptedBefore: T0 + 1_000, now: T0 + 6_000, text, limit: 100 };
      expect(await store.delivery.timeOutReceipts(request)).toBe(1);
      const [a, b, c, d] = ids as [string, string, string, string];
      expect(await store.getMessage(a)).toMatchObject({
        state: 'unknown',
        errorCode: 'RECEIPT_TIMEOUT',
        errorText: text,
      });
      expect((await store.getMessage(b))?.state).toBe('accepted');
      expect((await store.getMessage(c))?.state).toBe('accepted');
      expect((await store.getMessage(d))?.state).toBe('delivered');
      expect((await store.history(a)).at(-1)).toMatchObject({
        state: 'unknown',
        code: 'RECEIPT_TIMEOUT',
        smscId: 'A1',
      });
      // Idempotent: a second sweep finds nothing more.
      expect(await store.delivery.timeOutReceipts(request)).toBe(0);
      // The receipt comes after all: the true outcome, and the history keeps both.
      expect(await store.delivery.apply([receipt('smsc', 'A1', T0 + 7_000)])).toEqual([true]);
      expect(await store.getMessage(a)).toMatchObject({ state: 'delivered', errorCode: null });
      expect((await store.history(a)).map((e) => e.state)).toEqual([
        'queued',
        'sending',
        'accepted',
        'unknown',
        'delivered',
      ]);
      expect((await store.countByState()).unknown ?? 0).toBe(0);
    }));

  it('matches a receipt under the first of its other id forms that names a part, and says false when none does', () =>
    using(factory, async ({ store }) => {
      const { id } = await store.enqueue(message('two parts', 'att', 2));
      await store.delivery.claim(claim('smsc', T0));
      await store.delivery.apply([accepted(id, 'smsc', T0, ['1a2b3c', '1a2b3d'])]);
      const formed = (peerId: string, alsoTry: string[]): DeliveryChange => ({
        kind: 'receipt',
        route: 'smsc',
        at: T0 + 10,
        receipt: { peerId, alsoTry, state: 'delivered', code: 'DELIVRD', text: 'stat:DELIVRD' },
      });
      // 1715004 is 0x1a2b3c: the decimal form misses, the hex form matches.
      expect(
        await store.delivery.apply([formed('1715004', ['1A2B3C', '1a2b3c']), formed('1715005', ['nothing', 'at all'])]),
      ).toEqual([true, false]);
      expect((await store.getMessage(id))?.state).toBe('accepted'); // one part of two
      expect(await store.delivery.apply([formed('1715005', ['1a2b3d'])])).toEqual([true]);
      expect(await store.getMessage(id)).toMatchObject({ state: 'delivered' });
      expect((await store.history(id)).at(-1)).toMatchObject({ state: 'delivered', smscId: '1a2b3d' });
    }));

  it('reads each part of the latest attempt with its SMSC id and state, for several messages at once', () =>
    using(factory, async ({ store }) => {
      const { id } = await store.enqueue(message('two parts', 'att', 2));
      const other = (await store.enqueue(message('one part'))).id;
      await store.delivery.claim({ ...claim('smsc', T0), limit: 2 });
      await store.delivery.apply([
        accepted(id, 'smsc', T0, ['P1', 'P2']),
        {
          kind: 'requeue',
          id: other,
          owner: 'worker-a',
          at: T0,
          attempt: 1,
          route: 'smsc',
          nextAttemptAt: T0,
          code: 'X',
          text: 'x',
          maybeSent: false,
        },
      ]);
      await store.delivery.claim(claim('smsc', T0 + 1));
      await store.delivery.apply([accepted(other, 'smsc', T0 + 1, ['O2'], 2)]);
      await store.delivery.apply([receipt('smsc', 'P2', T0 + 2)]);
      expect(await store.messageParts([id, other, 'SMS-none'])).toEqual(
        [
          { messageId: id, part: 1, attempt: 1, route: 'smsc', smscId: 'P1', state: null },
          { messageId: id, part: 2, attempt: 1, route: 'smsc', smscId: 'P2', state: 'delivered' },
          { messageId: other, part: 1, attempt: 2, route: 'smsc', smscId: 'O2', state: null },
        ].sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : a.part - b.part)),
      );
      expect(await store.messageParts([])).toEqual([]);
    }));

  it('times out at most `limit` messages per call, oldest first', () =>
    using(factory, async ({ store }) => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { id } = await store.enqueue(message(`m${i}`));
        ids.push(id);
        await store.delivery.claim(claim('smsc', T0 + i));
        await store.delivery.apply([accepted(id, 'smsc', T0 + 10 - i, [`P${i}`])]);
      }
      const request = { route: 'smsc', acceptedBefore: T0 + 100, now: T0 + 200, text: 'timeout', limit: 2 };
      expect(await store.delivery.timeOutReceipts(request)).toBe(2);
      expect((await store.getMessage(ids[0] as string))?.state).toBe('accepted'); // accepted last
      expect((await store.countByState()).unknown).toBe(2);
    }));
}
