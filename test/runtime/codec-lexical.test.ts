/**
 * Lexical checks of the text-valued types (runtime/codec/temporal.ts, guid in primitives.ts):
 * the XSD 1.0 forms of the date, time and duration types and Microsoft's guid pattern, refused
 * with a message saying what is wrong, on decode and on encode; every date/time form found in
 * the ASMX captures (test/fixtures/asmx/captures/rich) reads.
 */
import { describe, expect, it } from 'vitest';
import { decodeElement, primitiveCodec } from '../../runtime/codec/index.js';
import { CodecError, type ValueDescriptor } from '../../runtime/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { RichServiceDescriptor } from '../golden/generated/asmx-rich/rich-service/index.js';
import { RNS, richDescriptor } from '../fixtures/runtime/rich-descriptor.js';
import { header, readCaptures } from '../helpers/asmx-captures.js';

function refusal(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err;
    throw err;
  }
  throw new Error('no CodecError thrown');
}

const decode = (xsd: string, text: string): unknown => primitiveCodec(xsd, 'v').decode(text, 'v');
const encode = (xsd: string, value: unknown): string => primitiveCodec(xsd, 'v').encode(value, 'v');

const VALID: [string, string][] = [
  ['dateTime', '2024-02-29T18:29:59.1234567+00:00'],
  ['dateTime', '0001-01-01T00:00:00'],
  ['dateTime', '2026-11-24T10:00:00Z'],
  ['dateTime', '2024-02-29T23:59:59.5+05:30'],
  ['dateTime', '2024-12-31T24:00:00'],
  ['dateTime', '-0001-02-29T00:00:00-14:00'],
  ['dateTime', '12024-01-01T00:00:00+14:00'],
  ['dateTime', '2000-02-29T00:00:00'],
  ['dateTimeStamp', '2024-02-29T12:00:00Z'],
  ['date', '2024-02-29'],
  ['date', '2024-01-31+01:00'],
  ['time', '00:00:00'],
  ['time', '23:59:59.999Z'],
  ['time', '24:00:00.000'],
  ['gYearMonth', '2024-12'],
  ['gYear', '-2024'],
  ['gMonthDay', '--02-29'],
  ['gDay', '---31Z'],
  ['gMonth', '--12'],
  ['duration', 'P1DT2H'],
  ['duration', '-P1Y'],
  ['duration', 'PT0.5S'],
  ['duration', 'P1Y2M3DT4H5M6.789S'],
  ['duration', 'PT36H'],
  ['dayTimeDuration', 'P3DT4H'],
  ['yearMonthDuration', 'P1Y6M'],
  ['guid', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
  ['guid', '00000000-0000-0000-0000-000000000000'],
  ['guid', 'ABCDEF01-2345-6789-ABCD-EF0123456789'],
];

const INVALID: [string, string, string][] = [
  ['dateTime', '', 'empty; expected -?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?'],
  ['dateTime', 'yesterday', 'expected -?YYYY-MM-DDThh:mm:ss'],
  ['dateTime', '2024-13-45T99:99:99', 'month 13 is not 01-12'],
  ['dateTime', '2024-02-30T00:00:00', 'day 30 is not in month 02 (01-29)'],
  ['dateTime', '2023-02-29T00:00:00', 'day 29 is not in month 02 of 2023, not a leap year (01-28)'],
  ['dateTime', '1900-02-29T00:00:00', 'not a leap year'],
  ['dateTime', '2024-04-31T00:00:00', 'day 31 is not in month 04 (01-30)'],
  ['dateTime', '2024-01-01T24:00:01', '24 is an hour only in 24:00:00'],
  ['dateTime', '2024-01-01T12:60:00', 'minute 60 is not 00-59'],
  ['dateTime', '2024-01-01T12:00:60', 'second 60 is not 00-59'],
  ['dateTime', '2024-01-01T12:00:00+14:30', 'the time zone +14:30 is not from -14:00 to +14:00'],
  ['dateTime', '0000-01-01T00:00:00', 'there is no year 0000'],
  ['dateTime', '02024-01-01T00:00:00', 'leading zero'],
  ['dateTime', '2024-01-01 12:00:00', 'expected'],
  ['dateTime', '2024-01-01T12:00', 'expected'],
  ['dateTime', '2024-01-01T12:00:00.', 'expected'],
  ['dateTimeStamp', '2024-01-01T12:00:00', 'the time zone (Z or (+|-)hh:mm) is missing'],
  ['date', '2024-02-29T00:00:00', 'expected -?YYYY-MM-DD'],
  ['time', '1:00:00', 'expected hh:mm:ss'],
  ['gYear', '24', 'expected -?YYYY'],
  ['gMonthDay', '--02-30', 'day 30 is not in month 02'],
  ['gMonth', '--13', 'month 13'],
  ['gDay', '---32', 'day 32 is not 01-31'],
  ['duration', '', 'empty'],
  ['duration', 'P', 'at least one part'],
  ['duration', 'PT', 'expected'],
  ['duration', 'P1YT', 'T only before a time part'],
  ['duration', 'P1.5Y', 'expected'],
  ['duration', 'P1H', 'expected'],
  ['duration', '1D', 'expected'],
  ['dayTimeDuration', 'P1M', 'expected -?PnDTnHnMn.nS'],
  ['yearMonthDuration', 'P1D', 'expected -?PnYnM'],
  ['guid', '', 'is not a guid'],
  ['guid', '{3f2504e0-4f89-11d3-9a0c-0305e82c330}', 'is not a guid (expected 8-4-4-4-12 hexadecimal digits'],
  ['guid', '3f2504e04f8911d39a0c0305e82c33', 'is not a guid'],
  ['guid', '{3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'is not a guid'],
  ['guid', '3f2504e0-4f89-11d3-9a0c-0305e82c330g', 'is not a guid'],
];

describe('XSD lexical forms', () => {
  it.each(VALID)('%s %s reads and writes as it is', (xsd, text) => {
    expect(decode(xsd, text)).toBe(text);
    expect(encode(xsd, text)).toBe(text);
  });

  it.each(INVALID)('%s %j is refused both ways: %s', (xsd, text, why) => {
    for (const err of [refusal(() => decode(xsd, text)), refusal(() => encode(xsd, text))]) {
      expect(err).toMatchObject({ code: 'CODEC_INVALID_VALUE', path: 'v' });
      expect(err.message).toContain(why);
    }
  });

  it('collapses whitespace around a date/time on decode (XSD whiteSpace collapse); writes only the exact form', () => {
    expect(decode('dateTime', ' \n2024-02-29T00:00:00Z\t')).toBe('2024-02-29T00:00:00Z');
    expect(decode('duration', ' P1D ')).toBe('P1D');
    expect(refusal(() => encode('dateTime', ' 2024-02-29T00:00:00Z')).message).toContain('is not an xs:dateTime');
  });

  it.each([
    ['braces', '{3F2504E0-4F89-11D3-9A0C-0305E82C3301}', '3F2504E0-4F89-11D3-9A0C-0305E82C3301'],
    ['parentheses', '(3f2504e0-4f89-11d3-9a0c-0305e82c3301)', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
    ['32 digits without hyphens', '3f2504e04f8911d39a0c0305e82c3301', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
    ['surrounding whitespace', ' 3f2504e0-4f89-11d3-9a0c-0305e82c3301\n', '3f2504e0-4f89-11d3-9a0c-0305e82c3301'],
  ])(
    'reads a guid with %s, as genuine ASMX does (XmlConvert.ToGuid), as the 8-4-4-4-12 form; never writes one',
    (_n, text, want) => {
      expect(decode('guid', text)).toBe(want);
      expect(refusal(() => encode('guid', text)).message).toContain('is not a guid');
    },
  );

  it.each([
    ['Infinity', Infinity],
    ['+Infinity', Infinity],
    ['-Infinity', -Infinity],
  ])('reads .NET’s %s for a double, as genuine ASMX does; writes INF/-INF', (text, want) => {
    expect(decode('double', text)).toBe(want);
    expect(decode('float', text)).toBe(want);
    expect(encode('double', want)).toBe(want > 0 ? 'INF' : '-INF');
  });

  it.each([
    ['+1.5', '1.5'],
    ['01.50', '1.50'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-0.0', '0.0'],
    ['-007', '-7'],
    ['12.50', '12.50'],
  ])('reads the decimal %s as .NET holds it: %s', (text, want) => {
    expect(decode('decimal', text)).toBe(want);
  });

  it('reads a date alone as a dateTime at midnight, as ASMX does, but never writes one', () => {
    expect(decode('dateTime', '2024-02-29')).toBe('2024-02-29T00:00:00');
    expect(decode('dateTime', '2024-02-29+05:30')).toBe('2024-02-29T00:00:00+05:30');
    expect(refusal(() => decode('dateTime', '2024-02-30')).message).toContain('a date without its time of day');
    expect(refusal(() => encode('dateTime', '2024-02-29')).message).toContain('a date without its time of day');
    expect(refusal(() => decode('dateTimeStamp', '2024-02-29Z')).code).toBe('CODEC_INVALID_VALUE');
  });

  it('refuses values that are not strings', () => {
    expect(refusal(() => encode('dateTime', new Date(0))).message).toContain(
      'expected an xs:dateTime string, got an object',
    );
    expect(refusal(() => encode('guid', 1)).message).toContain('expected a guid string, got number 1');
  });

  it('refuses an empty required dateTime in a message, naming the field', () => {
    const xml =
      `<order xmlns="${RNS}" Version="1"><Priority>1</Priority><Created></Created><Reference>3f2504e0-4f89-11d3-9a0c-0305e82c3301</Reference>` +
      '<Flag>65</Flag><Total>1.00</Total><Sequence>1</Sequence><Access>Read</Access></order>';
    const order: ValueDescriptor = { kind: 'type', type: `{${RNS}}Order` };
    const err = refusal(() => decodeElement(richDescriptor, order, readXml(xml).root, false, 'EchoOrder/order'));
    expect(err).toMatchObject({ code: 'CODEC_INVALID_VALUE', path: 'EchoOrder/order/Created' });
    expect(err.message).toBe(
      'EchoOrder/order/Created: "" is not an xs:dateTime: empty; expected -?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?',
    );
  });
});

/**
 * The date/time texts of the captures: the leaves of the elements rich.wsdl types xs:dateTime
 * (its generated descriptor has every operation), the `when` parameters of HTTP GET/POST, and the `when=` that DescribeScalars
 * writes into its string answer with .NET's own formatting.
 */
function captureDateTimes(): Map<string, string[]> {
  const names = dateTimeFieldNames();
  const found = new Map<string, string[]>();
  const add = (text: string, file: string): void => void (found.get(text) ?? found.set(text, []).get(text)!).push(file);
  for (const capture of readCaptures('rich')) {
    const file = `${capture.name}.txt`;
    for (const message of [capture.request, capture.response]) {
      const body = message.body.toString('utf8');
      const query = message.startLine.split(' ')[1]?.split('?')[1];
      const form = header(message, 'content-type')?.startsWith('application/x-www-form-urlencoded') === true;
      for (const params of [query, form ? body : undefined]) {
        if (params !== undefined)
          for (const [key, value] of new URLSearchParams(params)) if (key === 'when') add(value, file);
      }
      if (!body.startsWith('<')) continue;
      walk(readXml(body).root, (el, text) => {
        const nil = el.attributes.some((a) => a.local === 'nil' && a.value === 'true');
        if (names.has(el.local) && !nil) add(text, file);
        for (const m of text.matchAll(/when=([^|]+)/g)) add(m[1]!, file);
      });
    }
  }
  return found;
}

function dateTimeFieldNames(): Set<string> {
  const names = new Set<string>();
  for (const type of Object.values(RichServiceDescriptor.types)) {
    if (type.kind !== 'complex') continue;
    for (const f of type.fields)
      if (f.value.kind === 'primitive' && f.value.xsd === 'dateTime') names.add(f.name.local);
  }
  return names;
}

function walk(el: XmlElement, leaf: (el: XmlElement, text: string) => void): void {
  if (el.children.every((c) => c.type === 'text'))
    leaf(el, el.children.map((c) => (c.type === 'text' ? c.text : '')).join(''));
  for (const c of el.children) if (c.type === 'element') walk(c, leaf);
}

describe('the date/time forms of the ASMX captures', () => {
  const found = captureDateTimes();

  it('are found: what ASMX writes (DateTime.MinValue, 7 fraction digits and an offset, Z) and what its clients send', () => {
    expect([...found.keys()]).toEqual(
      expect.arrayContaining([
        '0001-01-01T00:00:00',
        '2024-02-29T18:29:59.1234567+00:00',
        '2024-02-29T18:29:59.5000000+00:00',
        '2024-02-29T12:34:56.789Z',
        '2024-02-29T23:59:59.5+05:30',
        '2024-02-29T10:00:00',
        '2024-02-29',
      ]),
    );
  });

  it.each([...found].map(([text, files]) => [text, files.join(', ')]))('%s (%s) reads as an xs:dateTime', (text) => {
    expect(decode('dateTime', text)).toBe(text.includes('T') ? text : `${text}T00:00:00`);
  });
});
