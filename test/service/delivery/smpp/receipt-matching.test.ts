/**
 * Receipts as operators meet them, through the whole path (SQLite store, engine, SMPP route, a
 * real SMSC): against Net::SMPP (test/peers/smsc/net-smpp-smsc.pl) and the bundled simulator.
 * - receipt timeout: an accepted message with no receipt becomes `unknown`; the receipt that
 *   comes later (on the next bind, after the session that sent it ended) still records the true
 *   outcome, and the history keeps both;
 * - receipt ids in another base: hex answers receipted in decimal and the reverse, with the
 *   route told (`receiptIds`) and without (`as-is`, the fallback), never counted unknown;
 * - validity_period in every submit_sm, relative, from the message's remaining validity, and
 *   schedule_delivery_time empty.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSmsc, type RunningSmsc } from '../../../../service/delivery/simulator/index.js';
import { createSmppRoute } from '../../../../service/delivery/smpp/index.js';
import type { SmppRouteOptions } from '../../../../service/delivery/smpp/options.js';
import type { SqliteStore } from '../../../../service/store/index.js';
import { requirePeer } from '../../../helpers/peers.js';
import { newMessage, openTestStore, type RunningEngine, runEngine, waitForState } from './engine-harness.js';
import { type PerlSmsc, routeOptions, startPerlSmsc } from './helpers.js';

const perl = requirePeer('net-smpp', 'smpp/receipt-matching');

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

function start(port: number, overrides: Partial<SmppRouteOptions> = {}, password = 'secret'): RunningEngine {
  store ??= openTestStore();
  running = runEngine(store, [createSmppRoute('smsc', routeOptions(port, { password, ...overrides }))]);
  return running;
}

async function send(text: string): Promise<string> {
  if (store === undefined) throw new Error('no store');
  return (await store.enqueue(newMessage(text))).id;
}

const unknownReceipts = (r: RunningEngine): number => r.engine.counters.snapshot().smsc?.receipt_unknown ?? 0;

describe.skipIf(perl.skip)('receipts against Net::SMPP', () => {
  it('times an unreceipted message out to unknown; the receipt kept for the next bind then records delivered', async () => {
    perlSmsc = await startPerlSmsc(['--receipts-on-next-bind']);
    let engine = start(perlSmsc.port, { receiptTimeoutMs: 300 });
    const id = await send('no receipt on this session');
    await waitForState(store!, id, 'unknown');
    expect(await store!.getMessage(id)).toMatchObject({ errorCode: 'RECEIPT_TIMEOUT' });
    expect(engine.engine.counters.snapshot().smsc?.receipt_timeout).toBe(1);
    // The session ends; the SMSC keeps the receipt and sends it on the next bind.
    await engine.stop();
    engine = start(perlSmsc.port, { receiptTimeoutMs: 300 });
    await waitForState(store!, id, 'delivered');
    const history = (await store!.history(id)).map((e) => e.state);
    expect(history.slice(-3)).toEqual(['accepted', 'unknown', 'delivered']);
    expect(unknownReceipts(engine)).toBe(0);
  });

  for (const [ids, receiptIds, setting] of [
    ['hex', 'decimal', 'hex-to-decimal'],
    ['decimal', 'hex', 'decimal-to-hex'],
    ['hex', 'decimal', 'as-is'],
    ['decimal', 'hex', 'as-is'],
  ] as const) {
    it(`matches ${ids} answers receipted in ${receiptIds} with receiptIds: ${setting}`, async () => {
      perlSmsc = await startPerlSmsc(['--ids', ids, '--receipt-ids', receiptIds]);
      const engine = start(perlSmsc.port, { receiptIds: setting });
      const id = await send(`ids in ${ids}, receipts in ${receiptIds}`);
      await waitForState(store!, id, 'delivered');
      const submitted = perlSmsc.lines().find((l) => l.pdu === 'submit_sm');
      const receipted = perlSmsc.lines().find((l) => l.pdu === 'deliver_sm');
      expect(String(submitted?.message_id)).toMatch(ids === 'hex' ? /^[0-9a-f]*[a-f][0-9a-f]*$/ : /^\d+$/);
      expect(String(receipted?.receipted)).toMatch(receiptIds === 'hex' ? /[a-f]/ : /^\d+$/);
      expect(receipted?.receipted).not.toBe(submitted?.message_id);
      expect(await store!.getMessage(id)).toMatchObject({ smscId: submitted?.message_id });
      expect(unknownReceipts(engine)).toBe(0);
    });
  }

  it('sends a relative validity_period from the remaining validity and an empty schedule_delivery_time', async () => {
    perlSmsc = await startPerlSmsc();
    start(perlSmsc.port);
    const id = await send('valid for an hour');
    await waitForState(store!, id, 'delivered');
    const submit = perlSmsc.lines().find((l) => l.pdu === 'submit_sm');
    expect(submit?.schedule_delivery_time).toBe('');
    // FAST_POLICY's validity is one hour: "0000 00 hh mm ss 000R", a little under 01:00:00.
    const period = String(submit?.validity_period);
    expect(period).toMatch(/^000000(00595\d|010000)000R$/);
  });
});

describe('receipts against the simulator', () => {
  it('times out to unknown while the receipt is late, then records the late receipt', async () => {
    simulator = await startSmsc({ systemId: 'smskit', password: 'secret', receiptDelayMs: 1_500 });
    const engine = start(simulator.port, { receiptTimeoutMs: 200 });
    const id = await send('a late receipt');
    await waitForState(store!, id, 'unknown');
    await waitForState(store!, id, 'delivered');
    expect((await store!.history(id)).map((e) => e.state).slice(-3)).toEqual(['accepted', 'unknown', 'delivered']);
    expect(engine.engine.counters.snapshot().smsc).toMatchObject({ receipt_timeout: 1, receipt_delivered: 1 });
  });

  it('leaves a receipted message alone: no timeout for a message whose receipt came in time', async () => {
    simulator = await startSmsc({ systemId: 'smskit', password: 'secret' });
    const engine = start(simulator.port, { receiptTimeoutMs: 300 });
    const id = await send('receipted at once');
    await waitForState(store!, id, 'delivered');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await store!.history(id)).map((e) => e.state)).not.toContain('unknown');
    expect(engine.engine.counters.snapshot().smsc?.receipt_timeout).toBeUndefined();
  });

  for (const [ids, receiptIds, setting] of [
    ['hex', 'decimal', 'hex-to-decimal'],
    ['decimal', 'hex', 'decimal-to-hex'],
    ['hex', 'decimal', 'as-is'],
    ['decimal', 'hex', 'as-is'],
  ] as const) {
    it(`matches ${ids} answers receipted in ${receiptIds} with receiptIds: ${setting} (a long message)`, async () => {
      const sent: string[] = [];
      simulator = await startSmsc({ systemId: 'smskit', password: 'secret', ids, receiptIds });
      const engine = start(simulator.port, { receiptIds: setting });
      const id = await send('three parts '.repeat(30));
      await waitForState(store!, id, 'delivered');
      sent.push(...simulator.received.flatMap((m) => m.messageIds));
      expect(sent).toHaveLength(3);
      expect(await store!.getMessage(id)).toMatchObject({ smscId: sent[0] });
      expect(engine.engine.counters.snapshot().smsc).toMatchObject({ receipt_delivered: 3 });
      expect(unknownReceipts(engine)).toBe(0);
    });
  }

  it('sends validity_period from what is left of the validity, not the whole of it', async () => {
    const periods: unknown[] = [];
    simulator = await startSmsc({
      systemId: 'smskit',
      password: 'secret',
      onPdu: (pdu) => {
        if (pdu.command === 'submit_sm') periods.push(pdu.validity_period);
      },
    });
    store = openTestStore();
    // Accepted 20 minutes ago (the clock the engine sees runs 20 min ahead) with an hour's validity.
    const id = await send('forty minutes left');
    const ahead = 20 * 60_000;
    running = runEngine(store, [
      createSmppRoute('smsc', routeOptions(simulator.port), { clock: () => Date.now() + ahead }),
    ]);
    await waitForState(store, id, 'delivered');
    // node-smpp reads the relative period back as a Date that far from now.
    const until = periods[0] as Date;
    const left = until.getTime() - Date.now();
    expect(left).toBeGreaterThan(39 * 60_000);
    expect(left).toBeLessThan(40 * 60_000 + 2_000);
  });
});
