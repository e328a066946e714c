/**
 * Derived types: `$type` <-> xsi:type in the codec (both directions, arrays, repeated and nested
 * fields, another namespace), the errors for missing, abstract and unknown types, properties
 * that are not members, and round trips of ArrayOfShape / a derived result through our client
 * and server on every binding that carries them. The ASMX wire forms come from the rich peer's
 * captures (test/fixtures/asmx/captures/rich/EchoShapes.soap11*.txt, MakeShape.get.txt).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodecError,
  createRequestListener,
  listen,
  ServiceClient,
  type Listening,
  type ValueDescriptor,
} from '../../runtime/index.js';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import { OTHER_NS, RNS, richDescriptor as d } from '../fixtures/runtime/rich-descriptor.js';
import { richHandlers } from '../fixtures/runtime/rich-handlers.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const SHAPES: ValueDescriptor = { kind: 'type', type: `{${RNS}}ArrayOfShape` };
const SHAPE: ValueDescriptor = { kind: 'type', type: `{${RNS}}Shape` };
const DRAWING: ValueDescriptor = { kind: 'type', type: `{${RNS}}Drawing` };
const CUSTOMER: ValueDescriptor = { kind: 'type', type: `{${RNS}}Customer` };
const name = (local: string) => ({ ns: RNS, local });

/** Encodes as a SOAP body would (xsi declared by the envelope). */
const encode = (vd: ValueDescriptor, value: unknown, local = 'shapes', xsiInScope = true): string =>
  encodeElement(d, name(local), vd, value, true, '', local, xsiInScope);
const decode = (vd: ValueDescriptor, xml: string): unknown => decodeElement(d, vd, readXml(xml).root, true, 'x');
const codecError = (fn: () => unknown): CodecError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof CodecError) return err;
    throw err;
  }
  throw new Error('no CodecError thrown');
};

const SHAPE_VALUES = [
  { $type: 'Circle', Label: 'c', Radius: 1 },
  { $type: 'Rectangle', Label: 'r', Width: 2, Height: 3 },
  { $type: 'Square', Label: 's', Width: 2, Height: 2, Rotated: true },
  null,
];

describe('encoding $type as xsi:type', () => {
  it('writes each item with the xsi:type ASMX writes, fields base first, nil items as xsi:nil', () => {
    // The body of ASMX's EchoShapesResponse (EchoShapes.soap11.txt), element for element.
    expect(encode(SHAPES, SHAPE_VALUES, 'EchoShapesResult')).toBe(
      `<EchoShapesResult xmlns="${RNS}"><Shape xsi:type="Circle"><Label>c</Label><Radius>1</Radius></Shape>` +
        '<Shape xsi:type="Rectangle"><Label>r</Label><Width>2</Width><Height>3</Height></Shape>' +
        '<Shape xsi:type="Square"><Label>s</Label><Width>2</Width><Height>2</Height><Rotated>true</Rotated></Shape>' +
        '<Shape xsi:nil="true"/></EchoShapesResult>',
    );
  });

  it('declares xsi where nothing above declares it, once', () => {
    const xml = encode(SHAPES, [SHAPE_VALUES[0]], 'shapes', false);
    expect(xml).toBe(
      `<shapes xmlns="${RNS}"><Shape xsi:type="Circle" xmlns:xsi="${XSI}"><Label>c</Label><Radius>1</Radius></Shape></shapes>`,
    );
    expect(decode(SHAPES, xml)).toEqual([SHAPE_VALUES[0]]);
  });

  it('writes no xsi:type when $type names the declared type itself (not abstract)', () => {
    const xml = encode(DRAWING, { Frame: { $type: 'Rectangle', Width: 1, Height: 2 } }, 'drawing');
    expect(xml).toBe(`<drawing xmlns="${RNS}"><Frame><Width>1</Width><Height>2</Height></Frame></drawing>`);
    expect(encode(DRAWING, { Frame: { $type: 'Square', Width: 1, Height: 1, Rotated: false } }, 'drawing')).toContain(
      '<Frame xsi:type="Square">',
    );
  });

  it('prefixes a type from another namespace (q1, as XmlSerializer does) and reads it back', () => {
    const value = { Piece: { $type: 'Blob', Name: 'b', Size: 3 } };
    const xml = encode(DRAWING, value, 'drawing');
    expect(xml).toBe(
      `<drawing xmlns="${RNS}"><Piece xmlns:q1="${OTHER_NS}" xsi:type="q1:Blob"><Name>b</Name><Size xmlns="${OTHER_NS}">3</Size></Piece></drawing>`,
    );
    expect(decode(DRAWING, xml.replace('<drawing ', `<drawing xmlns:xsi="${XSI}" `))).toEqual(value);
  });

  it('handles repeated polymorphic fields item by item', () => {
    const value = { Shapes: [{ $type: 'Circle', Radius: 2 }, null, { $type: 'Rectangle', Width: 1, Height: 1 }] };
    const xml = encode(DRAWING, value, 'drawing');
    expect(xml).toBe(
      `<drawing xmlns="${RNS}"><Shape xsi:type="Circle"><Radius>2</Radius></Shape><Shape xsi:nil="true"/><Shape xsi:type="Rectangle"><Width>1</Width><Height>1</Height></Shape></drawing>`,
    );
    expect(decode(DRAWING, xml.replace('<drawing ', `<drawing xmlns:xsi="${XSI}" `))).toEqual(value);
  });

  it.each([
    [
      'no $type',
      { Label: 'x', Radius: 1 },
      'CODEC_MISSING',
      /shapes\/Shape\[1\]: \$type is required .*one of Rectangle, Square, Circle$/,
    ],
    [
      'the abstract declared type',
      { $type: 'Shape', Label: 'x' },
      'CODEC_INVALID_VALUE',
      /\$type "Shape" is abstract: use one of Rectangle, Square, Circle/,
    ],
    [
      'a tag outside the hierarchy',
      { $type: 'Blob', Name: 'x' },
      'CODEC_INVALID_VALUE',
      /\$type "Blob" is not one of Rectangle, Square, Circle/,
    ],
    ['a non-string tag', { $type: 3 }, 'CODEC_INVALID_VALUE', /\$type 3 is not one of/],
    [
      "another type's field",
      { $type: 'Circle', Radius: 1, Width: 2 },
      'CODEC_UNEXPECTED',
      /shapes\/Shape\[1\]: unexpected property: "Width" is not a member of \{http:\/\/smskit.dev\/rich\/\}Circle/,
    ],
  ])('refuses %s', (_what, value, code, message) => {
    const err = codecError(() => encode(SHAPES, [value]));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  it('refuses an abstract derived tag below a concrete declared type', () => {
    const ns = 'urn:abstract-leaf';
    const leafDescriptor = {
      ...d,
      types: {
        [`{${ns}}Base`]: {
          kind: 'complex',
          name: { ns, local: 'Base' },
          fields: [],
          attributes: [],
          tag: 'Base',
          derived: [`{${ns}}Leaf`],
        },
        [`{${ns}}Leaf`]: {
          kind: 'complex',
          name: { ns, local: 'Leaf' },
          fields: [],
          attributes: [],
          tag: 'Leaf',
          abstract: true,
        },
      },
    } as const;
    const base: ValueDescriptor = { kind: 'type', type: `{${ns}}Base` };
    expect(encodeElement(leafDescriptor, { ns, local: 'b' }, base, { $type: 'Base' }, false, '', 'b', true)).toBe(
      `<b xmlns="${ns}"/>`,
    );
    const err = codecError(() =>
      encodeElement(leafDescriptor, { ns, local: 'b' }, base, { $type: 'Leaf' }, false, '', 'b', true),
    );
    expect(err.message).toBe('b: $type "Leaf" is abstract: use one of Base');
  });

  it('refuses $type and unknown properties on a type without derived types (nothing dropped silently)', () => {
    expect(codecError(() => encode(CUSTOMER, { $type: 'Customer', Name: 'n' }, 'c')).message).toBe(
      'c: unexpected property: {http://smskit.dev/rich/}Customer has no derived types, so its values carry no $type',
    );
    const err = codecError(() => encode(CUSTOMER, { Name: 'n', Adress: {} }, 'c'));
    expect([err.code, err.path, err.message]).toEqual([
      'CODEC_UNEXPECTED',
      'c',
      'c: unexpected property: "Adress" is not a member of {http://smskit.dev/rich/}Customer',
    ]);
    // Nested: the path leads to the object that has it.
    expect(codecError(() => encode(CUSTOMER, { Address: { City: 'x', Town: 'y' } }, 'c')).path).toBe('c/Address');
  });

  it('allows `value` only on simple content, and undefined members', () => {
    expect(codecError(() => encode(CUSTOMER, { value: 'x' }, 'c')).code).toBe('CODEC_UNEXPECTED');
    expect(encode(CUSTOMER, { Name: undefined, Email: 'e' }, 'c')).toBe(`<c xmlns="${RNS}"><Email>e</Email></c>`);
  });
});

describe('decoding xsi:type into $type', () => {
  it("reads ASMX's EchoShapesResponse items (EchoShapes.soap11.txt)", () => {
    const asmx =
      `<EchoShapesResult xmlns="${RNS}" xmlns:xsi="${XSI}"><Shape xsi:type="Circle"><Label>c</Label><Radius>1</Radius></Shape><Shape xsi:type="Rectangle"><Label>r</Label><Width>2</Width><Height>3</Height></Shape>` +
      '<Shape xsi:type="Square"><Label>s</Label><Width>2</Width><Height>2</Height><Rotated>true</Rotated></Shape><Shape xsi:nil="true" /></EchoShapesResult>';
    const decoded = decode(SHAPES, asmx) as unknown[];
    expect(decoded).toEqual(SHAPE_VALUES);
    expect(Object.keys(decoded[2]!)[0]).toBe('$type');
  });

  it('resolves a prefixed xsi:type against the namespaces in scope (EchoShapes.soap11.prefixed-type.txt)', () => {
    expect(
      decode(
        SHAPES,
        `<shapes xmlns="${RNS}" xmlns:xsi="${XSI}"><Shape xmlns:r="${RNS}" xsi:type="r:Circle"><Radius>3</Radius></Shape></shapes>`,
      ),
    ).toEqual([{ $type: 'Circle', Radius: 3 }]);
    // The same local name in another namespace is another type.
    const err = codecError(() =>
      decode(
        SHAPES,
        `<shapes xmlns="${RNS}" xmlns:xsi="${XSI}"><Shape xmlns:r="urn:elsewhere" xsi:type="r:Circle"><Radius>3</Radius></Shape></shapes>`,
      ),
    );
    expect([err.code, err.path]).toEqual(['CODEC_UNEXPECTED', 'x/Shape[1]']);
    expect(err.message).toContain('xsi:type {urn:elsewhere}Circle is not the declared type or one derived from it');
  });

  it.each([
    [
      'no xsi:type on an abstract declared type (TotalArea.soap11.error-abstract-without-xsi-type.txt)',
      '<Shape><Label>what am I?</Label></Shape>',
      /the specified type is abstract: \{http:\/\/smskit.dev\/rich\/\}Shape \(no xsi:type given\)/,
    ],
    [
      'an unknown xsi:type (TotalArea.soap11.error-unknown-xsi-type.txt)',
      '<Shape xsi:type="Triangle"><Label>t</Label></Shape>',
      /xsi:type \{http:\/\/smskit.dev\/rich\/\}Triangle is not the declared type/,
    ],
    [
      'xsi:type naming the abstract type',
      '<Shape xsi:type="Shape"><Label>t</Label></Shape>',
      /the specified type is abstract/,
    ],
    [
      'an undeclared prefix',
      '<Shape xsi:type="zz:Circle"><Radius>1</Radius></Shape>',
      /"zz:Circle" is not a QName in scope/,
    ],
    [
      "a derived type's field under the base type",
      '<Shape xsi:type="Rectangle"><Width>1</Width><Height>1</Height><Rotated>true</Rotated></Shape>',
      /unexpected element/,
    ],
  ])('refuses %s', (_what, item, message) => {
    expect(() => decode(SHAPES, `<shapes xmlns="${RNS}" xmlns:xsi="${XSI}">${item}</shapes>`)).toThrow(message);
  });

  it('reads the declared type when there is no xsi:type, and gives it its tag', () => {
    expect(
      decode(DRAWING, `<drawing xmlns="${RNS}"><Frame><Width>1</Width><Height>2</Height></Frame></drawing>`),
    ).toEqual({ Frame: { $type: 'Rectangle', Width: 1, Height: 2 } });
  });

  it('gives no $type to a type without derived types, and checks an xsi:type on it', () => {
    expect(decode(CUSTOMER, `<c xmlns="${RNS}"><Name>n</Name></c>`)).toEqual({ Name: 'n' });
    expect(decode(CUSTOMER, `<c xmlns="${RNS}" xmlns:xsi="${XSI}" xsi:type="Customer"><Name>n</Name></c>`)).toEqual({
      Name: 'n',
    });
    expect(() =>
      decode(CUSTOMER, `<c xmlns="${RNS}" xmlns:xsi="${XSI}" xsi:type="Address"><Name>n</Name></c>`),
    ).toThrow(
      /xsi:type \{http:\/\/smskit.dev\/rich\/\}Address is not the declared type \{http:\/\/smskit.dev\/rich\/\}Customer/,
    );
  });

  it("reads ASMX's HTTP GET MakeShape document (MakeShape.get.txt): xsi:type on a pretty-printed root", () => {
    const asmx = `<?xml version="1.0" encoding="utf-8"?>\n<Shape xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}" xsi:type="Square" xmlns="${RNS}">\n  <Label>square</Label>\n  <Width>2</Width>\n  <Height>2</Height>\n  <Rotated>true</Rotated>\n</Shape>`;
    expect(decode(SHAPE, asmx)).toEqual({ $type: 'Square', Label: 'square', Width: 2, Height: 2, Rotated: true });
  });
});

describe('round trips through our client and server', () => {
  let server: Listening;
  let endpoint: string;
  beforeAll(async () => {
    server = await listen(createRequestListener(d, richHandlers), {});
    endpoint = `${server.url}/rich.asmx`;
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(['soap11', 'soap12'] as const)(
    '%s: EchoShapes returns every concrete type and the nil item; TotalArea reads them',
    async (binding) => {
      const client = new ServiceClient(d, { url: endpoint, binding });
      try {
        expect(await client.call('EchoShapes', { shapes: SHAPE_VALUES })).toEqual({ EchoShapesResult: SHAPE_VALUES });
        expect(await client.call('TotalArea', { shapes: SHAPE_VALUES })).toEqual({ TotalAreaResult: Math.PI + 6 + 4 });
        // Refused before anything is sent.
        await expect(client.call('EchoShapes', { shapes: [{ Label: 'untyped' }] })).rejects.toMatchObject({
          name: 'CodecError',
          code: 'CODEC_MISSING',
        });
      } finally {
        await client.close();
      }
    },
  );

  it.each(['soap11', 'soap12', 'http-get', 'http-post'] as const)(
    '%s: MakeShape answers a derived type where the abstract base is declared, or nothing',
    async (binding) => {
      const client = new ServiceClient(d, { url: endpoint, binding });
      try {
        expect(await client.call('MakeShape', { kind: 'square', size: 2 })).toEqual({
          MakeShapeResult: { $type: 'Square', Label: 'square', Width: 2, Height: 2, Rotated: true },
        });
        expect(await client.call('MakeShape', { kind: 'circle', size: 1 })).toEqual({
          MakeShapeResult: { $type: 'Circle', Label: 'circle', Radius: 1 },
        });
        expect(await client.call('MakeShape', { kind: 'blob', size: 1 })).toEqual({});
      } finally {
        await client.close();
      }
    },
  );

  it('HTTP GET: the result document is what ASMX writes (MakeShape.get.txt), xsi declared on the root', async () => {
    const res = await fetch(`${endpoint}/MakeShape?kind=square&size=2`);
    const root = readXml(await res.text()).root;
    expect(root.attributes.map((a) => `{${a.ns}}${a.local}=${a.value}`)).toEqual([`{${XSI}}type=Square`]);
    expect(root.namespaces.xsi).toBe(XSI);
    expect(root.children.filter((c) => c.type === 'element').map((c) => (c.type === 'element' ? c.local : ''))).toEqual(
      ['Label', 'Width', 'Height', 'Rotated'],
    );
  });
});
