/**
 * Error paths: the codec builds an element's path only when an error names it (runtime/codec/
 * path.ts), from the parent's path, the local name and the position among repeated siblings.
 * Every kind of refusal, at every kind of place (array items, repeated fields, derived types,
 * attributes, leaves and complex elements), must still name the element exactly.
 */
import { describe, expect, it } from 'vitest';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import { CodecError, type ValueDescriptor } from '../../runtime/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import { RNS, richDescriptor as d } from '../fixtures/runtime/rich-descriptor.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const ORDER: ValueDescriptor = { kind: 'type', type: `{${RNS}}Order` };
const DRAWING: ValueDescriptor = { kind: 'type', type: `{${RNS}}Drawing` };

function refusal(fn: () => unknown): { code: string; path: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return { code: err.code, path: err.path, message: err.message };
    throw err;
  }
  throw new Error('no CodecError thrown');
}

/** A valid Order (required members only) with `inner` before its required fields. */
const orderXml = (inner: string, version = 'Version="1"'): string =>
  `<order xmlns="${RNS}" xmlns:xsi="${XSI}" ${version}>${inner}<Priority>1</Priority><Created>2024-02-29T12:34:56.789Z</Created>` +
  '<Reference>3f2504e0-4f89-11d3-9a0c-0305e82c3301</Reference><Flag>65</Flag><Total>1.00</Total><Sequence>1</Sequence><Access>Read</Access></order>';
const line = (inner = '', quantity = '<Quantity>1</Quantity>'): string =>
  `<OrderLine>${quantity}<UnitPrice>1.00</UnitPrice><Color>Red</Color>${inner}</OrderLine>`;
const decodeOrder = (xml: string) => decodeElement(d, ORDER, readXml(xml).root, false, 'order');

describe('decode errors name the element', () => {
  it.each([
    [
      'a leaf of the 2nd array item',
      orderXml(`<Lines>${line()}${line('', '<Quantity>x</Quantity>')}</Lines>`),
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[2]/Quantity',
      '"x" is not an xs:int',
    ],
    [
      'a leaf of a derived type in an array item',
      orderXml(`<Lines>${line('<Shape xsi:type="Circle"><Radius>abc</Radius></Shape>')}</Lines>`),
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[1]/Shape/Radius',
      '"abc" is not an xs:double',
    ],
    [
      'xsi:nil on the 2nd of a repeated field',
      orderXml('<Comment>a</Comment><Comment xsi:nil="true"/>'),
      'CODEC_NIL',
      'order/Comment[2]',
      'xsi:nil on an element that is not nillable',
    ],
    [
      'an undeclared element in an array item',
      orderXml(`<Lines>${line('<Bogus/>')}</Lines>`),
      'CODEC_UNEXPECTED',
      'order/Lines/OrderLine[1]/Bogus',
      'unexpected element',
    ],
    [
      'a single field twice',
      orderXml('<Note>a</Note><Note>b</Note>'),
      'CODEC_UNEXPECTED',
      'order/Note',
      'occurs more than once',
    ],
    [
      'a required field missing in an array item',
      orderXml(`<Lines>${line()}${line('', '')}</Lines>`),
      'CODEC_MISSING',
      'order/Lines/OrderLine[2]/Quantity',
      'required element is missing',
    ],
    [
      'an invalid attribute',
      orderXml('', 'Version="x"'),
      'CODEC_INVALID_VALUE',
      'order/@Version',
      '"x" is not an xs:int',
    ],
    [
      'a missing required attribute',
      orderXml('', ''),
      'CODEC_MISSING',
      'order/@Version',
      'required attribute is missing',
    ],
    [
      'an element inside a leaf',
      orderXml('<Note>a<b/></Note>'),
      'CODEC_UNEXPECTED',
      'order/Note/b',
      'an element inside a simple-typed value',
    ],
    [
      'a wrong array item',
      orderXml('<Lines><Foo/></Lines>'),
      'CODEC_UNEXPECTED',
      'order/Lines/Foo[1]',
      'expected {http://smskit.dev/rich/}OrderLine',
    ],
    [
      'a value outside the enumeration',
      orderXml(`<Lines>${line().replace('Red', 'Purple')}</Lines>`),
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[1]/Color',
      'is not one of the allowed values',
    ],
    [
      'an unknown xsi:type',
      orderXml(`<Lines>${line('<Shape xsi:type="Hexagon"/>')}</Lines>`),
      'CODEC_UNEXPECTED',
      'order/Lines/OrderLine[1]/Shape',
      'xsi:type {http://smskit.dev/rich/}Hexagon',
    ],
    [
      'text in element-only content',
      orderXml('<Customer>words</Customer>'),
      'CODEC_UNEXPECTED',
      'order/Customer',
      'text inside element-only content',
    ],
    [
      'a leaf nested in complex fields',
      orderXml('<Customer><Address><City><x/></City></Address></Customer>'),
      'CODEC_UNEXPECTED',
      'order/Customer/Address/City/x',
      'an element inside',
    ],
  ])('%s', (_name, xml, code, path, message) => {
    const got = refusal(() => decodeOrder(xml));
    expect(got).toMatchObject({ code, path });
    expect(got.message).toContain(`${path}: `);
    expect(got.message).toContain(message);
  });

  it('the 2nd of a repeated polymorphic field', () => {
    const xml = `<drawing xmlns="${RNS}" xmlns:xsi="${XSI}"><Shape xsi:type="Circle"><Radius>1</Radius></Shape><Shape xsi:type="Circle"><Radius>z</Radius></Shape></drawing>`;
    expect(refusal(() => decodeElement(d, DRAWING, readXml(xml).root, false, 'Body/drawing'))).toMatchObject({
      code: 'CODEC_INVALID_VALUE',
      path: 'Body/drawing/Shape[2]/Radius',
    });
  });
});

describe('encode errors name the element', () => {
  const order = {
    Version: 1,
    Lines: [
      { Quantity: 1, UnitPrice: '1.00', Color: 'Red', Shape: { $type: 'Circle', Radius: 1 } },
      { Quantity: 2, UnitPrice: '2.00', Color: null },
    ],
    Priority: 1,
    Created: '2024-02-29T12:34:56.789Z',
    Reference: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    Flag: 65,
    Total: '1.00',
    Sequence: 1n,
    Tags: ['a', 'b'],
    Access: 'Read',
    Comments: ['a', 'b'],
  };
  const encodeOrder = (value: unknown) =>
    encodeElement(d, { ns: RNS, local: 'order' }, ORDER, value, false, '', 'order', true);
  const lines = order.Lines;

  it('encodes the base value', () => expect(encodeOrder(order)).toContain('<Comment>b</Comment>'));

  it.each([
    [
      'a leaf of the 2nd array item',
      { ...order, Lines: [lines[0], { ...lines[1], Quantity: 'x' }] },
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[2]/Quantity',
      'expected an integer number for xs:int',
    ],
    [
      'a leaf of a derived type',
      { ...order, Lines: [{ ...lines[0], Shape: { $type: 'Circle', Radius: '1' } }] },
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[1]/Shape/Radius',
      'expected a number',
    ],
    [
      'the 2nd of a repeated field',
      { ...order, Comments: ['a', 5] },
      'CODEC_INVALID_VALUE',
      'order/Comment[2]',
      'expected a string',
    ],
    ['a character XML cannot carry', { ...order, Note: 'a\u0001' }, 'CODEC_ILLEGAL_CHAR', 'order/Note', 'U+0001'],
    [
      'an item of a string array',
      { ...order, Tags: ['a', '\uFFFF'] },
      'CODEC_ILLEGAL_CHAR',
      'order/Tags/string[2]',
      'U+FFFF',
    ],
    ['an attribute', { ...order, Version: 'x' }, 'CODEC_INVALID_VALUE', 'order/@Version', 'expected an integer number'],
    ['a missing required field', { ...order, Created: undefined }, 'CODEC_MISSING', 'order/Created', 'required'],
    [
      'a property that is not a member',
      { ...order, Lines: [{ ...lines[0], Colour: 'Red' }] },
      'CODEC_UNEXPECTED',
      'order/Lines/OrderLine[1]',
      '"Colour" is not a member',
    ],
    [
      'an unknown $type',
      { ...order, Lines: [{ ...lines[0], Shape: { $type: 'Hexagon' } }] },
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[1]/Shape',
      '$type "Hexagon" is not one of',
    ],
    [
      'a $type that is not a string',
      { ...order, Lines: [{ ...lines[0], Shape: { $type: 10n } }] },
      'CODEC_INVALID_VALUE',
      'order/Lines/OrderLine[1]/Shape',
      '$type 10n is not one of',
    ],
    [
      'null for a non-nillable array item',
      { ...order, Tags: undefined, Colors: ['Red', null] },
      'CODEC_NIL',
      'order/Colors/Color[2]',
      'not nillable',
    ],
  ])('%s', (_name, value, code, path, message) => {
    const got = refusal(() => encodeOrder(value));
    expect(got).toMatchObject({ code, path });
    expect(got.message).toContain(`${path}: `);
    expect(got.message).toContain(message);
  });
});
