/**
 * What the generated RichServiceClient must get from the rich peer (test/peers/asmx/rich), per
 * operation and binding: the answers RichService.cs gives, as XmlSerializer writes them.
 * Typed by the handler interface, so an operation without checks does not compile.
 */
import { expect } from 'vitest';
import { CodecError } from '../../runtime/index.js';
import type {
  AnyShape,
  Order,
  RichServiceClient,
  RichServiceHandlers,
  Scalars,
} from '../golden/generated/asmx-rich/rich-service/index.js';
import { ALL, check, HTTP, SOAP, type Check } from './binding-checks.js';

type C = RichServiceClient;
export const SPECIAL = 'Grüße 你好 📱 <&>"\'';
const GUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** Every member set. ASMX writes a Guid in lower case and a UTC DateTime with Z, so these echo unchanged. */
export const FULL_ORDER: Order = {
  Id: `O-1 ${SPECIAL}`,
  Version: 3,
  Customer: {
    Name: SPECIAL,
    Email: 'z@example.com',
    Address: { Street: '1 Main St', City: 'Köln', PostalCode: '50667', Country: 'DE' },
  },
  Lines: [
    { Sku: 'A-1', Quantity: 2, UnitPrice: '9.90', Color: 'Red', Shape: { $type: 'Circle', Label: 'c', Radius: 1.5 } },
    null,
    {
      Sku: 'B-2',
      Quantity: -1,
      UnitPrice: '0.10',
      Color: null,
      Shape: { $type: 'Square', Label: 's', Width: 2, Height: 2, Rotated: true },
    },
  ],
  Priority: 7,
  Note: 'note',
  Discount: '0.10',
  Created: '2024-02-29T12:34:56Z',
  Reference: GUID,
  Attachment: new Uint8Array([0, 1, 127, 128, 255]),
  Flag: 0x4f60,
  Total: '19.80',
  Sequence: -(2n ** 63n),
  Tags: ['x', null, '', SPECIAL],
  Colors: ['Blue', 'Red', 'Blue'],
  Access: 'Read Write',
  Comment: ['c1', SPECIAL],
};

const EXTREMES: Scalars = {
  Bool: true,
  Byte: 255,
  SByte: -128,
  Int16: -32768,
  UInt16: 65535,
  Int32: -2147483648,
  UInt32: 4294967295,
  Int64: -(2n ** 63n),
  UInt64: 2n ** 64n - 1n,
  Single: -3.4028235e38,
  Double: 1.7976931348623157e308,
  Decimal: '0.10',
  Char: 0x4f60,
  Guid: GUID,
  DateTime: '2024-02-29T23:59:59.1234567Z',
  String: SPECIAL,
  Bytes: new Uint8Array([0, 255]),
};
const OTHER_EXTREMES: Scalars = {
  ...EXTREMES,
  Bool: false,
  Byte: 0,
  SByte: 127,
  Int16: 32767,
  UInt16: 0,
  Int32: 2147483647,
  UInt32: 0,
  Int64: 2n ** 63n - 1n,
  UInt64: 0n,
  Single: 1.5,
  Double: -5e-324,
  Decimal: '-79228162514264337593543950335',
  Char: 0,
  DateTime: '0001-01-01T00:00:00Z',
  String: '',
};

const SHAPES: (AnyShape | null)[] = [
  { $type: 'Circle', Label: 'c', Radius: 1 },
  { $type: 'Rectangle', Label: SPECIAL, Width: 2, Height: 3 },
  null,
  { $type: 'Square', Label: 's', Width: 2, Height: 2, Rotated: false },
];

/** The Single comes back as .NET's nearest float: compare as 32-bit values. */
async function echoScalars(client: C, s: Scalars): Promise<void> {
  const { EchoScalarsResult: got } = await client.EchoScalars({ s });
  expect({ ...got, Single: Math.fround(got!.Single) }).toEqual({ ...s, Single: Math.fround(s.Single) });
}

const refusedBeforeSending = (code: string) => expect.objectContaining({ name: 'CodecError', code });

export const richChecks: Record<keyof RichServiceHandlers, readonly Check<C>[]> = {
  SumValues: [
    check('values', ALL, async (c) =>
      expect(await c.SumValues({ values: [1, 2, 3, -40, 2147483647, -2147483647] })).toEqual({ SumValuesResult: -34 }),
    ),
    check('empty array', SOAP, async (c) => expect(await c.SumValues({ values: [] })).toEqual({ SumValuesResult: 0 })),
    check('absent array', SOAP, async (c) => expect(await c.SumValues({})).toEqual({ SumValuesResult: 0 })),
    // An empty array has no form in a query or form (ASMX reads no pair as a missing parameter).
    check('empty array refused', HTTP, async (c) =>
      expect(c.SumValues({ values: [] })).rejects.toEqual(refusedBeforeSending('CODEC_UNSUPPORTED')),
    ),
  ],
  EchoStrings: [
    check('nil item', SOAP, async (c) =>
      expect(await c.EchoStrings({ items: ['a', null, '', SPECIAL] })).toEqual({
        EchoStringsResult: ['a', null, '', SPECIAL],
      }),
    ),
    check('items', HTTP, async (c) =>
      expect(await c.EchoStrings({ items: ['a', '', SPECIAL] })).toEqual({ EchoStringsResult: ['a', '', SPECIAL] }),
    ),
    check('null item refused', HTTP, async (c) =>
      expect(c.EchoStrings({ items: ['a', null] })).rejects.toBeInstanceOf(CodecError),
    ),
    check('empty array', SOAP, async (c) =>
      expect(await c.EchoStrings({ items: [] })).toEqual({ EchoStringsResult: [] }),
    ),
    check('absent array', SOAP, async (c) => expect(await c.EchoStrings({})).toEqual({})),
  ],
  EchoLongs: [
    check('extremes', ALL, async (c) =>
      expect(await c.EchoLongs({ values: [2n ** 63n - 1n, -(2n ** 63n), 0n] })).toEqual({
        EchoLongsResult: [2n ** 63n - 1n, -(2n ** 63n), 0n],
      }),
    ),
  ],
  EchoLines: [
    check('lines with nil and shapes', SOAP, async (c) =>
      expect(await c.EchoLines({ lines: FULL_ORDER.Lines! })).toEqual({ EchoLinesResult: FULL_ORDER.Lines }),
    ),
  ],
  EchoColor: [
    check('Green', ALL, async (c) =>
      expect(await c.EchoColor({ color: 'Green' })).toEqual({ EchoColorResult: 'Green' }),
    ),
  ],
  EchoColors: [
    check('repeated', ALL, async (c) =>
      expect(await c.EchoColors({ colors: ['Red', 'Blue', 'Red'] })).toEqual({
        EchoColorsResult: ['Red', 'Blue', 'Red'],
      }),
    ),
  ],
  EchoAccess: [
    check('two flags', ALL, async (c) =>
      expect(await c.EchoAccess({ access: 'Read Write' })).toEqual({ EchoAccessResult: 'Read Write' }),
    ),
    check('one flag', ALL, async (c) =>
      expect(await c.EchoAccess({ access: 'Delete' })).toEqual({ EchoAccessResult: 'Delete' }),
    ),
    check('no flag', SOAP, async (c) =>
      expect(await c.EchoAccess({ access: '' })).toEqual({ EchoAccessResult: 'None' }),
    ),
  ],
  EchoOrder: [
    check('every member', SOAP, async (c) =>
      expect(await c.EchoOrder({ order: FULL_ORDER })).toEqual({ EchoOrderResult: FULL_ORDER }),
    ),
    check('optional members absent, nil priority', SOAP, async (c) => {
      const sparse: Order = {
        Version: 0,
        Priority: null,
        Created: '2024-01-01T00:00:00Z',
        Reference: GUID,
        Flag: 65,
        Total: '0',
        Sequence: 0n,
        Access: 'Read',
      };
      expect(await c.EchoOrder({ order: sparse })).toEqual({ EchoOrderResult: sparse });
    }),
    check('absent order', SOAP, async (c) => expect(await c.EchoOrder({})).toEqual({})),
  ],
  EchoShapes: [
    check('derived types and nil', SOAP, async (c) =>
      expect(await c.EchoShapes({ shapes: SHAPES })).toEqual({ EchoShapesResult: SHAPES }),
    ),
  ],
  MakeShape: [
    check('circle', ALL, async (c) =>
      expect(await c.MakeShape({ kind: 'circle', size: 1.25 })).toEqual({
        MakeShapeResult: { $type: 'Circle', Label: 'circle', Radius: 1.25 },
      }),
    ),
    check('rectangle', ALL, async (c) =>
      expect(await c.MakeShape({ kind: 'rectangle', size: 2 })).toEqual({
        MakeShapeResult: { $type: 'Rectangle', Label: 'rectangle', Width: 2, Height: 4 },
      }),
    ),
    check('square', ALL, async (c) =>
      expect(await c.MakeShape({ kind: 'square', size: 3 })).toEqual({
        MakeShapeResult: { $type: 'Square', Label: 'square', Width: 3, Height: 3, Rotated: true },
      }),
    ),
    check('unknown kind', ALL, async (c) => expect(await c.MakeShape({ kind: 'blob', size: 1 })).toEqual({})),
  ],
  TotalArea: [
    check('mixed shapes', SOAP, async (c) =>
      expect((await c.TotalArea({ shapes: SHAPES })).TotalAreaResult).toBeCloseTo(Math.PI + 6 + 4, 12),
    ),
  ],
  EchoScalars: [
    check('extremes', SOAP, async (c) => echoScalars(c, EXTREMES)),
    check('other extremes', SOAP, async (c) => echoScalars(c, OTHER_EXTREMES)),
  ],
  DescribeScalars: [
    check('parsed values', SOAP, async (c) => {
      const got = await c.DescribeScalars({
        id: GUID.toUpperCase(),
        flag: 0xe9,
        amount: '12.50',
        count: -9007199254740993n,
        when: '2024-02-29T23:59:59.5+05:30',
        yes: true,
        ratio: 0.1,
        small: 255,
        s16: -32768,
        f32: 1.5,
        big: 2n ** 64n - 1n,
      });
      expect(got).toEqual({
        DescribeScalarsResult: `id=${GUID}|flag=233|amount=12.50|count=-9007199254740993|when=2024-02-29T18:29:59.5000000+00:00|kind=Local|yes=true|ratio=0.1|small=255|s16=-32768|f32=1.5|big=18446744073709551615`,
      });
    }),
  ],
  DescribeHttpScalars: [
    check('parsed values', ALL, async (c, binding) => {
      const got = await c.DescribeHttpScalars({
        flag: 0xe9,
        amount: '-0.010',
        count: 2n ** 63n - 1n,
        when: '2024-02-29T12:00:00Z',
        yes: false,
        ratio: -2.5,
        small: 0,
        s16: 32767,
        f32: 3.4028235e38,
        big: 0n,
      });
      // XmlSerializer keeps a "Z" time as UTC; the HTTP reader (DateTime.Parse) makes it local time.
      const when = binding.startsWith('http')
        ? 'when=2024-02-29T12:00:00.0000000+00:00|kind=Local'
        : 'when=2024-02-29T12:00:00.0000000Z|kind=Utc';
      expect(got).toEqual({
        DescribeHttpScalarsResult: `flag=233|amount=-0.010|count=9223372036854775807|${when}|yes=false|ratio=-2.5|small=0|s16=32767|f32=3.40282347E+38|big=0`,
      });
    }),
  ],
  EchoBytes: [
    check('bytes 0 to 255', ALL, async (c) =>
      expect(await c.EchoBytes({ data: new Uint8Array([0, 1, 127, 128, 255]) })).toEqual({
        EchoBytesResult: new Uint8Array([0, 1, 127, 128, 255]),
      }),
    ),
    check('empty', SOAP, async (c) =>
      expect(await c.EchoBytes({ data: new Uint8Array() })).toEqual({ EchoBytesResult: new Uint8Array() }),
    ),
  ],
  EchoNullableInt: [
    check('null', SOAP, async (c) =>
      expect(await c.EchoNullableInt({ value: null })).toEqual({ EchoNullableIntResult: null }),
    ),
    check('zero', SOAP, async (c) =>
      expect(await c.EchoNullableInt({ value: 0 })).toEqual({ EchoNullableIntResult: 0 }),
    ),
    check('min', SOAP, async (c) =>
      expect(await c.EchoNullableInt({ value: -2147483648 })).toEqual({ EchoNullableIntResult: -2147483648 }),
    ),
  ],
  NextDate: [
    check('a date', SOAP, async (c) =>
      expect(await c.NextDate({ after: '2024-02-28T10:00:00Z' })).toEqual({ NextDateResult: '2024-02-29T10:00:00Z' }),
    ),
    check('null', SOAP, async (c) => expect(await c.NextDate({ after: null })).toEqual({ NextDateResult: null })),
  ],
  WhoAmI: [
    check('headers in and out', SOAP, async (c) => {
      const got = await c.WhoAmIWithHeaders(
        {},
        {
          soapHeaders: {
            AuthHeader: { User: SPECIAL, Token: 's3cret' },
            SessionHeader: { SessionId: 'S-1', Counter: 41 },
          },
        },
      );
      expect(got).toEqual({
        output: { WhoAmIResult: SPECIAL },
        soapHeaders: {
          SessionHeader: { SessionId: 'S-1', Counter: 42 },
          TraceHeader: { Server: 'rich-peer', Operation: 'WhoAmI' },
        },
      });
    }),
    check('no headers in', SOAP, async (c) => {
      expect(await c.WhoAmIWithHeaders({})).toEqual({
        output: { WhoAmIResult: '(anonymous)' },
        soapHeaders: { TraceHeader: { Server: 'rich-peer', Operation: 'WhoAmI' } },
      });
    }),
    check('no headers over HTTP', HTTP, async (c) =>
      expect(await c.WhoAmIWithHeaders({})).toEqual({ output: { WhoAmIResult: '(anonymous)' }, soapHeaders: {} }),
    ),
    check('headers refused over HTTP', HTTP, async (c) =>
      expect(c.WhoAmI({}, { soapHeaders: { AuthHeader: { User: 'u' } } })).rejects.toEqual(
        refusedBeforeSending('CODEC_UNSUPPORTED'),
      ),
    ),
  ],
  Add: [check('ints', ALL, async (c) => expect(await c.Add({ a: 2, b: 40 })).toEqual({ AddResult: 42 }))],
  AddDoubles: [
    check('doubles', ALL, async (c) =>
      expect(await c.AddDoubles({ a: 0.1, b: 0.2 })).toEqual({ AddDoublesResult: 0.1 + 0.2 }),
    ),
  ],
  Ping: [check('void', ALL, async (c) => expect(await c.Ping({})).toEqual({}))],
  Record: [check('void with a parameter', ALL, async (c) => expect(await c.Record({ note: SPECIAL })).toEqual({}))],
  EmptyList: [check('empty', ALL, async (c) => expect(await c.EmptyList({})).toEqual({ EmptyListResult: [] }))],
  NullList: [check('absent', ALL, async (c) => expect(await c.NullList({})).toEqual({}))],
  NoOrder: [check('absent', ALL, async (c) => expect(await c.NoOrder({})).toEqual({}))],
  NullString: [check('absent', ALL, async (c) => expect(await c.NullString({})).toEqual({}))],
};
