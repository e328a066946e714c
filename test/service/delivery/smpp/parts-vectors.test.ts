/**
 * Octets the SMPP parts carry, written out by hand from 3GPP TS 23.038 §6.1.2.1 (7-bit packing)
 * and UTF-16BE, never computed by the codec under test: packed text with and without fill bits
 * after a user data header, and UCS-2 surrogate pairs kept whole across a segment boundary.
 */
import { describe, expect, it } from 'vitest';
import { buildParts } from '../../../../service/delivery/smpp/parts.js';
import { septetCodes } from '../../../../service/sms/gsm-alphabet.js';
import { packSeptets, ucs2Octets } from '../../../../service/sms/pack.js';
import { stored } from './helpers.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const packed = { gsmPacking: 'packed', concatenation: 'udh' } as const;

function partsOf(result: ReturnType<typeof buildParts>): string[] {
  if ('error' in result) throw new Error(result.error);
  return result.parts.map((part) => hex(part.short_message));
}

describe('7-bit packing (§6.1.2.1)', () => {
  // Septets go in low bits first: "H" 0x48 fills bits 0-6 of octet 0, "e" 0x65 starts at bit 7,
  // so octet 0 = 0x48 | (0x65 << 7 & 0xff) = 0xC8, octet 1 = 0x65 >> 1 | 0x6C << 6 & 0xff = 0x32…
  it.each([
    ['hellohello', 0, 'e8329bfd4697d9ec37'], // the textbook vector: 70 bits, 2 spare
    ['Hello', 0, 'c8329bfd06'], // 35 bits, 5 spare
    // After a 6-octet header (48 bits) the text starts on the next septet boundary, 49 = 7 × 7:
    // 1 fill bit, so every octet of the vector above moves up one bit and takes the top bit of
    // the octet before: 0xE8 << 1 = 0xD0; 0x32 << 1 | 0xE8 >> 7 = 0x65; 0x9B << 1 | 0 = 0x36 …
    // 0x37 << 1 | 0xEC >> 7 = 0x6F (71 bits, 1 spare).
    ['hellohello', 1, 'd06536fb8d2eb3d96f'],
    // After a 12-octet header (96 bits) the boundary is 98 = 14 × 7: 2 fill bits.
    // 0xE8 << 2 = 0xA0; 0x32 << 2 | 0xE8 >> 6 = 0xCB … (72 bits, none spare).
    ['hellohello', 2, 'a0cb6cf61b5d66b3df'],
  ])('%j after %i fill bit(s) packs as %s', (text, fill, want) => {
    expect(hex(packSeptets(septetCodes(text), fill))).toBe(want);
  });
});

describe('a concatenated packed message as the parts carry it', () => {
  it('second part: 05 00 03 ref 02 02, then "hellohello" after 1 fill bit', () => {
    const message = stored(`${'a'.repeat(153)}hellohello`);
    expect(message.segments).toBe(2);
    const [first, second] = partsOf(buildParts(message, packed, 0x2a));
    // 153 septets of "a" (0x61) after 1 fill bit: 1 + 1071 = 1072 bits = 134 octets, 6 + 134 = 140.
    // The first septet takes bits 1-7 of octet 0: 0x61 << 1 = 0xC2. The second takes bits 0-6 of
    // octet 1 (0x61) and the third's bit 0 (1) lands in bit 7: 0xE1.
    expect(first).toMatch(/^0500032a0201c2e1/);
    expect(first).toHaveLength(280);
    expect(second).toBe('0500032a0202d06536fb8d2eb3d96f');
  });
});

describe('UCS-2: UTF-16 big-endian, surrogate pairs whole', () => {
  it('😀 U+1F600 is D8 3D DE 00; € U+20AC is 20 AC', () => {
    expect(hex(ucs2Octets('😀'))).toBe('d83dde00');
    expect(hex(ucs2Octets('€'))).toBe('20ac');
  });

  it('a pair that would straddle the 67-unit boundary moves whole to the next segment', () => {
    // 66 + 2 + 5 = 73 units > 70: concatenated, 67 units a part. "😀" would take units 67 and 68,
    // so the first part ends after the 66 "a" and the pair opens the second.
    const message = stored(`${'a'.repeat(66)}😀bbbbb`);
    expect(message).toMatchObject({ encoding: 'ucs2', segments: 2 });
    const [first, second] = partsOf(buildParts(message, packed, 0x07));
    expect(first).toBe(`050003070201${'0061'.repeat(66)}`);
    expect(second).toBe(`050003070202d83dde00${'0062'.repeat(5)}`);
  });

  it('a pair that fits exactly stays in the first segment', () => {
    // 65 + 2 = 67 units fill the first part exactly; the "b"s go to the second.
    const message = stored(`${'a'.repeat(65)}😀bbbbbb`);
    expect(message.segments).toBe(2);
    const [first, second] = partsOf(buildParts(message, packed, 0x07));
    expect(first).toBe(`050003070201${'0061'.repeat(65)}d83dde00`);
    expect(second).toBe(`050003070202${'0062'.repeat(6)}`);
  });
});
