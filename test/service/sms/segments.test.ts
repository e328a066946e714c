import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SmsRefusal } from '../../../service/errors.js';
import { isGsm7, septetWidth } from '../../../service/sms/gsm-alphabet.js';
import {
  checkMessage,
  countSegments,
  splitIntoSegments,
  segmentCapacity,
  udhOctets,
  type Encoding,
} from '../../../service/sms/segments.js';

const a = (n: number): string => 'a'.repeat(n);
const zhe = (n: number): string => 'ж'.repeat(n); // Cyrillic: UCS-2, one unit each
const EMOJI = '😀'; // outside the BMP: two UTF-16 units

describe('GSM 03.38 alphabet', () => {
  const cases: Array<[string, { given: string; want: { gsm7: boolean; septets?: number } }]> = [
    ['ASCII letters and digits', { given: 'Hello 123', want: { gsm7: true, septets: 9 } }],
    ['currency and accents of the default table', { given: '@£$¥èéùìòÇØøÅåÆæßÉ', want: { gsm7: true } }],
    ['Greek capitals of the default table', { given: 'ΔΦΓΛΩΠΨΣΘΞ', want: { gsm7: true } }],
    ['German/Spanish letters', { given: 'ÄÖÑÜ§¿äöñüà¡', want: { gsm7: true } }],
    ['LF and CR', { given: 'a\nb\rc', want: { gsm7: true, septets: 5 } }],
    ['extension table costs 2 each', { given: '€^{}\\[~]|\f', want: { gsm7: true, septets: 20 } }],
    ['ESC itself is not text', { given: '\u001b', want: { gsm7: false } }],
    ['lower-case ç is not in the table', { given: 'ç', want: { gsm7: false } }],
    ['á is not in the table', { given: 'á', want: { gsm7: false } }],
    ['backtick is not in the table', { given: '`', want: { gsm7: false } }],
    ['tab is not in the table', { given: '\t', want: { gsm7: false } }],
    ['Cyrillic', { given: 'ж', want: { gsm7: false } }],
    ['emoji', { given: EMOJI, want: { gsm7: false } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(isGsm7(given)).toBe(want.gsm7);
    if (want.septets !== undefined) {
      expect([...given].reduce((sum, ch) => sum + septetWidth(ch), 0)).toBe(want.septets);
    }
  });
});

describe('segment capacity table (docs/service.md)', () => {
  const cases: Array<[string, { given: [Encoding, boolean, boolean]; want: { capacity: number; udh: number } }]> = [
    ['gsm7 single', { given: ['gsm7', false, false], want: { capacity: 160, udh: 0 } }],
    ['gsm7 concatenated', { given: ['gsm7', true, false], want: { capacity: 153, udh: 6 } }],
    ['gsm7 single + port', { given: ['gsm7', false, true], want: { capacity: 152, udh: 7 } }],
    ['gsm7 concatenated + port', { given: ['gsm7', true, true], want: { capacity: 146, udh: 12 } }],
    ['ucs2 single', { given: ['ucs2', false, false], want: { capacity: 70, udh: 0 } }],
    ['ucs2 concatenated', { given: ['ucs2', true, false], want: { capacity: 67, udh: 6 } }],
    ['ucs2 single + port', { given: ['ucs2', false, true], want: { capacity: 66, udh: 7 } }],
    ['ucs2 concatenated + port', { given: ['ucs2', true, true], want: { capacity: 64, udh: 12 } }],
  ];
  it.each(cases)('%s', (_name, { given: [encoding, concatenated, port], want }) => {
    expect(segmentCapacity(encoding, concatenated, port)).toBe(want.capacity);
    expect(udhOctets(concatenated, port)).toBe(want.udh);
  });
});

describe('segment counts at the boundaries', () => {
  const cases: Array<
    [string, { given: { text: string; port?: boolean }; want: { encoding: Encoding; segments: number } }]
  > = [
    ['gsm7 1 char', { given: { text: a(1) }, want: { encoding: 'gsm7', segments: 1 } }],
    ['gsm7 160', { given: { text: a(160) }, want: { encoding: 'gsm7', segments: 1 } }],
    ['gsm7 161', { given: { text: a(161) }, want: { encoding: 'gsm7', segments: 2 } }],
    ['gsm7 306 = 153x2', { given: { text: a(306) }, want: { encoding: 'gsm7', segments: 2 } }],
    ['gsm7 307', { given: { text: a(307) }, want: { encoding: 'gsm7', segments: 3 } }],
    ['gsm7 1530 = 153x10', { given: { text: a(1530) }, want: { encoding: 'gsm7', segments: 10 } }],
    ['gsm7 80 euro = 160 septets', { given: { text: '€'.repeat(80) }, want: { encoding: 'gsm7', segments: 1 } }],
    [
      'gsm7 80 euro + 1 = 161 septets',
      { given: { text: `${'€'.repeat(80)}a` }, want: { encoding: 'gsm7', segments: 2 } },
    ],
    [
      'gsm7 escape pair never split (306 septets, 3 segments)',
      { given: { text: `${a(152)}€${a(152)}` }, want: { encoding: 'gsm7', segments: 3 } },
    ],
    [
      'gsm7 escape pair fits exactly',
      { given: { text: `${a(151)}€${a(153)}` }, want: { encoding: 'gsm7', segments: 2 } },
    ],
    ['ucs2 70', { given: { text: zhe(70) }, want: { encoding: 'ucs2', segments: 1 } }],
    ['ucs2 71', { given: { text: zhe(71) }, want: { encoding: 'ucs2', segments: 2 } }],
    ['ucs2 134 = 67x2', { given: { text: zhe(134) }, want: { encoding: 'ucs2', segments: 2 } }],
    ['ucs2 135', { given: { text: zhe(135) }, want: { encoding: 'ucs2', segments: 3 } }],
    ['one non-GSM char makes all UCS-2', { given: { text: `${a(100)}ж` }, want: { encoding: 'ucs2', segments: 2 } }],
    ['emoji: 35 = 70 units', { given: { text: EMOJI.repeat(35) }, want: { encoding: 'ucs2', segments: 1 } }],
    ['emoji: 35 + 1 = 71 units', { given: { text: `${EMOJI.repeat(35)}a` }, want: { encoding: 'ucs2', segments: 2 } }],
    [
      'surrogate pair never split (134 units, 3 segments)',
      { given: { text: zhe(66) + EMOJI + zhe(66) }, want: { encoding: 'ucs2', segments: 3 } },
    ],
    ['port gsm7 152', { given: { text: a(152), port: true }, want: { encoding: 'gsm7', segments: 1 } }],
    ['port gsm7 153', { given: { text: a(153), port: true }, want: { encoding: 'gsm7', segments: 2 } }],
    ['port gsm7 292 = 146x2', { given: { text: a(292), port: true }, want: { encoding: 'gsm7', segments: 2 } }],
    ['port gsm7 293', { given: { text: a(293), port: true }, want: { encoding: 'gsm7', segments: 3 } }],
    ['port ucs2 66', { given: { text: zhe(66), port: true }, want: { encoding: 'ucs2', segments: 1 } }],
    ['port ucs2 67', { given: { text: zhe(67), port: true }, want: { encoding: 'ucs2', segments: 2 } }],
    ['port ucs2 128 = 64x2', { given: { text: zhe(128), port: true }, want: { encoding: 'ucs2', segments: 2 } }],
    ['port ucs2 129', { given: { text: zhe(129), port: true }, want: { encoding: 'ucs2', segments: 3 } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const port = given.port ?? false;
    const split = splitIntoSegments(given.text, port);
    expect({ encoding: split.encoding, segments: split.segments.length }).toEqual(want);
    expect(split.segments.join('')).toBe(given.text);
    const capacity = segmentCapacity(want.encoding, split.segments.length > 1, port);
    for (const segment of split.segments) {
      expect(segment).not.toMatch(/\p{Cs}/u); // no half of a surrogate pair
      const units = want.encoding === 'gsm7' ? [...segment].reduce((s, ch) => s + septetWidth(ch), 0) : segment.length;
      expect(units).toBeLessThanOrEqual(capacity);
    }
    expect(checkMessage(given.text, port, { maxSegments: 10 })).toEqual(want);
    expect(countSegments(given.text, port)).toMatchObject({ encoding: want.encoding, segments: want.segments });
  });
});

/** Units of `text` in `encoding`: septets, or UTF-16 units. */
function unitsIn(text: string, encoding: Encoding): number {
  return encoding === 'gsm7' ? [...text].reduce((sum, ch) => sum + septetWidth(ch), 0) : text.length;
}

describe('any text splits greedily, whole pieces only', () => {
  // GSM letters, extension characters (2 septets), Cyrillic (UCS-2), emoji (a surrogate pair).
  const piece = fc.constantFrom('a', 'Z', ' ', '€', '{', 'ж', '😀', 'é', 'ç');
  const text = fc.array(piece, { maxLength: 700, size: 'max' }).map((pieces) => pieces.join(''));
  it('joins back to the text; every segment fits; each full segment could not take the next piece', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (given, port) => {
        const split = splitIntoSegments(given, port);
        expect(split.segments.join('')).toBe(given);
        expect(split.units).toBe(unitsIn(given, split.encoding));
        expect(split.segments.length).toBe(countSegments(given, port).segments);
        const capacity = segmentCapacity(split.encoding, split.segments.length > 1, port);
        split.segments.forEach((segment, index) => {
          expect(segment).not.toMatch(/\p{Cs}/u);
          expect(unitsIn(segment, split.encoding)).toBeLessThanOrEqual(capacity);
          const next = split.segments[index + 1];
          if (next !== undefined) {
            const firstPiece = [...next][0] as string;
            expect(unitsIn(segment + firstPiece, split.encoding)).toBeGreaterThan(capacity);
          }
        });
      }),
      { numRuns: 400 },
    );
  });
});

describe('MessageTooLong says what the text takes and the cap', () => {
  const cases: Array<[string, { given: { text: string; port?: boolean; max?: number }; want: string }]> = [
    ['UCS-2', { given: { text: zhe(1002) }, want: 'smsmsg needs 15 segments (UCS-2, 1,002 characters); at most 10' }],
    [
      'an emoji is one character, two units, never split',
      { given: { text: '😀'.repeat(340) }, want: 'smsmsg needs 11 segments (UCS-2, 340 characters); at most 10' },
    ],
    [
      'GSM 7-bit extension characters take two septets',
      { given: { text: '€'.repeat(800) }, want: 'smsmsg needs 11 segments (GSM 7-bit, 800 characters); at most 10' },
    ],
    [
      'with a port, under a configured cap',
      {
        given: { text: a(300), port: true, max: 2 },
        want: 'smsmsg needs 3 segments (GSM 7-bit, 300 characters); at most 2',
      },
    ],
    [
      'a huge text, refused before it is split',
      {
        given: { text: a(5_000_000) },
        want: 'smsmsg needs 32,680 segments (GSM 7-bit, 5,000,000 characters); at most 10',
      },
    ],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(() => checkMessage(given.text, given.port ?? false, { maxSegments: given.max ?? 10 })).toThrow(
      expect.objectContaining({ code: 'MessageTooLong', message: want }),
    );
  });
});

describe('checkMessage refusals', () => {
  const cases: Array<[string, { given: { text: string; port?: boolean; max?: number }; want: string }]> = [
    ['empty', { given: { text: '' }, want: 'EmptyMessage' }],
    ['gsm7 1531 over the default cap of 10', { given: { text: a(1531) }, want: 'MessageTooLong' }],
    ['ucs2 671 over the cap (67x10 = 670)', { given: { text: zhe(671) }, want: 'MessageTooLong' }],
    ['port gsm7 1461 over the cap (146x10)', { given: { text: a(1461), port: true }, want: 'MessageTooLong' }],
    ['configured cap 1', { given: { text: a(161), max: 1 }, want: 'MessageTooLong' }],
    ['huge text refused early', { given: { text: a(5_000_000) }, want: 'MessageTooLong' }],
    ['unpaired high surrogate', { given: { text: 'a\uD83D' }, want: 'InvalidMessage' }],
    ['unpaired low surrogate', { given: { text: '\uDE00b' }, want: 'InvalidMessage' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const run = () => checkMessage(given.text, given.port ?? false, { maxSegments: given.max ?? 10 });
    expect(run).toThrow(SmsRefusal);
    expect(run).toThrow(expect.objectContaining({ code: want, field: 'smsmsg' }));
  });

  it('a cap of 1 still allows a full single segment', () => {
    expect(checkMessage(a(160), false, { maxSegments: 1 })).toEqual({ encoding: 'gsm7', segments: 1 });
    expect(checkMessage(a(152), true, { maxSegments: 1 })).toEqual({ encoding: 'gsm7', segments: 1 });
  });

  it('accepts exactly at the cap', () => {
    expect(checkMessage(zhe(670), false, { maxSegments: 10 })).toEqual({ encoding: 'ucs2', segments: 10 });
    expect(checkMessage(a(1460), true, { maxSegments: 10 })).toEqual({ encoding: 'gsm7', segments: 10 });
  });
});
