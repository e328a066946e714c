/**
 * The pieces of the SMPP route that need no socket: parts with their headers, the status table,
 * receipt parsing, pacing and backoff, and the simulator's outcome mix (the septet codec itself
 * is proven in test/service/sms/pack.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { decodeText, readUserDataHeader } from '../../../../service/delivery/simulator/decode.js';
import { parseOutcomeMix, pickOutcome } from '../../../../service/delivery/simulator/outcomes.js';
import { backoffDelay, Pacer } from '../../../../service/delivery/smpp/pacing.js';
import { buildParts } from '../../../../service/delivery/smpp/parts.js';
import { parseReceipt } from '../../../../service/delivery/smpp/receipts.js';
import { statusClass, statusName } from '../../../../service/delivery/smpp/status-codes.js';
import { stored } from './helpers.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('parts', () => {
  const layout = { gsmPacking: 'unpacked', concatenation: 'udh' } as const;

  it('one part without a header for a short message', () => {
    const result = buildParts(stored('hi'), layout, 7);
    expect(result).toEqual({
      parts: [{ short_message: Buffer.from('6869', 'hex'), esm_class: 0, data_coding: 0, tlvs: {} }],
    });
  });

  it('as many parts as the stored segment count, each with 05 00 03 ref total seq', () => {
    const message = stored('x'.repeat(400));
    const result = buildParts(message, layout, 0x1a2);
    if (!('parts' in result)) throw new Error(result.error);
    expect(result.parts).toHaveLength(message.segments);
    expect(result.parts.map((p) => hex(p.short_message.subarray(0, 6)))).toEqual([
      '050003a20301',
      '050003a20302',
      '050003a20303',
    ]);
    // Unpacked: one octet per septet after the 6-octet header (the SMSC packs them to 140 on the air).
    expect(result.parts.map((p) => p.short_message.length)).toEqual([6 + 153, 6 + 153, 6 + 94]);
    expect(result.parts.every((p) => p.esm_class === 0x40)).toBe(true);
  });

  it('a port alone gives the 16-bit port IE; packed parts fit 140 octets', () => {
    const message = stored('y'.repeat(300), { port: 0x1234 });
    const result = buildParts(message, { gsmPacking: 'packed', concatenation: 'udh' }, 1);
    if (!('parts' in result)) throw new Error(result.error);
    expect(result.parts.every((p) => p.short_message.length <= 140)).toBe(true);
    const header = readUserDataHeader(result.parts[0]!.short_message);
    expect(header).toEqual({ length: 12, concat: { reference: 1, total: 3, seq: 1 }, port: 0x1234 });
    const single = buildParts(stored('z', { port: 80 }), layout, 1);
    if (!('parts' in single)) throw new Error(single.error);
    expect(hex(single.parts[0]!.short_message)).toBe('060504005000007a');
    expect(decodeText(single.parts[0]!.short_message.subarray(7), 0, false, 7)).toBe('z');
  });

  it('SAR puts concatenation and port in TLVs and no header', () => {
    const result = buildParts(
      stored('w'.repeat(200), { port: 9200 }),
      { gsmPacking: 'unpacked', concatenation: 'sar' },
      0xbeef,
    );
    if (!('parts' in result)) throw new Error(result.error);
    expect(result.parts.map((p) => p.tlvs)).toEqual([
      { sar_msg_ref_num: 0xbeef, sar_total_segments: 2, sar_segment_seqnum: 1, dest_port: 9200 },
      { sar_msg_ref_num: 0xbeef, sar_total_segments: 2, sar_segment_seqnum: 2, dest_port: 9200 },
    ]);
    expect(result.parts.every((p) => p.esm_class === 0)).toBe(true);
  });

  it('refuses a row whose text no longer splits into its stored encoding or segment count', () => {
    expect(buildParts({ ...stored('hello'), segments: 2 }, layout, 1)).toEqual({
      error: 'the text splits into 1 gsm7 part(s), stored as 2 gsm7',
    });
    expect('error' in buildParts({ ...stored('hello'), encoding: 'ucs2' }, layout, 1)).toBe(true);
  });
});

describe('command_status table', () => {
  it.each([
    [0x00, 'ESME_ROK', 'ok'],
    [0x58, 'ESME_RTHROTTLED', 'throttle'],
    [0x14, 'ESME_RMSGQFUL', 'throttle'],
    [0x0b, 'ESME_RINVDSTADR', 'permanent'],
    [0x0a, 'ESME_RINVSRCADR', 'permanent'],
    [0x01, 'ESME_RINVMSGLEN', 'permanent'],
    [0x08, 'ESME_RSYSERR', 'transient'],
    [0x401, '0x00000401', 'transient'],
  ])('%i is %s (%s)', (code, name, kind) => {
    expect(statusName(code)).toBe(name);
    expect(statusClass(code)).toBe(kind);
  });
});

describe('receipts', () => {
  const text =
    'id:abc123 sub:001 dlvrd:001 submit date:2611270101 done date:2611270102 stat:DELIVRD err:000 text:hello';
  it.each([
    [{ text }, { kind: 'final', peerId: 'abc123', state: 'delivered', word: 'DELIVRD', err: '000' }],
    [{ text: text.replace('DELIVRD', 'UNDELIV') }, { kind: 'final', state: 'undeliverable' }],
    [{ text: text.replace('DELIVRD', 'DELETED') }, { kind: 'final', state: 'undeliverable' }],
    [{ text: text.replace('DELIVRD', 'EXPIRED') }, { kind: 'final', state: 'expired' }],
    [{ text: text.replace('DELIVRD', 'REJECTD') }, { kind: 'final', state: 'rejected' }],
    [{ text: text.replace('DELIVRD', 'ENROUTE') }, { kind: 'not-final', word: 'ENROUTE' }],
    [{ text: text.replace('DELIVRD', 'ACCEPTD') }, { kind: 'not-final', word: 'ACCEPTD' }],
    [
      { text: '', receiptedId: 'T1', messageState: 5 },
      { kind: 'final', peerId: 'T1', state: 'undeliverable' },
    ],
    [
      { text, receiptedId: 'fromTLV', messageState: 3 },
      { kind: 'final', peerId: 'fromTLV', state: 'expired' },
    ],
    [
      { text: '', receiptedId: "T2\u0004'\u0001", messageState: 2 },
      { kind: 'final', peerId: 'T2', state: 'delivered' },
    ],
    [{ text: 'stat:DELIVRD' }, { kind: 'malformed' }],
    [{ text: 'id:x' }, { kind: 'malformed' }],
  ])('%j', (fields, want) => {
    expect(parseReceipt(fields)).toMatchObject(want);
  });
});

describe('pacing', () => {
  it('spaces PDUs to the cap after a burst of 20 ms worth, and pauses (doubling) after throttle answers', () => {
    let now = 0;
    const pacer = new Pacer(100, () => now);
    expect(pacer.reserve()).toBe(0); // burst of max(1, 100/50) = 2
    expect(pacer.reserve()).toBe(0);
    expect(pacer.reserve()).toBeCloseTo(10);
    expect(pacer.reserve()).toBeCloseTo(20);
    now = 1_000;
    expect(pacer.reserve()).toBe(0);
    expect(pacer.throttled()).toBe(50);
    expect(pacer.throttled()).toBe(50); // the rest of the same window: no longer pause
    now = 1_060; // the pause is over and the SMSC still says "throttled": twice as long
    expect(pacer.throttled()).toBe(100);
    expect(pacer.reserve()).toBeGreaterThanOrEqual(99);
    pacer.accepted();
    now = 2_000;
    expect(pacer.throttled()).toBe(50);
    const free = new Pacer(0, () => now);
    expect(free.reserve()).toBe(0); // no cap: only a throttle answer makes it wait
    free.throttled();
    expect(free.reserve()).toBe(50);
  });

  it('backoff doubles up to the cap, with half of it random', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, 1_000, 60_000, () => 0))).toEqual([
      500, 1_000, 2_000, 4_000, 30_000,
    ]);
    expect(backoffDelay(3, 1_000, 60_000, () => 0.999)).toBeLessThanOrEqual(8_000);
    expect(backoffDelay(3, 1_000, 60_000, () => 0.999)).toBeGreaterThan(7_900);
  });
});

describe('simulator outcome mix', () => {
  it('parses weights and picks by them', () => {
    const mix = parseOutcomeMix('delivered=90,undeliverable=5,expired=5');
    expect(pickOutcome(mix, 0)).toBe('delivered');
    expect(pickOutcome(mix, 0.899)).toBe('delivered');
    expect(pickOutcome(mix, 0.91)).toBe('undeliverable');
    expect(pickOutcome(mix, 0.99)).toBe('expired');
    expect(() => parseOutcomeMix('delivered=90,lost=10')).toThrow(/"lost=10"/);
    expect(() => parseOutcomeMix('delivered=0')).toThrow(/every weight is 0/);
  });
});
