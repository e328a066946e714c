/**
 * Callbacks wait while the service is busy: the rule (hold back while the loop and the machine
 * are both busy, at most the limit at a stretch, a stretch ended by the limit or by a quiet
 * second, and no new one before the sender has caught up), the sender over real HTTP keeping new
 * claims back until the load falls or the limit passes, and the gauge that measures an event
 * loop's load for another thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_LOOP, createBusyDeferral, QUIET_MS, SPARE_CORES } from '../../../service/callbacks/busy-deferral.js';
import { createCallbackSender } from '../../../service/callbacks/sender.js';
import { type LoadSample, startLoadGauge } from '../../../service/threads/load-gauge.js';
import { type CallbackReceiver, startCallbackReceiver } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { FAST, newSecret } from './fixtures.js';
import { memoryCallbackStore } from './memory-store.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

const BUSY: LoadSample = { loop: 0.95, idleCores: 0.1 };
const QUIET: LoadSample = { loop: 0.1, idleCores: 1.6 };

function rule(maxMs: number) {
  let now = 0;
  let load = QUIET;
  const deferral = createBusyDeferral(
    () => load,
    maxMs,
    () => now,
  );
  return {
    deferral,
    at(ms: number, sample: LoadSample): boolean {
      now = ms;
      load = sample;
      return deferral.holdBack();
    },
  };
}

describe('holding callbacks back while the service is busy', () => {
  it('holds back while the loop and the machine are busy, for at most the limit at a stretch', () => {
    const r = rule(1_000);
    expect(r.at(0, QUIET)).toBe(false);
    expect(r.at(10, { loop: BUSY_LOOP, idleCores: SPARE_CORES - 0.01 })).toBe(true);
    expect(r.deferral.holding).toBe(true);
    expect(r.at(500, BUSY)).toBe(true);
    expect(r.at(1_009, BUSY)).toBe(true);
    // The stretch began at 10: from 1,010 on the sender sends, busy or not, until it has caught up.
    expect(r.at(1_010, BUSY)).toBe(false);
    expect(r.deferral.holding).toBe(false);
    expect(r.at(5_000, BUSY)).toBe(false);
    r.deferral.caughtUp();
    expect(r.at(5_001, BUSY)).toBe(true);
  });

  it('does not hold back for a busy loop beside an idle core, nor on a busy machine with a quiet loop', () => {
    const r = rule(1_000);
    expect(r.at(0, { loop: 0.99, idleCores: SPARE_CORES })).toBe(false);
    expect(r.at(10, { loop: BUSY_LOOP - 0.01, idleCores: 0 })).toBe(false);
  });

  it('holds back through a dip shorter than a quiet second; a quiet second ends the stretch, and the sender catches up first', () => {
    const r = rule(10_000);
    expect(r.at(0, BUSY)).toBe(true);
    expect(r.at(QUIET_MS - 1, QUIET)).toBe(true);
    expect(r.at(QUIET_MS - 1, BUSY)).toBe(true);
    expect(r.at(2 * QUIET_MS - 2, QUIET)).toBe(true);
    // Quiet for a whole second since the last busy sample: the stretch is over.
    expect(r.at(2 * QUIET_MS - 1, QUIET)).toBe(false);
    expect(r.at(2 * QUIET_MS, BUSY)).toBe(false);
    r.deferral.caughtUp();
    expect(r.at(2 * QUIET_MS + 1, BUSY)).toBe(true);
  });

  it('never holds back with a limit of 0', () => {
    const r = rule(0);
    expect(r.at(0, BUSY)).toBe(false);
    expect(r.at(100, BUSY)).toBe(false);
    expect(r.deferral.holding).toBe(false);
  });
});

async function busySender(load: () => LoadSample, busyDeferMs: number, count: number) {
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
  return { receiver, sender, store, secret, startedAt };
}

describe('the sender told the service is busy', () => {
  it('keeps new claims back while the load is high, and sends them all once it falls', async () => {
    let load = BUSY;
    const { receiver, sender } = await busySender(() => load, 60_000, 20);
    await waitFor('the sender holding back', () => sender.stats().deferring);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0);
    load = QUIET;
    await waitFor('20 callbacks', () => receiver.received.length === 20);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(sender.stats().deferring).toBe(false);
  });

  it('sends once the limit has passed though the service stays busy, and holds back again once caught up', async () => {
    const { receiver, sender, store, secret, startedAt } = await busySender(() => BUSY, 400, 5);
    await waitFor('5 callbacks', () => receiver.received.length === 5);
    expect(receiver.received[0]!.at - startedAt).toBeGreaterThanOrEqual(350);
    await waitFor('holding back again', () => sender.stats().deferring);
    store.add({ messageId: 'SMS-late', state: 'sending', url: receiver.url, secret });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.received).toHaveLength(5);
    await waitFor('the late one sent after the next stretch', () => receiver.received.length === 6);
  });

  it('says it is not holding back once closed', async () => {
    const { sender } = await busySender(() => BUSY, 60_000, 1);
    await waitFor('the sender holding back', () => sender.stats().deferring);
    await sender.close(100);
    expect(sender.stats().deferring).toBe(false);
  });
});

describe('the load gauge', () => {
  it("is read by another thread: the loop's utilization high while it computes, low while it waits", async () => {
    const gauge = startLoadGauge(20);
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const slots = new Int32Array(workerData);
       parentPort.on('message', () => parentPort.postMessage([Atomics.load(slots, 0), Atomics.load(slots, 1)]));`,
      { eval: true, workerData: gauge.buffer },
    );
    opened.push({ close: async () => void (await reader.terminate()) });
    opened.push({ close: async () => gauge.stop() });
    const read = () =>
      new Promise<LoadSample>((resolve) => {
        reader.once('message', ([loop, idleCores]: [number, number]) =>
          resolve({ loop: loop / 1000, idleCores: idleCores / 1000 }),
        );
        reader.postMessage('read');
      });
    let busiest: LoadSample = { loop: 0, idleCores: 0 };
    await waitFor(
      'a busy sample seen from the other thread',
      async () => {
        const spinUntil = performance.now() + 60;
        while (performance.now() < spinUntil);
        busiest = await read();
        return busiest.loop >= BUSY_LOOP;
      },
      { timeoutMs: 10_000 },
    );
    // Spinning, this thread kept at least a core busy: less idle than all the cores.
    expect(busiest.idleCores).toBeGreaterThanOrEqual(0);
    expect(busiest.idleCores).toBeLessThan(availableParallelism());
    await waitFor('a quiet sample', async () => (await read()).loop < 0.3, { timeoutMs: 5_000 });
  });
});
