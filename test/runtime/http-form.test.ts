/** Query strings and form bodies as ASP.NET decodes them: %uXXXX, %XX runs as UTF-8, + as space. */
import { describe, expect, it } from 'vitest';
import { parseFormText } from '../../runtime/http/form.js';
import { compileHttpBinding, isUnusable } from '../../runtime/http/binding.js';
import { buildGetRequest } from '../../runtime/http/get.js';
import { decodePostRequest } from '../../runtime/http/post.js';
import { ServiceAPIDescriptor } from '../../generated/service-api/index.js';

const pairs = (text: string) => [...parseFormText(text)];

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
    ['too few hex digits', 'm=ab%u12', '"%u12" is a %u escape without four hex digits'],
    ['a non-hex digit', 'm=%u00G1', '"%u00G1" is a %u escape without four hex digits'],
    ['half a surrogate pair', 'm=%uD83D', 'a %u escape leaves half of a surrogate pair (not a whole character)'],
    ['a low surrogate alone', 'm=x%uDCF1y', 'a %u escape leaves half of a surrogate pair (not a whole character)'],
  ])('keeps a value with %s aside, naming why, for the operation that reads it', (_name, text, why) => {
    const parsed = parseFormText(`${text}&n=%u0041`);
    expect([...parsed]).toEqual([['n', 'A']]);
    expect(parsed.malformedValue('m')).toEqual({ malformed: { name: 'm', why } });
    expect(parsed.malformedValue('M')).toEqual({ malformed: { name: 'M', why } });
    expect(parsed.malformedValue('n')).toBeUndefined();
  });

  it('skips a pair whose name cannot be read (it names no parameter)', () => {
    expect(pairs('n%uZZZZ=1&b=%u0042')).toEqual([['b', 'B']]);
  });

  it.each([
    ['the usual text', 'smsto&keyword=k&smsto'],
    ['a %u escape elsewhere', 'smsto&keyword=%u006B&smsto'],
    ['a malformed %XX elsewhere (the URLSearchParams path)', 'smsto&keyword=k&x=%E2%82&smsto'],
  ])('a name without = gives no parameter its value, as ASP.NET reads it (%s)', (_name, text) => {
    const parsed = parseFormText(text);
    // Iterated, it is the WHATWG pair (name, empty value).
    expect([...parsed][0]).toEqual(['smsto', '']);
    expect([parsed.get('smsto'), parsed.single('smsto'), parsed.getAll('smsto')]).toEqual([null, null, []]);
    expect(parsed.single('keyword')).toBe('k');
    expect(parseFormText(`${text}&smsto=1`).single('smsto')).toBe('1');
  });

  it('matches names without regard to case, as ASP.NET reads them', () => {
    const parsed = parseFormText('SmsTo=1&keyword=k');
    expect([parsed.get('smsto'), parsed.single('SMSTO'), parsed.getAll('KeyWord')]).toEqual(['1', '1', ['k']]);
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
      const got = [...parseFormText(text)];
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
    expect([...parsed].length).toBe(100_001);
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

describe('buildGetRequest', () => {
  it('refuses half a surrogate pair, as SOAP does, where URLSearchParams would send U+FFFD', () => {
    const d = ServiceAPIDescriptor;
    const hop = compileHttpBinding(d, d.bindings.find((b) => b.protocol === 'http-get')!).get('SMSSend')!;
    if (isUnusable(hop)) throw new Error(`SMSSend over HTTP GET is unusable: ${JSON.stringify(hop)}`);
    const input = { keyword: 'KW', emailAddress: 'a@b.c', password: 'p', smsto: '+1', carrierCode: 'ATT' };
    expect(buildGetRequest('/s.asmx', hop, { ...input, smsmsg: 'ok 📱' }, {}).path).toContain('smsmsg=ok+%F0%9F%93%B1');
    expect(() => buildGetRequest('/s.asmx', hop, { ...input, smsmsg: '\uD800x' }, {})).toThrow(
      expect.objectContaining({ code: 'CODEC_ILLEGAL_CHAR', path: 'SMSSend/smsmsg' }),
    );
  });
});
