/**
 * What service/delivery/smpp/raw-octets.ts does to node-smpp's parsing: the octets kept beside
 * its decoded text, that text decoded only when read, and then exactly what node-smpp alone gives
 * (compared with a process that loads node-smpp without it).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import smpp from 'smpp';
import { describe, expect, it, vi } from 'vitest';
import { fieldOctets } from '../../../../service/delivery/smpp/raw-octets.js';

/** deliver_sm PDUs as hex: each field's octets as given, so node-smpp's encoder leaves them alone. */
const CASES: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  [
    'GSM text with extension characters',
    { data_coding: 0, short_message: Buffer.from([0x48, 0x69, 0x1b, 0x65, 0x1b, 0x3c, 0x80]) },
  ],
  [
    'a receipt',
    {
      data_coding: 0,
      esm_class: 0x04,
      short_message: Buffer.from('id:7 sub:001 dlvrd:001 stat:DELIVRD err:000', 'latin1'),
    },
  ],
  [
    'a concatenated part (UDH)',
    { data_coding: 0, esm_class: 0x40, short_message: Buffer.from([5, 0, 3, 9, 2, 1, 0x41, 0x42]) },
  ],
  [
    'a UDH under Kannel\u2019s indicator',
    { data_coding: 0, esm_class: 0x43, short_message: Buffer.from([5, 0, 3, 9, 2, 2, 0x43]) },
  ],
  ['UCS-2', { data_coding: 8, short_message: Buffer.from('\u00a1Hola \u20ac', 'utf16le').swap16() }],
  ['Latin-1', { data_coding: 3, short_message: Buffer.from('caf\u00e9', 'latin1') }],
  ['binary', { data_coding: 4, short_message: Buffer.from([0, 1, 2, 0xff]) }],
  [
    'message_payload',
    { data_coding: 0, short_message: Buffer.alloc(0), message_payload: Buffer.from('long text', 'latin1') },
  ],
];

/** node-smpp's GSM 03.38 coder, which the types in service/delivery/smpp/node-smpp.d.ts leave out. */
const nodeSmppGsmCoder = (smpp as unknown as { gsmCoder: { getCoder(encoding: number): unknown } }).gsmCoder;

const wire = CASES.map(([, fields]) =>
  new smpp.PDU('deliver_sm', { sequence_number: 1, ...fields }).toBuffer().toString('hex'),
);

/** short_message and message_payload as node-smpp decodes them, Buffers as hex. */
function decodedFields(pdu: Record<string, unknown>): unknown {
  const plain = (value: unknown): unknown =>
    Buffer.isBuffer(value)
      ? value.toString('hex')
      : typeof value === 'object' && value !== null
        ? JSON.parse(JSON.stringify(value, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('hex') : v)))
        : value;
  return {
    short_message: plain(pdu.short_message),
    message_payload: plain(pdu.message_payload),
    keys: Object.keys(pdu.short_message ?? {}),
  };
}

describe('node-smpp with the octets kept', () => {
  it('decodes the text only when it is read', () => {
    const getCoder = vi.spyOn(nodeSmppGsmCoder, 'getCoder');
    try {
      const pdu = new smpp.PDU(Buffer.from(wire[0]!, 'hex')) as unknown as Record<string, { message: unknown }>;
      expect(getCoder).not.toHaveBeenCalled();
      expect(pdu.short_message!.message).toBe('Hi€[ ');
      expect(getCoder).toHaveBeenCalled();
      expect(fieldOctets(pdu as never, 'short_message').toString('hex')).toBe(
        (CASES[0]![1].short_message as Buffer).toString('hex'),
      );
    } finally {
      getCoder.mockRestore();
    }
  });

  it('gives, once read, what node-smpp alone gives: keys, text, header', () => {
    const smppPath = createRequire(import.meta.url).resolve('smpp');
    const alone = spawnSync(
      process.execPath,
      [
        '-e',
        `const smpp = require(${JSON.stringify(smppPath)});
         const plain = ${decodedFields.toString()};
         const out = JSON.parse(process.argv[1]).map((hex) => plain(smpp.PDU.fromBuffer(Buffer.from(hex, 'hex'))));
         process.stdout.write(JSON.stringify(out));`,
        JSON.stringify(wire),
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    );
    expect(alone.stderr).toBe('');
    const expected = JSON.parse(alone.stdout) as unknown[];
    const patched = wire.map((hex) => decodedFields(new smpp.PDU(Buffer.from(hex, 'hex')) as never));
    expect(patched).toEqual(expected);
    expect(expected.length).toBe(CASES.length);
    // The cases do reach node-smpp's header and GSM decoding.
    expect(JSON.stringify(expected[2])).toContain('"udh"');
    expect(JSON.stringify(expected[0])).toContain('Hi€[');
  });
});
