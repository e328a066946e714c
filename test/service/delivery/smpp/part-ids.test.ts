/**
 * A long message's parts as the SMSC numbered them: through the engine to Net::SMPP and to the
 * simulator, every part's SMSC id reaches the outbox report (`smscIds`, in part order, equal to
 * the ids the SMSC logged), and when the parts' receipts differ (the simulator made to receipt
 * one part delivered and another undeliverable) each part's own state is shown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { messageReport } from '../../../../service/outbox/report.js';
import { startSmsc } from '../../../../service/delivery/simulator/index.js';
import { createSmppRoute } from '../../../../service/delivery/smpp/index.js';
import type { SqliteStore } from '../../../../service/store/index.js';
import { requirePeer } from '../../../helpers/peers.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { newMessage, openTestStore, runEngine, waitForState } from './engine-harness.js';
import { routeOptions, startPerlSmsc } from './helpers.js';

const perl = requirePeer('net-smpp', 'smpp/part-ids');
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function engineTo(port: number): SqliteStore {
  const store = openTestStore();
  const running = runEngine(store, [createSmppRoute('smsc', routeOptions(port))]);
  cleanup.push(
    () => running.stop(),
    () => store.close(),
  );
  return store;
}

const LONG = 'part of a long message, '.repeat(15); // 360 characters: three GSM parts

describe.skipIf(perl.skip)('part ids against Net::SMPP', () => {
  it('reports every part SMSC id in part order, as the SMSC gave them', async () => {
    const smsc = await startPerlSmsc();
    cleanup.push(() => smsc.close());
    const store = engineTo(smsc.port);
    const { id } = await store.enqueue(newMessage(LONG));
    await waitForState(store, id, 'delivered');
    const logged = smsc.lines().filter((l) => l.pdu === 'submit_sm');
    // The UDH's last octet is the part number: order the SMSC's ids by it.
    const byPart = logged
      .map((l) => ({ seq: Buffer.from(String(l.short_message), 'hex')[5] as number, id: String(l.message_id) }))
      .sort((a, b) => a.seq - b.seq)
      .map((p) => p.id);
    expect(byPart).toHaveLength(3);
    const report = await messageReport(store, id);
    expect(report?.message.smscIds).toEqual(byPart);
    expect(report?.message.parts).toBeUndefined(); // all three delivered: no per-part line
  });
});

describe('part ids against the simulator', () => {
  it('shows each part state when one part is delivered and another undeliverable', async () => {
    let draws = 0;
    const smsc = await startSmsc({
      systemId: 'smskit',
      password: 'secret',
      outcomes: [
        ['delivered', 1],
        ['undeliverable', 1],
      ],
      random: () => (draws++ % 2 === 0 ? 0.25 : 0.75), // alternate the two outcomes
    });
    cleanup.push(() => smsc.close());
    const store = engineTo(smsc.port);
    const { id } = await store.enqueue(newMessage(LONG));
    await waitForState(store, id, 'undeliverable');
    await waitFor('every part receipted', async () =>
      (await store.messageParts([id])).every((part) => part.state !== null),
    );
    const report = await messageReport(store, id);
    expect(report?.message.smscIds).toEqual(smsc.received[0]?.messageIds);
    const states = report?.message.parts?.map((p) => p.state) ?? [];
    expect(states).toHaveLength(3);
    expect(states).toContain('delivered');
    expect(states).toContain('undeliverable');
  });
});
