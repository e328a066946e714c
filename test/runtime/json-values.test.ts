/** JSON <-> runtime values by the descriptor (what `smskit call` and input files use). */
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  operationInputFromJson,
  soapHeadersFromJson,
  valueFromJson,
  valueToJson,
} from '../../runtime/index.js';
import { RichServiceDescriptor as d } from '../golden/generated/asmx-rich/rich-service/descriptor.js';

const RNS = 'http://smskit.dev/rich/';
const input = (method: string, json: unknown): unknown => operationInputFromJson(d, method, json);
const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CodecError);
    return (err as Error).message;
  }
  throw new Error('expected a CodecError');
};

describe('valueFromJson', () => {
  it.each([
    ['an int as a number or as its text', 'Add', { a: 6, b: '3' }, { a: 6, b: 3 }],
    [
      'a long from a safe number or a long text',
      'EchoLongs',
      { values: [1, '9223372036854775807'] },
      { values: [1n, 9223372036854775807n] },
    ],
    ['bytes from base64', 'EchoBytes', { data: 'AAEC/w==' }, { data: new Uint8Array([0, 1, 2, 255]) }],
    ['nil items where the item is nillable', 'EchoStrings', { items: ['a', null] }, { items: ['a', null] }],
    [
      'a polymorphic item keeps $type',
      'EchoShapes',
      { shapes: [{ $type: 'Circle', Radius: '1.5' }] },
      { shapes: [{ $type: 'Circle', Radius: 1.5 }] },
    ],
    [
      'a decimal number becomes its text',
      'DescribeHttpScalars',
      {
        flag: 233,
        amount: 0.5,
        count: 1,
        when: '2024-02-29T12:00:00Z',
        yes: 'true',
        ratio: 1,
        small: 0,
        s16: 1,
        f32: 1,
        big: 2,
      },
      {
        flag: 233,
        amount: '0.5',
        count: 1n,
        when: '2024-02-29T12:00:00Z',
        yes: true,
        ratio: 1,
        small: 0,
        s16: 1,
        f32: 1,
        big: 2n,
      },
    ],
  ])('%s', (_name, method, json, want) => {
    expect(input(method, json)).toEqual(want);
  });

  it.each([
    ['a text that is not a number', 'SumValues', { values: ['six'] }, /^SumValues\/values\/int\[1\]: /],
    ['an int out of range', 'Add', { a: 2 ** 31, b: 0 }, /^Add\/a: /],
    [
      'a property that is not a member',
      'SumValues',
      { valuez: [1] },
      /^SumValues\/valuez: not a member of this type \(members: values\)$/,
    ],
    [
      'an unknown enum value',
      'EchoColor',
      { color: 'Purple' },
      /^EchoColor\/color: "Purple" is not one of the allowed values \(Red, Green, Blue\)$/,
    ],
    [
      'null where the element is not nillable',
      'EchoColor',
      { color: null },
      /^EchoColor\/color: null given for an element that is not nillable$/,
    ],
    [
      'a polymorphic value without $type',
      'EchoShapes',
      { shapes: [{ Radius: 1 }] },
      /^EchoShapes\/shapes\/Shape\[1\]: \$type is required/,
    ],
    [
      'an abstract $type',
      'EchoShapes',
      { shapes: [{ $type: 'Shape' }] },
      /^EchoShapes\/shapes\/Shape\[1\]: .*abstract/,
    ],
    [
      'an object where an array belongs',
      'SumValues',
      { values: { a: 1 } },
      /^SumValues\/values: expected an array, got an object$/,
    ],
  ])('refuses %s, naming the path', (_name, method, json, want) => {
    expect(refusal(() => input(method, json))).toMatch(want);
  });

  it('reads SOAP header blocks by property and refuses an undeclared one', () => {
    expect(soapHeadersFromJson(d, 'WhoAmI', { SessionHeader: { SessionId: 's', Counter: '4' } })).toEqual({
      SessionHeader: { SessionId: 's', Counter: 4 },
    });
    expect(refusal(() => soapHeadersFromJson(d, 'WhoAmI', { Audit: {} }))).toMatch(
      /^Header\/Audit: WhoAmI declares no such SOAP header \(AuthHeader, SessionHeader\)$/,
    );
  });

  it('reads arbitrary XML from its text', () => {
    const xml = valueFromJson(d, { kind: 'xml' }, `<a xmlns="${RNS}">x</a>`, false, 'x') as {
      local: string;
      ns: string;
    };
    expect([xml.local, xml.ns]).toEqual(['a', RNS]);
  });
});

describe('valueToJson', () => {
  it('writes longs as text, bytes as base64 and leaves the rest as it is; the result reads back', () => {
    const value = {
      values: [1n, -9223372036854775808n],
      data: new Uint8Array([0, 255]),
      shape: { $type: 'Circle', Radius: 2 },
      missing: undefined,
    };
    const json = valueToJson(value);
    expect(json).toEqual({
      values: ['1', '-9223372036854775808'],
      data: 'AP8=',
      shape: { $type: 'Circle', Radius: 2 },
    });
    expect(input('EchoLongs', { values: (json as { values: string[] }).values })).toEqual({ values: value.values });
  });
});
