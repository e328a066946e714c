/**
 * service/delivery/smpp/pdu-codec.ts against node-smpp itself: for generated PDUs of every command
 * node-smpp knows, the same octets written (and the same fields left on the PDU, which filters
 * change while encoding), and the same PDU read back from those octets and from damaged copies of
 * them (or the same error).
 */
import fc from 'fast-check';
import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { decodePdu, encodePdu, nodeSmppToBuffer } from '../../../../service/delivery/smpp/pdu-codec.js';
import '../../../../service/delivery/smpp/raw-octets.js';

type Fields = Record<string, unknown>;
interface Tables {
  commands: Record<string, { params?: Record<string, { type: unknown; filter?: unknown }> }>;
  tlvs: Record<string, { type: unknown; filter?: unknown; multiple?: boolean }>;
  types: Record<string, unknown> & { tlv: Record<string, unknown> };
}
const tables = smpp as unknown as Tables;
const { types } = tables;

/** Text as peers send it: mostly ASCII, some Latin-1, now and then a character beyond it. */
const text = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...'abc XYZ019+:-_@'.split('')) },
    { weight: 1, arbitrary: fc.constantFrom('é', 'ÿ', '\u0080') },
    { weight: 1, arbitrary: fc.constantFrom('€', 'Ω') },
  ),
  maxLength: 20,
});
const octets = fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes));
/** SMPP times: absolute (with a quarter-hour offset) and empty; node-smpp reads relative ones against the clock. */
const absoluteTime = fc.constantFrom('', '261201123456704+', '990101000000000-', '261201123456748+');
const encodeOnlyTime = fc.oneof(absoluteTime, fc.constantFrom('000001000000', '000001000000000R', '12'));

function paramValue(param: { type: unknown; filter?: unknown }, forDecoding: boolean): fc.Arbitrary<unknown> | null {
  if (param.type === types.int8) return fc.integer({ min: 0, max: 255 });
  if (param.type === types.cstring && param.filter !== undefined) return forDecoding ? absoluteTime : encodeOnlyTime;
  if (param.type === types.cstring) return text;
  if (param.type === types.buffer) {
    // short_message: octets as the route writes them; text (encoded by node-smpp's filter) too when encoding.
    return forDecoding
      ? octets
      : fc.oneof(
          octets,
          text.map((message) => message.replace(/[€Ω]/g, 'x')),
        );
  }
  return null; // address arrays: node-smpp's defaults
}

/** TLVs with plain values (node-smpp's own filtered ones take objects we do not send). */
const TLVS = ['sar_msg_ref_num', 'sar_total_segments', 'sar_segment_seqnum', 'dest_port', 'source_port']
  .concat(['receipted_message_id', 'message_state', 'user_message_reference', 'network_error_code'])
  .filter((tag) => tables.tlvs[tag] !== undefined && tables.tlvs[tag].filter === undefined);

function tlvValue(tag: string): fc.Arbitrary<unknown> {
  const type = tables.tlvs[tag]?.type;
  if (type === types.tlv.int8) return fc.integer({ min: 0, max: 255 });
  if (type === types.tlv.int16) return fc.integer({ min: 0, max: 0xffff });
  if (type === types.tlv.int32) return fc.integer({ min: 0, max: 0x7fffffff });
  if (type === types.tlv.cstring) return text.map((value) => value.replace(/[^\x20-\x7e]/g, 'x'));
  return octets;
}

/** A command's options: some of its parameters set, some TLVs, sometimes a command_status. */
function optionsFor(command: string, forDecoding: boolean): fc.Arbitrary<Fields> {
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, param] of Object.entries(tables.commands[command]?.params ?? {})) {
    const value = paramValue(param, forDecoding);
    if (value !== null) shape[key] = value;
  }
  for (const tag of TLVS) shape[tag] = tlvValue(tag);
  shape.command_status = fc.constantFrom(0, 0, 0, 0x58);
  shape.sequence_number = fc.integer({ min: 1, max: 0x7fffffff });
  return fc.record(shape, { requiredKeys: [] });
}

const commandNames = Object.keys(tables.commands);
const pduSpec = (forDecoding: boolean) =>
  fc.constantFrom(...commandNames).chain((command) => optionsFor(command, forDecoding).map((o) => ({ command, o })));

/** Each side gets its own PDU and its own copy of the options (filters write into both). */
function build(command: string, options: Fields): smpp.PDU {
  const copy = Object.fromEntries(
    Object.entries(options).map(([k, v]) => [k, Buffer.isBuffer(v) ? Buffer.from(v) : v]),
  );
  return new smpp.PDU(command, copy);
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('the SMPP codec against node-smpp', () => {
  it('is installed: PDUs are written and framed by it', () => {
    expect(smpp.PDU.prototype.toBuffer).not.toBe(nodeSmppToBuffer);
    const pdu = new smpp.PDU('enquire_link', { sequence_number: 7 });
    expect(pdu.toBuffer().toString('hex')).toBe('00000010000000150000000000000007');
  });

  it('writes the same octets and leaves the same fields', () => {
    fc.assert(
      fc.property(pduSpec(false), ({ command, o }) => {
        const ours = build(command, o);
        const theirs = build(command, o);
        expect(outcome(() => encodePdu(ours))).toEqual(outcome(() => nodeSmppToBuffer.call(theirs)));
        expect({ ...ours }).toEqual({ ...theirs });
      }),
      { numRuns: 1_500 },
    );
  });

  it('reads the same PDU back, from whole and from damaged octets', () => {
    const damage = fc.record({
      cut: fc.integer({ min: 0, max: 40 }),
      length: fc.option(fc.integer({ min: 0, max: 300 })),
      flip: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }))),
    });
    fc.assert(
      fc.property(pduSpec(true), damage, ({ command, o }, { cut, length, flip }) => {
        const whole = nodeSmppToBuffer.call(build(command, o));
        const damaged = Buffer.from(whole.subarray(0, Math.max(16, whole.length - cut)));
        if (length !== null) damaged.writeUInt32BE(length, 0);
        if (flip !== null) {
          const at = 16 + (flip[0] % Math.max(1, damaged.length - 16));
          if (at < damaged.length) damaged[at] = (damaged[at] ?? 0) ^ flip[1];
        }
        for (const octets of [whole, damaged]) {
          expect(outcome(() => ({ ...decodePdu(octets) }))).toEqual(outcome(() => ({ ...new smpp.PDU(octets) })));
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('frames a PDU from a stream in its own buffer, waiting while it is incomplete', () => {
    const whole = new smpp.PDU('submit_sm_resp', { sequence_number: 3, message_id: 'abc' }).toBuffer();
    const chunk = Buffer.concat([whole.subarray(4), Buffer.alloc(64, 0xee)]);
    let given: Buffer | null = null;
    const stream = { read: (size: number) => (given === null ? null : given.subarray(0, size)) };
    expect(smpp.PDU.fromStream(stream, whole.length)).toBe(false);
    given = chunk;
    const pdu = smpp.PDU.fromStream(stream, whole.length);
    expect(pdu).not.toBe(false);
    expect({ ...(pdu as smpp.PDU) }).toEqual({ ...new smpp.PDU(whole) });
    chunk.fill(0); // the PDU holds no view of the socket's chunk
    expect((pdu as smpp.PDU).message_id).toBe('abc');
  });
});
