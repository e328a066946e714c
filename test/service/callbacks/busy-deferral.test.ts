/**
 * Callbacks wait while the service is busy: the rule (hold back while the loop's load is at or
 * above the threshold, at most the limit at a stretch, a new stretch only after a quiet second),
 * the sender over real HTTP keeping new claims back until the load falls or the limit passes,
 * and the gauge that measures an event loop's load for another thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_UTILIZATION, createBusyDeferral, QUIET_MS } from '../../../service/callbacks/busy-deferral.js';
import { createCallbackSender } from '../../../service/callbacks/sender.js';
import { loadReader, startLoadGauge } from '../../../service/threads/load-gauge.js';
import { type CallbackReceiver, startCallbackReceiver } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { FAST, newSecret } from './fixtures.js';
import { memoryCallbackStore } from './memory-store.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

function rule(maxMs: number) {
  let now = 0;
  let load = 0;
  const deferral = createBusyDeferral(
    () => load,
    maxMs,
    () => now,
  );
  return {
    deferral,
    at(ms: number, loadNow: number): boolean {
      now = ms;
      load = loadNow;
      return deferral.holdBack();
    },
  };
}

describe('holding callbacks back while the service is busy', () => {
  it('holds back while busy, for at most the limit at a stretch, and not while quiet', () => {
    const r = rule(1_000);
    expect(r.at(0, 0.2)).toBe(false);
    expect(r.at(10, BUSY_UTILIZATION)).toBe(true);
    expect(r.deferral.holding).toBe(true);
    expect(r.at(500, 0.95)).toBe(true);
    expect(r.at(1_009, 0.95)).toBe(true);
    // The stretch began at 10: from 1,010 on the sender sends, busy or not.
    expect(r.at(1_010, 0.95)).toBe(false);
    expect(r.deferral.holding).toBe(false);
    expect(r.at(5_000, 0.99)).toBe(false);
  });

  it('a dip shorter than a quiet second does not start a new stretch; a quiet second does', () => {
    const r = rule(1_000);
    expect(r.at(0, 0.9)).toBe(true);
    expect(r.at(1_000, 0.9)).toBe(false);
    expect(r.at(1_000 + QUIET_MS - 1, 0.1)).toBe(false);
    expect(r.at(1_000 + QUIET_MS, 0.9)).toBe(false);
    expect(r.at(2 * 1_000 + 2 * QUIET_MS, 0.1)).toBe(false);
    expect(r.at(2 * 1_000 + 2 * QUIET_MS + 1, 0.9)).toBe(true);
  });

  it('never holds back with a limit of 0', () => {
    const r = rule(0);
    expect(r.at(0, 1)).toBe(false);
    expect(r.at(100, 1)).toBe(false);
    expect(r.deferral.holding).toBe(false);
  });
});

async function busySender(load: () => number, busyDeferMs: number, count: number) {
  const secret = newSecret();
  const receiver: CallbackReceiver = await startCallbackReceiver(secret);
  opened.push(receiver);
  const store = memoryCallbackStore();
  for (let i = 0; i < count; i++) store.add({ messageId: `SMS-${i}`, state: 'sending', url: receiver.url, secret });
  const sender = createCallbackSender({
    store,
    settings: { ...FAST, busyDeferMs },
    owner: 'test-sender',
    serviceLoad: load,
  });
  opened.push({ close: () => sender.close(100) });
  const startedAt = Date.now();
  sender.start();
  return { receiver, sender, startedAt };
}

describe('the sender told the service is busy', () => {
  it('keeps new claims back while the load is high, and sends them all once it falls', async () => {
    let load = 0.9;
    const { receiver, sender } = await busySender(() => load, 60_000, 20);
    await waitFor('the sender holding back', () => sender.stats().deferring);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0);
    load = 0.1;
    await waitFor('20 callbacks', () => receiver.received.length === 20);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(sender.stats().deferring).toBe(false);
  });

  it('sends once the limit has passed though the service stays busy', async () => {
    const { receiver, startedAt } = await busySender(() => 1, 400, 5);
    await waitFor('5 callbacks', () => receiver.received.length === 5);
    expect(receiver.received[0]!.at - startedAt).toBeGreaterThanOrEqual(350);
  });
});

describe('the load gauge', () => {
  it("reads another loop's utilization: high while it computes, low while it waits", async () => {
    const gauge = startLoadGauge(20);
    opened.push({ close: async () => gauge.stop() });
    const read = loadReader(gauge.buffer);
    const spinUntil = performance.now() + 150;
    while (performance.now() < spinUntil);
    await waitFor('a busy sample', () => read() >= BUSY_UTILIZATION, { timeoutMs: 2_000 });
    await waitFor('a quiet sample', () => read() < 0.3, { timeoutMs: 5_000 });
  });
});
