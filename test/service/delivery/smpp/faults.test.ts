/**
 * The SMPP route under faults, on real sockets against the simulator (smskit smsc's library):
 * the SMSC down at start, a connection dropped with the window full, a refused bind, throttling
 * (our cap and the SMSC's ESME_RTHROTTLED), malformed and unexpected PDUs, receipts for unknown
 * ids, response timeouts, close with work in flight. Every wait is for an event, not a sleep.
 */
import { createServer } from 'node:net';
import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubmitResult } from '../../../../service/delivery/route.js';
import { type RunningSmsc, type SmscOptions, startSmsc } from '../../../../service/delivery/simulator/index.js';
import type { SmppRouteOptions } from '../../../../service/delivery/smpp/options.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { routeOptions, type StartedRoute, startRoute, stored } from './helpers.js';

const FAST = { reconnect: { initialMs: 20, maxMs: 320 }, connectTimeoutMs: 2_000 } as const;

let smsc: RunningSmsc | undefined;
let started: StartedRoute | undefined;
const seen: smpp.PDU[] = [];

afterEach(async () => {
  await started?.route.close(1_000);
  await smsc?.close();
  started = undefined;
  smsc = undefined;
  seen.length = 0;
});

async function simulator(options: Partial<SmscOptions> = {}): Promise<RunningSmsc> {
  smsc = await startSmsc({ systemId: 'smskit', password: 'secret', onPdu: (pdu) => seen.push(pdu), ...options });
  return smsc;
}

async function bound(overrides: Partial<SmppRouteOptions> = {}): Promise<StartedRoute> {
  started = startRoute(routeOptions(smsc!.port, { ...FAST, ...overrides }));
  await started.waitUp();
  return started;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A raw PDU: header + body, with command_length as given (or the true one). */
function rawPdu(commandId: number, sequence: number, body = Buffer.alloc(0), length = 16 + body.length): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(length, 0);
  header.writeUInt32BE(commandId, 4);
  header.writeUInt32BE(0, 8);
  header.writeUInt32BE(sequence, 12);
  return Buffer.concat([header, body]);
}

describe('SMPP route faults', () => {
  it('SMSC down at start: logs each failed attempt with its backoff, binds once it comes up, then sends', async () => {
    const port = await freePort();
    started = startRoute(routeOptions(port, FAST));
    await waitFor('two refused connections', () => started!.logs.filter((l) => l.includes('ECONNREFUSED')).length >= 2);
    expect(started.route.status()).toMatchObject({ up: false, inFlight: 0, window: 10 });
    expect(started.route.status().detail).toMatch(/^reconnecting in \d+ ms: ECONNREFUSED$/);
    smsc = await startSmsc({ systemId: 'smskit', password: 'secret', port });
    await started.waitUp();
    expect(await started.route.submit(stored('after the SMSC came up'))).toMatchObject({ outcome: 'accepted' });
    expect(smsc.received[0]?.text).toBe('after the SMSC came up');
  });

  it('reconnect backoff with the defaults (1 s doubling up to 60 s, half random), on injected timers: no waiting', async () => {
    const port = await freePort();
    const waits: number[] = [];
    started = startRoute(routeOptions(port, { connectTimeoutMs: 9_999 }), {
      random: () => 0,
      setTimeout: (callback, ms) => {
        if (ms === 9_999) return () => undefined; // the connect timeout: ECONNREFUSED comes first
        waits.push(ms);
        const timer = setTimeout(callback, 0);
        return () => clearTimeout(timer);
      },
    });
    await waitFor('eight attempts', () => waits.length >= 8);
    expect(waits.slice(0, 8)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(started.logs[0]).toMatch(/: cannot bind: ECONNREFUSED; retrying in 500 ms$/);
    expect(started.logs[1]).toMatch(/retrying in 1\.0 s$/);
  });

  it('connection dropped with the window full: every written part → retry maybeSent true, queued ones maybeSent false; then it rebinds', async () => {
    await simulator({ answerSubmits: false });
    const { route } = await bound({ window: 10 });
    const results: Promise<SubmitResult>[] = Array.from({ length: 15 }, (_, i) => route.submit(stored(`window ${i}`)));
    await waitFor('10 submit_sm at the SMSC', () => smsc!.stats.submits === 10);
    expect(route.status().inFlight).toBe(15);
    smsc!.dropConnections();
    const answers = await Promise.all(results);
    const lost = answers.filter((a) => a.outcome === 'retry' && a.maybeSent);
    const unsent = answers.filter((a) => a.outcome === 'retry' && !a.maybeSent);
    expect(lost).toHaveLength(10);
    expect(lost[0]).toMatchObject({ code: 'SMPP_CONNECTION_LOST' });
    expect(unsent).toHaveLength(5);
    expect(unsent[0]).toMatchObject({ code: 'SMPP_NOT_BOUND' });
    expect(route.status().inFlight).toBe(0);
    await started!.waitUp();
    expect(started!.logs.some((l) => /connection lost/.test(l))).toBe(true);
  });

  it('--drop-after: the N-th submit_sm is lost with the connection (retry maybeSent true), the rest go through after the rebind', async () => {
    await simulator({ dropAfter: 3 });
    const { route } = await bound({ window: 1 });
    const answers: SubmitResult[] = [];
    for (let i = 0; i < 3; i++) answers.push(await route.submit(stored(`drop ${i}`)));
    expect(answers.map((a) => a.outcome)).toEqual(['accepted', 'accepted', 'retry']);
    expect(answers[2]).toMatchObject({ code: 'SMPP_CONNECTION_LOST', maybeSent: true });
    await started!.waitUp();
    expect(await route.submit(stored('drop 2, again'))).toMatchObject({ outcome: 'accepted' });
    expect(smsc!.received.map((m) => m.text)).toEqual(['drop 0', 'drop 1', 'drop 2, again']);
  });

  it('bind refused (wrong password): one line per attempt, the backoff grows, no tight loop, no password in the log', async () => {
    await simulator();
    started = startRoute(routeOptions(smsc!.port, { ...FAST, password: 'wrong-password' }));
    await waitFor('five refused binds', () => started!.logs.length >= 5);
    await started.route.close(1_000);
    const refusals = started.logs.filter((l) => l.includes('bind refused: ESME_RINVPASWD'));
    expect(refusals).toHaveLength(started.logs.length);
    // The SMSC counts a refusal before the route reads it: at most the last one can be unlogged.
    expect(smsc!.stats.refusedBinds - refusals.length).toBeGreaterThanOrEqual(0);
    expect(smsc!.stats.refusedBinds - refusals.length).toBeLessThanOrEqual(1);
    const delays = refusals.map((l) => Number(/retrying in (\d+) ms/.exec(l)?.[1]));
    // Equal jitter: each wait is at least half of a ceiling that doubles, so waits never shrink until the cap.
    for (let i = 1; i < delays.length; i++) expect(delays[i]!).toBeGreaterThanOrEqual(Math.min(delays[i - 1]!, 160));
    expect(delays[4]!).toBeGreaterThanOrEqual(160);
    expect(started.logs.join('\n')).not.toContain('wrong-password');
    expect(started.route.status().up).toBe(false);
  });

  it('throughput cap: no faster than the configured submit_sm per second', async () => {
    await simulator();
    const { route } = await bound({ throughputPerSecond: 50 });
    const began = performance.now();
    const answers = await Promise.all(Array.from({ length: 26 }, (_, i) => route.submit(stored(`paced ${i}`))));
    const elapsed = performance.now() - began;
    expect(answers.every((a) => a.outcome === 'accepted')).toBe(true);
    // A burst of 1 (50/50) then 25 at 20 ms spacing: at least 500 ms, whatever the machine's speed.
    expect(elapsed).toBeGreaterThanOrEqual(490);
  });

  it('ESME_RTHROTTLED: the route slows down and resends; every message accepted, none failed', async () => {
    await simulator({ throttlePerSecond: 40 });
    const { route } = await bound();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => route.submit(stored(`throttled ${i}`))));
    expect(answers.filter((a) => a.outcome !== 'accepted')).toEqual([]);
    expect(smsc!.stats.throttled).toBeGreaterThan(0);
    expect(smsc!.stats.submits).toBe(60 + smsc!.stats.throttled);
    expect(new Set(smsc!.received.map((m) => m.text)).size).toBe(60);
  });

  it('permanent and transient refusals: ESME_RINVDSTADR → rejected, ESME_RSYSERR → retry maybeSent false', async () => {
    const server = smpp.createServer({}, (session) => {
      session.on('error', () => session.destroy());
      session.on('pdu', (pdu: smpp.PDU) => {
        if (pdu.command === 'bind_transceiver') session.send(pdu.response({ system_id: 'x' }));
        if (pdu.command === 'submit_sm') {
          const to = String(pdu.destination_addr);
          const status = to.endsWith('0') ? smpp.errors.ESME_RINVDSTADR : smpp.errors.ESME_RSYSERR;
          session.send(pdu.response({ command_status: status }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      started = startRoute(routeOptions((server.address() as { port: number }).port, FAST));
      await started.waitUp();
      expect(await started.route.submit(stored('x', { smsto: '+15551234560' }))).toEqual({
        outcome: 'rejected',
        code: 'ESME_RINVDSTADR',
        text: 'the SMSC refused it: ESME_RINVDSTADR',
      });
      expect(await started.route.submit(stored('x', { smsto: '+15551234561' }))).toMatchObject({
        outcome: 'retry',
        code: 'ESME_RSYSERR',
        maybeSent: false,
      });
      await started.route.close(500);
      started = undefined;
    } finally {
      server.close();
    }
  });

  it('response timeout: retry maybeSent true, and a late answer is ignored', async () => {
    await simulator({ answerSubmits: false });
    const { route } = await bound({ responseTimeoutMs: 100 });
    expect(await route.submit(stored('nobody answers'))).toEqual({
      outcome: 'retry',
      code: 'SMPP_RESPONSE_TIMEOUT',
      text: 'no submit_sm_resp within 100 ms',
      maybeSent: true,
    });
    expect(route.status()).toMatchObject({ up: true, inFlight: 0 });
  });

  it('an unknown command_id is answered generic_nack, an unexpected request ESME_RINVCMDID; the bind stays up', async () => {
    await simulator();
    const { route, logs } = await bound();
    smsc!.sendRaw(rawPdu(0x00000999, 4242));
    smsc!.sendRaw(new smpp.PDU('query_sm', { sequence_number: 4243, message_id: '1' }).toBuffer());
    await waitFor('both answers', () => seen.filter((p) => p.sequence_number >= 4242).length === 2);
    const nack = seen.find((p) => p.sequence_number === 4242)!;
    expect(nack).toMatchObject({ command: 'generic_nack', command_status: smpp.errors.ESME_RINVCMDID });
    expect(seen.find((p) => p.sequence_number === 4243)).toMatchObject({
      command: 'query_sm_resp',
      command_status: smpp.errors.ESME_RINVCMDID,
    });
    expect(logs.some((l) => l.includes('unknown command_id 0x999'))).toBe(true);
    expect(await route.submit(stored('still bound'))).toMatchObject({ outcome: 'accepted' });
  });

  it('a malformed PDU (command_length shorter than a header): generic_nack, one log line, reconnect, no crash', async () => {
    await simulator();
    const { route, logs } = await bound();
    smsc!.sendRaw(rawPdu(0x00000005, 7, Buffer.alloc(0), 8));
    await waitFor('generic_nack', () => seen.some((p) => p.command === 'generic_nack'));
    await waitFor('a second bind', () => smsc!.stats.binds === 2);
    expect(logs.filter((l) => l.includes('malformed PDU from the SMSC'))).toHaveLength(1);
    await started!.waitUp();
    expect(await route.submit(stored('after the bad PDU'))).toMatchObject({ outcome: 'accepted' });
  });

  it('a receipt for an unknown id is acknowledged and logged; one without an id is refused ESME_RX_P_APPN', async () => {
    await simulator({ receiptDelayMs: 0 });
    const route = await bound();
    route.answer = async () => false;
    expect(await route.route.submit(stored('nobody knows me'))).toMatchObject({ outcome: 'accepted' });
    await waitFor('the receipt acknowledged', () => smsc!.stats.receiptsAcknowledged === 1);
    expect(
      route.logs.some((l) => /receipt for an id no message has \(yet\): \S+ \(DELIVRD\), acknowledged/.test(l)),
    ).toBe(true);
    const noId = new smpp.PDU('deliver_sm', {
      sequence_number: 5150,
      esm_class: 0x04,
      short_message: Buffer.from('sub:001 dlvrd:001 stat:DELIVRD err:000'),
    });
    smsc!.sendRaw(noId.toBuffer());
    await waitFor('the answer', () => seen.some((p) => p.sequence_number === 5150));
    expect(seen.find((p) => p.sequence_number === 5150)).toMatchObject({
      command: 'deliver_sm_resp',
      command_status: smpp.errors.ESME_RX_P_APPN,
    });
  });

  it('a receipt the engine could not record is refused ESME_RX_T_APPN, and the SMSC delivers it again', async () => {
    await simulator({ receiptDelayMs: 0 });
    const route = await bound();
    let failures = 1;
    route.answer = async () => {
      if (failures-- > 0) throw new Error('database is locked');
      return true;
    };
    expect(await route.route.submit(stored('store hiccup'))).toMatchObject({ outcome: 'accepted' });
    await waitFor('the receipt recorded on the second try', () => smsc!.stats.receiptsAcknowledged === 1, {
      timeoutMs: 10_000,
    });
    expect(route.receipts).toHaveLength(2);
    expect(route.logs.some((l) => l.includes('not recorded (database is locked); answered ESME_RX_T_APPN'))).toBe(true);
  });

  it('a mobile-originated deliver_sm is acknowledged and logged, without its text', async () => {
    await simulator();
    const { logs } = await bound();
    const mo = new smpp.PDU('deliver_sm', {
      sequence_number: 6001,
      source_addr: '15550001111',
      short_message: Buffer.from('secret text'),
    });
    smsc!.sendRaw(mo.toBuffer());
    await waitFor('the answer', () => seen.some((p) => p.sequence_number === 6001));
    expect(seen.find((p) => p.sequence_number === 6001)).toMatchObject({
      command: 'deliver_sm_resp',
      command_status: 0,
    });
    expect(logs.find((l) => l.includes('mobile-originated'))).toContain('15550001111');
    expect(logs.join('\n')).not.toContain('secret text');
  });

  it('enquire_link after the idle time; an SMSC unbind makes it rebind', async () => {
    await simulator();
    await bound({ enquireLinkMs: 40 });
    await waitFor('an enquire_link', () => seen.some((p) => p.command === 'enquire_link'));
    smsc!.sendRaw(new smpp.PDU('unbind', { sequence_number: 7001 }).toBuffer());
    await waitFor('unbind_resp', () => seen.some((p) => p.command === 'unbind_resp'));
    await waitFor('a second bind', () => smsc!.stats.binds === 2);
  });

  it('transmitter + receiver: two binds, receipts come in on the receiver', async () => {
    await simulator({ receiptDelayMs: 0 });
    const route = await bound({ bind: 'transmitter+receiver' });
    await waitFor('two binds', () => smsc!.stats.binds === 2);
    expect(
      seen
        .map((p) => p.command)
        .filter((c) => c.startsWith('bind_'))
        .sort(),
    ).toEqual(['bind_receiver', 'bind_transmitter']);
    const result = await route.route.submit(stored('split binds'));
    if (result.outcome !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(result)}`);
    await waitFor('the receipt', () => route.receipts.length === 1);
    expect(route.receipts[0]).toMatchObject({
      peerId: result.peerIds[0],
      state: 'delivered',
    });
    expect(route.route.status().detail).toMatch(/^bound transmitter to .*; bound receiver to /);
  });

  it('close with work in flight: waits up to the deadline, then retry (maybeSent only for what was written), and unbinds', async () => {
    await simulator({ answerSubmits: false });
    const { route } = await bound({ window: 1 });
    const written = route.submit(stored('in flight at close'));
    const queued = route.submit(stored('waiting for the window at close'));
    await waitFor('the submit at the SMSC', () => smsc!.stats.submits === 1);
    await route.close(50);
    expect(await written).toMatchObject({ outcome: 'retry', code: 'SMSKIT_CLOSING', maybeSent: true });
    expect(await queued).toMatchObject({ outcome: 'retry', code: 'SMSKIT_CLOSING', maybeSent: false });
    expect(smsc!.stats.submits).toBe(1);
    expect(route.status().inFlight).toBe(0);
    // Written as the deadline ends, without waiting for unbind_resp: the SMSC reads it a moment later.
    await waitFor('the unbind at the SMSC', () => seen.some((p) => p.command === 'unbind'));
    expect(route.status().up).toBe(false);
    started = undefined;
  });
});
