import { describe, expect, it } from 'vitest';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import { CodecError } from '../../runtime/errors.js';
import { escapeAttr, escapeText } from '../../runtime/escape/xml.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { serviceApiDescriptor, NS } from '../fixtures/runtime/serviceapi-descriptor.js';
import { complexDescriptor, CNS } from '../fixtures/runtime/complex-descriptor.js';

function roundTrip(d: ServiceDescriptor, key: string, value: unknown): { xml: string; back: unknown } {
  const element = d.elements[key]!;
  const xml = encodeElement(d, element.name, element.value, value, element.nillable, '', element.name.local);
  const root = readXml(xml).root;
  return { xml, back: decodeElement(d, element.value, root, element.nillable, element.name.local) };
}

function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err;
    throw err;
  }
  throw new Error('expected a CodecError');
}

const SEND = `{${NS}}SMSSend`;
const ORDER = `{${CNS}}PlaceOrder`;

describe('string values round-trip through the SMSSend wrapper', () => {
  const cases: [string, string][] = [
    ['plain', 'Hello'],
    ['accents', 'Crème brûlée à la façon'],
    ['CJK', '你好，世界 こんにちは 안녕하세요'],
    ['emoji (astral plane)', '📱✉️ 👍🏽'],
    ['XML specials', `<a href="x">&amp; 'q' ]]> &</a>`],
    ['empty', ''],
    ['whitespace only', ' \t\n  \n'],
    ['CR and CRLF kept', 'a\rb\r\nc'],
    ['100 KB', 'x€'.repeat(50_000)],
  ];
  it.each(cases)('%s', (_name, text) => {
    const value = { keyword: 'k', smsmsg: text, password: text };
    const { xml, back } = roundTrip(serviceApiDescriptor, SEND, value);
    expect(back).toEqual(value);
    expect(xml.startsWith(`<SMSSend xmlns="${NS}">`)).toBe(true);
  });

  it('writes fields in descriptor order whatever the object key order, and omits undefined', () => {
    const { xml } = roundTrip(serviceApiDescriptor, SEND, {
      smsmsg: 'm',
      keyword: 'k',
      smsto: undefined,
      emailAddress: 'e',
    });
    expect(xml).toBe(
      `<SMSSend xmlns="${NS}"><keyword>k</keyword><emailAddress>e</emailAddress><smsmsg>m</smsmsg></SMSSend>`,
    );
  });

  it('decodes any prefix, CDATA and character references', () => {
    const xml = `<p:SMSSend xmlns:p="${NS}"><p:keyword><![CDATA[<k>&]]></p:keyword><q:smsmsg xmlns:q="${NS}">&#x1F4F1;&lt;&#65;</q:smsmsg></p:SMSSend>`;
    const d = serviceApiDescriptor;
    const el = d.elements[SEND]!;
    expect(decodeElement(d, el.value, readXml(xml).root, false, 'SMSSend')).toEqual({
      keyword: '<k>&',
      smsmsg: '📱<A',
    });
  });
});

describe('refusals name the field', () => {
  const d = serviceApiDescriptor;
  const el = d.elements[SEND]!;
  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['vertical tab', 'a\u000Bb', 'U+000B'],
    ['U+FFFE', '\uFFFE', 'U+FFFE'],
    ['U+FFFF', 'x\uFFFF', 'U+FFFF'],
    ['lone high surrogate', 'a\uD83D', 'U+D83D'],
    ['lone low surrogate', '\uDC00b', 'U+DC00'],
  ])('%s', (_name, text, shown) => {
    const err = codecError(() => encodeElement(d, el.name, el.value, { smsmsg: text }, false, '', 'SMSSend'));
    expect(err.code).toBe('CODEC_ILLEGAL_CHAR');
    expect(err.path).toBe('SMSSend/smsmsg');
    expect(err.message).toContain(shown);
  });

  it('a non-string for a string field', () => {
    const err = codecError(() => encodeElement(d, el.name, el.value, { smsto: 5 }, false, '', 'SMSSend'));
    expect(err.code).toBe('CODEC_INVALID_VALUE');
    expect(err.path).toBe('SMSSend/smsto');
  });

  it('an unknown child element on decode', () => {
    const err = codecError(() =>
      decodeElement(d, el.value, readXml(`<SMSSend xmlns="${NS}"><bogus/></SMSSend>`).root, false, 'SMSSend'),
    );
    expect(err.code).toBe('CODEC_UNEXPECTED');
    expect(err.path).toBe('SMSSend/bogus');
  });

  it('a child in the wrong namespace on decode', () => {
    const err = codecError(() =>
      decodeElement(
        d,
        el.value,
        readXml(`<SMSSend xmlns="${NS}"><keyword xmlns="">k</keyword></SMSSend>`).root,
        false,
        'SMSSend',
      ),
    );
    expect(err.code).toBe('CODEC_UNEXPECTED');
  });

  it('a field given twice', () => {
    const err = codecError(() =>
      decodeElement(
        d,
        el.value,
        readXml(`<SMSSend xmlns="${NS}"><smsto>1</smsto><smsto>2</smsto></SMSSend>`).root,
        false,
        'SMSSend',
      ),
    );
    expect(err.path).toBe('SMSSend/smsto');
  });
});

describe('escaping', () => {
  it('text escapes markup and CR, keeps quotes, tabs and LF', () => {
    expect(escapeText(`<&>"'\t\n\r`, 'f')).toBe(`&lt;&amp;&gt;"'\t\n&#xD;`);
  });
  it('attributes escape quotes and whitespace characters', () => {
    expect(escapeAttr(`<&>"'\t\n\r`, 'f')).toBe('&lt;&amp;&gt;&quot;&apos;&#x9;&#xA;&#xD;');
  });
  it('returns the same string when nothing needs escaping', () => {
    const s = 'plain text 📱';
    expect(escapeText(s, 'f')).toBe(s);
  });
});

const fullOrder = {
  order: {
    version: 2,
    id: 9007199254740993n,
    customer: { name: 'Zoë <Z>', email: 'z@example.com' },
    lines: [{ sku: 'A-1', qty: 3, weight: 1.5 }, null, { sku: 'B', qty: 65535, weight: -Infinity }],
    status: 'Shipped',
    discount: null,
    note: '',
    tags: ['a', 'b & c'],
    blob: new Uint8Array([0, 1, 2, 255]),
    price: { currency: 'EUR', value: '12.50' },
    urgent: true,
  },
};

describe('complex types', () => {
  it('round-trips nested types, ArrayOfX with a nil item, enum, nil int, long, bytes, attributes, simple content', () => {
    const { xml, back } = roundTrip(complexDescriptor, ORDER, fullOrder);
    expect(back).toEqual(fullOrder);
    expect(xml).toContain('<discount xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>');
    expect(xml).toContain('<order version="2">');
    expect(xml).toContain('<price currency="EUR">12.50</price>');
    expect(xml).toContain('<lines><Line><sku>A-1</sku>');
  });

  it('omits absent optional fields and keeps required order', () => {
    const minimal = { order: { id: 1n, customer: { name: 'n' }, status: 'New', discount: 5 } };
    const { xml, back } = roundTrip(complexDescriptor, ORDER, minimal);
    expect(back).toEqual(minimal);
    expect(xml).toBe(
      `<PlaceOrder xmlns="${CNS}"><order><id>1</id><customer><name>n</name></customer><status>New</status><discount>5</discount></order></PlaceOrder>`,
    );
  });

  it('refuses a value outside the enumeration', () => {
    const err = codecError(() =>
      roundTrip(complexDescriptor, ORDER, { order: { ...fullOrder.order, status: 'Lost' } }),
    );
    expect(err.path).toBe('PlaceOrder/order/status');
  });

  it('refuses null for a non-nillable field and a missing required one', () => {
    expect(
      codecError(() => roundTrip(complexDescriptor, ORDER, { order: { ...fullOrder.order, note: null } })).code,
    ).toBe('CODEC_NIL');
    const { customer: _c, ...withoutCustomer } = fullOrder.order;
    const err = codecError(() => roundTrip(complexDescriptor, ORDER, { order: withoutCustomer }));
    expect(err.code).toBe('CODEC_MISSING');
    expect(err.path).toBe('PlaceOrder/order/customer');
  });

  it('reports a missing required element on decode with its path', () => {
    const xml = `<PlaceOrder xmlns="${CNS}"><order><id>1</id><status>New</status><discount>1</discount></order></PlaceOrder>`;
    const el = complexDescriptor.elements[ORDER]!;
    const err = codecError(() => decodeElement(complexDescriptor, el.value, readXml(xml).root, false, 'PlaceOrder'));
    expect(err.code).toBe('CODEC_MISSING');
    expect(err.path).toBe('PlaceOrder/order/customer');
  });

  it('checks ranges and lexical forms of numbers', () => {
    const el = complexDescriptor.elements[ORDER]!;
    const bad = `<PlaceOrder xmlns="${CNS}"><order><id>1</id><customer><name>n</name></customer><lines><Line><sku>s</sku><qty>70000</qty></Line></lines><status>New</status><discount>1</discount></order></PlaceOrder>`;
    const err = codecError(() => decodeElement(complexDescriptor, el.value, readXml(bad).root, false, 'PlaceOrder'));
    expect(err.path).toBe('PlaceOrder/order/lines/Line[1]/qty');
    expect(
      codecError(() => roundTrip(complexDescriptor, ORDER, { order: { ...fullOrder.order, discount: 1.5 } })).path,
    ).toBe('PlaceOrder/order/discount');
  });

  it('keeps unknown elements in a wildcard field and writes them back', () => {
    const el = complexDescriptor.elements[ORDER]!;
    const xml = `<PlaceOrder xmlns="${CNS}"><order><id>1</id><customer><name>n</name></customer><status>New</status><discount>1</discount><x:ext xmlns:x="urn:other" x:a="1"><x:y>t</x:y></x:ext></order></PlaceOrder>`;
    const value = decodeElement(complexDescriptor, el.value, readXml(xml).root, false, 'PlaceOrder') as {
      order: { extra: unknown[] };
    };
    expect(value.order.extra).toHaveLength(1);
    const again = encodeElement(complexDescriptor, el.name, el.value, value, false, '', 'PlaceOrder');
    expect(again).toContain('<x:ext xmlns:x="urn:other" x:a="1"><x:y>t</x:y></x:ext>');
  });
});
