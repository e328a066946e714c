/**
 * The product's GSM 03.38 tables against the ones typed from 3GPP TS 23.038 §6.2.1 in
 * ./gsm-reference.ts: every code of the basic table, every extension character, and every other
 * BMP character refused (counted as not GSM, so the text goes as UCS-2).
 */
import { describe, expect, it } from 'vitest';
import { gsmText, isGsm7, septetCodes, septetWidth } from '../../../service/sms/gsm-alphabet.js';
import { splitIntoSegments } from '../../../service/sms/segments.js';
import { BASIC, ESC, EXTENSION } from './gsm-reference.js';

const basic = [...BASIC.entries()].filter(([code]) => code !== ESC);

describe('GSM 03.38 basic table (3GPP TS 23.038 §6.2.1)', () => {
  it('has 128 codes, 0x00 "@" to 0x7F "à", with ESC at 0x1B', () => {
    expect(BASIC).toHaveLength(128);
    expect(String.fromCodePoint(BASIC[0x00] as number)).toBe('@');
    expect(String.fromCodePoint(BASIC[0x7f] as number)).toBe('à');
    expect(BASIC[ESC]).toBe(-1);
  });

  it.each(basic.map(([code, point]) => [code.toString(16).padStart(2, '0'), String.fromCodePoint(point), code]))(
    '0x%s %j is one septet of that code, and reads back',
    (_, ch, code) => {
      expect(septetWidth(ch as string)).toBe(1);
      expect([...septetCodes(ch as string)]).toEqual([code]);
      expect(gsmText([code as number])).toBe(ch);
    },
  );
});

describe('GSM 03.38 extension table (§6.2.1.1)', () => {
  it.each(
    [...EXTENSION].map(([code, point]) => [code.toString(16).padStart(2, '0'), String.fromCodePoint(point), code]),
  )('ESC 0x%s %j is two septets, 0x1B then the code, and reads back', (_, ch, code) => {
    expect(septetWidth(ch as string)).toBe(2);
    expect([...septetCodes(ch as string)]).toEqual([ESC, code]);
    expect(gsmText([ESC, code as number])).toBe(ch);
  });
});

describe('characters in neither table', () => {
  const known = new Set<number>([...basic.map(([, point]) => point), ...EXTENSION.values()]);
  const outside: string[] = [];
  for (let point = 0; point <= 0xffff; point++) {
    if (point >= 0xd800 && point <= 0xdfff) continue;
    if (!known.has(point)) outside.push(String.fromCharCode(point));
  }

  it('every other BMP character costs 0 septets and is not GSM 7-bit, ESC itself included', () => {
    expect(outside).toContain('\u001b');
    expect(outside).toContain('ç'); // only the capital Ç is at 0x09
    const counted = outside.filter((ch) => septetWidth(ch) !== 0 || isGsm7(ch));
    expect(counted).toEqual([]);
  });

  it.each(['\u001b', 'ç', '`', 'ê', 'ω', '你', '😀'])('%j cannot be encoded and sends the text as UCS-2', (ch) => {
    expect(() => septetCodes(`a${ch}`)).toThrow(/not in GSM 7-bit/);
    expect(splitIntoSegments(`a${ch}`, false).encoding).toBe('ucs2');
  });
});
