/**
 * The GSM 7-bit septet codec as SMPP carries it: septet codes, unpacked and packed, fill bits
 * after a header, CR padding, and UCS-2.
 */
import { describe, expect, it } from 'vitest';
import { gsmText, septetCodes } from '../../../service/sms/gsm-alphabet.js';
import { fillBitsAfter, packSeptets, ucs2Octets, unpackSeptets } from '../../../service/sms/pack.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('GSM 7-bit', () => {
  it.each([
    ['hellohello', 'e8329bfd4697d9ec37'], // 3GPP's and everyone's textbook example
    ['A', '41'],
    ['1234567', '31d98c56b3dd1a'], // 7 septets: the last octet's 7 spare bits carry CR (0x0d << 1)
  ])('packs %j as %s', (text, want) => {
    expect(hex(packSeptets(septetCodes(text)))).toBe(want);
    expect(gsmText(unpackSeptets(packSeptets(septetCodes(text))))).toBe(text);
  });

  it('puts extension characters as ESC + code and reads them back', () => {
    expect(hex(septetCodes('€[]~^{}\\|\f'))).toBe('1b651b3c1b3e1b3d1b141b281b291b2f1b401b0a');
    expect(gsmText(septetCodes('@£$¥ΔΦ_ €[x]'))).toBe('@£$¥ΔΦ_ €[x]');
    expect(() => septetCodes('你')).toThrow(/not in GSM 7-bit/);
  });

  it('packs after a header with fill bits to the next septet boundary, for every header length', () => {
    const text = 'The quick brown fox €{}';
    for (let udh = 0; udh <= 13; udh++) {
      const fill = fillBitsAfter(udh);
      expect((udh * 8 + fill) % 7).toBe(0);
      expect(gsmText(unpackSeptets(packSeptets(septetCodes(text), fill), fill))).toBe(text);
    }
    expect(fillBitsAfter(6)).toBe(1);
    expect(fillBitsAfter(7)).toBe(0);
    expect(fillBitsAfter(12)).toBe(2);
  });

  it('keeps a real trailing "@" (code 0) apart from padding', () => {
    for (const text of ['abcdef@', 'abcdefg@', '@'])
      expect(gsmText(unpackSeptets(packSeptets(septetCodes(text))))).toBe(text);
  });

  it('UCS-2 is UTF-16 big-endian, emoji as surrogate pairs', () => {
    expect(hex(ucs2Octets('A€😀'))).toBe('004120acd83dde00');
  });
});
