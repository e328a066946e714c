/**
 * `binds: N`: an SMPP route keeps N sessions to its SMSC, each its own bind and window, under one
 * throughput cap; every session writes its messages in acceptance order, all parts of a message
 * go on one session, and a receipt is taken on whichever session it arrives. Against Net::SMPP
 * (several connections at once, each submit logged with its connection) and the simulator (which
 * sends every receipt on the first receiver it finds, so receipts for the other sessions'
 * messages arrive on another bind); per-bind status in /metrics and /healthz.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSmsc, type RunningSmsc } from '../../../../service/delivery/simulator/index.js';
import { createSmppRoute } from '../../../../service/delivery/smpp/index.js';
import type { SmppRouteOptions } from '../../../../service/delivery/smpp/options.js';
import { createServiceMetrics } from '../../../../service/metrics/metrics.js';
import type { SqliteStore } from '../../../../service/store/index.js';
import { requirePeer } from '../../../helpers/peers.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { newMessage, openTestStore, type RunningEngine, runEngine, waitForState } from './engine-harness.js';
import { type PerlSmsc, routeOptions, startPerlSmsc } from './helpers.js';

const perl = requirePeer('net-smpp', 'smpp/binds');

let store: SqliteStore | undefined;
let running: RunningEngine | undefined;
let perlSmsc: PerlSmsc | undefined;
let simulator: RunningSmsc | undefined;

afterEach(async () => {
  await running?.stop();
  await store?.close();
  perlSmsc?.close();
  await simulator?.close();
  running = store = perlSmsc = simulator = undefined;
});

async function startEngine(port: number, overrides: Partial<SmppRouteOptions>): Promise<RunningEngine> {
  store = openTestStore();
  running = runEngine(store, [createSmppRoute('smsc', routeOptions(port, overrides))]);
  const engine = running.engine;
  await waitFor('every bind up', () => engine.routes()[0]?.binds?.every((b) => b.up) === true, {
    state: () => engine.routes()[0]?.detail ?? '',
  });
  return running;
}

async function sendAll(texts: readonly string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const text of texts) ids.push((await store!.enqueue(newMessage(text))).id);
  for (const id of ids) await waitForState(store!, id, 'delivered');
  return ids;
}

const numbered = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `message ${String(i).padStart(3, '0')}`);

describe.skipIf(perl.skip)('binds: N against Net::SMPP', () => {
  it('opens N sessions, spreads messages over them, and keeps acceptance order on each', async () => {
    perlSmsc = await startPerlSmsc(['--many']);
    await startEngine(perlSmsc.port, { binds: 3, window: 2 });
    expect(perlSmsc.lines().filter((l) => l.pdu === 'bind_transceiver' && l.accepted === true)).toHaveLength(3);
    await sendAll(numbered(60));
    const submits = perlSmsc.lines().filter((l) => l.pdu === 'submit_sm');
    expect(submits).toHaveLength(60);
    const byConnection = new Map<number, number[]>();
    for (const submit of submits) {
      const index = Number(Buffer.from(String(submit.short_message), 'hex').toString('latin1').slice(-3));
      const list = byConnection.get(Number(submit.connection)) ?? [];
      list.push(index);
      byConnection.set(Number(submit.connection), list);
    }
    expect(byConnection.size).toBe(3); // every session carried messages
    for (const list of byConnection.values()) expect(list).toEqual([...list].sort((a, b) => a - b));
  });

  it('keeps every part of a long message on one session', async () => {
    perlSmsc = await startPerlSmsc(['--many']);
    await startEngine(perlSmsc.port, { binds: 2, window: 4 });
    await sendAll(Array.from({ length: 6 }, (_, i) => `${i} ${'long text '.repeat(20)}`));
    const submits = perlSmsc.lines().filter((l) => l.pdu === 'submit_sm');
    const connectionsOf = new Map<string, Set<number>>();
    for (const submit of submits) {
      const octets = Buffer.from(String(submit.short_message), 'hex');
      const reference = octets.subarray(3, 4).toString('hex'); // UDH 05 00 03 ref total seq
      const set = connectionsOf.get(reference) ?? new Set();
      set.add(Number(submit.connection));
      connectionsOf.set(reference, set);
    }
    expect(connectionsOf.size).toBe(6);
    for (const set of connectionsOf.values()) expect(set.size).toBe(1);
  });
});

describe('binds: N against the simulator', () => {
  it('takes receipts on any bind, and shows each bind in status, /metrics and /healthz', async () => {
    simulator = await startSmsc({ systemId: 'smskit', password: 'secret' });
    const { engine } = await startEngine(simulator.port, { binds: 3, window: 1 });
    expect(simulator.stats.binds).toBe(3);
    await sendAll(numbered(12));
    expect(engine.counters.snapshot().smsc).toMatchObject({ receipt_delivered: 12 });
    expect(engine.counters.snapshot().smsc?.receipt_unknown).toBeUndefined();
    const [report] = engine.routes();
    expect(report?.binds?.map((b) => [b.bind, b.up, b.window])).toEqual([
      [1, true, 1],
      [2, true, 1],
      [3, true, 1],
    ]);
    expect(report?.window).toBe(3);
    const metrics = createServiceMetrics({
      store: store!,
      delivery: () => engine,
    });
    const { text } = await metrics.render();
    for (const bind of ['1', '2', '3']) expect(text).toContain(`smskit_route_bind_up{route="smsc",bind="${bind}"} 1`);
    const health = await metrics.health();
    expect(health.routes[0]?.binds?.map((b) => b.up)).toEqual([true, true, true]);
  });

  it('shares the throughput cap between its binds', async () => {
    simulator = await startSmsc({ systemId: 'smskit', password: 'secret' });
    await startEngine(simulator.port, { binds: 3, window: 5, throughputPerSecond: 20 });
    const started = performance.now();
    await sendAll(numbered(12));
    // 12 submits at 20/s, one at once: at least 0.55 s; three caps of 20/s would take about a third.
    expect(performance.now() - started).toBeGreaterThan(500);
  });
});
