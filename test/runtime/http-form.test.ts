/** Query strings and form bodies as ASP.NET decodes them: %uXXXX, %XX runs as UTF-8, + as space. */
import { describe, expect, it } from 'vitest';
import { parseFormText } from '../../runtime/http/form.js';
import { compileHttpBinding, isUnusable } from '../../runtime/http/binding.js';
import { decodePostRequest } from '../../runtime/http/post.js';
import { ServiceAPIDescriptor } from '../../generated/service-api/index.js';

const pairs = (text: string) => {
  const parsed = parseFormText(text);
  return 'malformed' in parsed ? parsed : [...parsed];
};

describe('parseFormText', () => {
  it.each([
    [
      '%u escapes (what .NET HttpGetClientProtocol sends)',
      'm=Gr%u00FC%u00DFe+%u4F60%u597D+%uD83D%uDCF1',
      [['m', 'Grüße 你好 📱']],
    ],
    ['%u and UTF-8 %XX mixed', 'm=%u00FC%C3%BC', [['m', 'üü']]],
    ['lower-case hex digits', 'm=%u00fc', [['m', 'ü']]],
    [
      'a %u escape in a name',
      'n%u00E4me=1&b=2',
      [
        ['näme', '1'],
        ['b', '2'],
      ],
    ],
    [
      'a stray % stays literal, as in ASP.NET',
      'm=100%25+%zz&n=%u0041',
      [
        ['m', '100% %zz'],
        ['n', 'A'],
      ],
    ],
    [
      'no %u: the WHATWG parser',
      'a=1&a=2&b=x+y%21',
      [
        ['a', '1'],
        ['a', '2'],
        ['b', 'x y!'],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(pairs(text)).toEqual(want);
  });

  it.each([
    ['too few hex digits', 'm=ab%u12', 'm', '"%u12" is a %u escape without four hex digits'],
    ['a non-hex digit', 'm=%u00G1', 'm', '"%u00G1" is a %u escape without four hex digits'],
    ['half a surrogate pair', 'm=%uD83D', 'm', 'a %u escape leaves half of a surrogate pair (not a whole character)'],
    ['a low surrogate alone', 'm=x%uDCF1y', 'm', 'a %u escape leaves half of a surrogate pair (not a whole character)'],
    ['in a name', 'n%uZZZZ=1', '', '"%uZZZZ" is a %u escape without four hex digits'],
  ])('refuses %s, naming where', (_name, text, name, why) => {
    expect(pairs(text)).toEqual({ malformed: { name, why } });
  });
});

describe('parseFormText without %u: exactly the WHATWG parser', () => {
  // Pieces that stress the parser: separators, empty segments, '+', good and bad escapes,
  // escaped UTF-8 (whole, cut short, invalid) and raw non-ASCII.
  const PIECES = [
    'a',
    'Z',
    '=',
    '&',
    '&&',
    '+',
    '%',
    '%2',
    '%2B',
    '%26',
    '%3D',
    '%41',
    '%4a',
    '%00',
    '%7f',
    '%80',
    '%zz',
    '%C3%A9',
    '%C3',
    '%E2%82',
    '%FF',
    '%ED%A0%80',
    'é',
    '💬',
    ' ',
  ];

  function seeded(seed: number): () => number {
    let state = seed;
    return () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
  }

  it('gives the pairs URLSearchParams gives, on 20,000 random texts', () => {
    const random = seeded(25);
    let mismatches = 0;
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = Math.floor(random() * 12);
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(random() * PIECES.length)];
      const parsed = parseFormText(text);
      const got = 'malformed' in parsed ? parsed : [...parsed];
      if (JSON.stringify(got) !== JSON.stringify([...new URLSearchParams(text)])) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('parseFormText on a long body', () => {
  it('reads every character a bounded number of times (no search from each segment to the end)', () => {
    // A body of many segments and one '=' at its very end: searching for '=' from every segment
    // would read the body once per segment (quadratic: a 4 MiB POST would hold the server ~25 s).
    const text = `${'a&'.repeat(100_000)}b=c`;
    const original = String.prototype.indexOf;
    let scanned = 0;
    String.prototype.indexOf = function (this: string, search: string, from?: number): number {
      const at = original.call(this, search, from);
      if (this === text) scanned += (at < 0 ? this.length : at) - (from ?? 0);
      return at;
    };
    let parsed: ReturnType<typeof parseFormText>;
    try {
      parsed = parseFormText(text);
    } finally {
      String.prototype.indexOf = original;
    }
    expect('malformed' in parsed ? parsed : [...parsed].length).toBe(100_001);
    // One pass for each of '&', '=', '+' and '%': four reads of the text, not one per segment.
    expect(scanned).toBeLessThan(5 * text.length);
  });
});

describe('decodePostRequest', () => {
  it('reads a form body the same from a Buffer, a plain Uint8Array and a view inside a larger buffer', () => {
    const d = ServiceAPIDescriptor;
    const binding = d.bindings.find((b) => b.protocol === 'http-post')!;
    const hop = compileHttpBinding(d, binding).get('SMSSend')!;
    if (isUnusable(hop)) throw new Error(`SMSSend over HTTP POST is unusable: ${JSON.stringify(hop)}`);
    const form = 'keyword=KW&emailAddress=a%40b.c&password=p+w&smsto=%2B1415&carrierCode=ATT&smsmsg=Gr%C3%BC%C3%9Fe';
    const buffer = Buffer.from(form);
    const plain = new Uint8Array(buffer);
    const padded = new Uint8Array(buffer.length + 10);
    padded.set(buffer, 5);
    const view = new Uint8Array(padded.buffer, 5, buffer.length);
    const expected = {
      input: {
        keyword: 'KW',
        emailAddress: 'a@b.c',
        password: 'p w',
        smsto: '+1415',
        carrierCode: 'ATT',
        smsmsg: 'Grüße',
      },
    };
    for (const body of [buffer, plain, view]) expect(decodePostRequest(hop, body)).toEqual(expected);
  });
});
