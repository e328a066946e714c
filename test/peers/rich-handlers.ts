/**
 * The rich peer service (test/peers/asmx/rich/RichService.cs) implemented on smskit's generated
 * skeleton: the same answers as the C#, so the tests can send one request to genuine ASMX and to
 * this server and compare what each puts on the wire, and zeep can call it on every port.
 */
import type { Access, AnyShape, RichServiceHandlers } from '../golden/generated/asmx-rich/rich-service/index.js';
import { ServiceError } from '../../runtime/index.js';
import { formatRoundTrip, readDotnetDateTime } from './dotnet-format.js';

/** Area of one shape, as Shape.Area() in the C#. */
export function shapeArea(shape: AnyShape): number {
  switch (shape.$type) {
    case 'Circle':
      return Math.PI * shape.Radius * shape.Radius;
    case 'Rectangle':
    case 'Square':
      return shape.Width * shape.Height;
  }
}

/** `MakeShape(kind, size)`: a derived type where the declared type is the abstract base. */
export function makeShape(kind: string | undefined, size: number): AnyShape | undefined {
  switch (kind) {
    case 'circle':
      return { $type: 'Circle', Label: kind, Radius: size };
    case 'rectangle':
      return { $type: 'Rectangle', Label: kind, Width: size, Height: size * 2 };
    case 'square':
      return { $type: 'Square', Label: kind, Width: size, Height: size, Rotated: true };
    default:
      return undefined;
  }
}

/** The [Flags] names in value order (None = 0 is written only for no flag at all). */
const ACCESS_FLAGS = ['Read', 'Write', 'Delete'];

/**
 * An Access value as XmlSerializer writes the enum it read: each flag once, in value order, and
 * "None" for no flag (an empty list included).
 */
export function accessText(access: Access): string {
  const given = new Set(access.split(/\s+/));
  const flags = ACCESS_FLAGS.filter((name) => given.has(name));
  return flags.length === 0 ? 'None' : flags.join(' ');
}

/** C#'s int arithmetic (unchecked, the compiler's default): the sum wraps at 32 bits rather than failing. */
const int32 = (n: number): number => n | 0;

export const richHandlers: RichServiceHandlers = {
  SumValues: ({ values }) => ({ SumValuesResult: (values ?? []).reduce((sum, v) => int32(sum + v), 0) }),
  EchoStrings: ({ items }) => (items === undefined ? {} : { EchoStringsResult: items }),
  EchoLongs: ({ values }) => (values === undefined ? {} : { EchoLongsResult: values }),
  EchoLines: ({ lines }) => (lines === undefined ? {} : { EchoLinesResult: lines }),
  EchoColor: ({ color }) => ({ EchoColorResult: color }),
  EchoColors: ({ colors }) => (colors === undefined ? {} : { EchoColorsResult: colors }),
  EchoAccess: ({ access }) => ({ EchoAccessResult: accessText(access) }),
  EchoOrder: ({ order }) =>
    order === undefined ? {} : { EchoOrderResult: { ...order, Access: accessText(order.Access) } },
  EchoShapes: ({ shapes }) => (shapes === undefined ? {} : { EchoShapesResult: shapes }),
  MakeShape: ({ kind, size }) => {
    const shape = makeShape(kind, size);
    return shape === undefined ? {} : { MakeShapeResult: shape };
  },
  TotalArea: ({ shapes }) => ({
    TotalAreaResult: (shapes ?? []).reduce((sum, s) => sum + (s === null ? 0 : shapeArea(s)), 0),
  }),
  EchoScalars: ({ s }) => (s === undefined ? {} : { EchoScalarsResult: s }),
  DescribeScalars: ({ id, ...rest }) => ({ DescribeScalarsResult: `id=${id.toLowerCase()}|${describe(rest, 'xml')}` }),
  DescribeHttpScalars: (input, context) => ({
    DescribeHttpScalarsResult: describe(input, context.binding.startsWith('http') ? 'http' : 'xml'),
  }),
  EchoBytes: ({ data }) => (data === undefined ? {} : { EchoBytesResult: data }),
  EchoNullableInt: ({ value }) => ({ EchoNullableIntResult: value }),
  NextDate: ({ after }) => ({ NextDateResult: after === null ? null : nextDay(after) }),
  WhoAmI: (_input, context) => {
    const session = context.soapHeaders.SessionHeader;
    if (session !== undefined)
      context.responseSoapHeaders.SessionHeader = { ...session, Counter: int32(session.Counter + 1) };
    context.responseSoapHeaders.TraceHeader = { Server: 'rich-peer', Operation: 'WhoAmI' };
    const auth = context.soapHeaders.AuthHeader;
    return { WhoAmIResult: auth === undefined ? '(anonymous)' : (auth.User ?? '(null)') };
  },
  Add: ({ a, b }) => ({ AddResult: int32(a + b) }),
  AddDoubles: ({ a, b }) => ({ AddDoublesResult: a + b }),
  Ping: () => ({}),
  Record: () => ({}),
  EmptyList: () => ({ EmptyListResult: [] }),
  NullList: () => ({}),
  NoOrder: () => ({}),
  NullString: () => ({}),
};

interface Described {
  readonly flag: number;
  readonly amount: string;
  readonly count: bigint;
  readonly when: string;
  readonly yes: boolean;
  readonly ratio: number;
  readonly small: number;
  readonly s16: number;
  readonly f32: number;
  readonly big: bigint;
}

/**
 * The C#'s invariant-culture text of the parsed values (`Describe` in RichService.cs); `reader`
 * is how ASMX parsed `when` (SOAP and HTTP GET/POST read a "Z" time differently).
 */
function describe(v: Described, reader: 'xml' | 'http'): string {
  const when = readDotnetDateTime(v.when, reader);
  return [
    `flag=${v.flag}`,
    `amount=${v.amount}`,
    `count=${v.count}`,
    `when=${when?.text ?? v.when}`,
    `kind=${when?.kind ?? 'Unspecified'}`,
    `yes=${v.yes ? 'true' : 'false'}`,
    `ratio=${formatRoundTrip(v.ratio, 'double')}`,
    `small=${v.small}`,
    `s16=${v.s16}`,
    `f32=${formatRoundTrip(v.f32, 'float')}`,
    `big=${v.big}`,
  ].join('|');
}

/** The day after a date-time, in the lexical form it came in (ASMX: `after.Value.AddDays(1)`). */
function nextDay(dateTime: string): string {
  const match = /^(\d{4})-(\d\d)-(\d\d)(T.*)$/.exec(dateTime);
  if (match === null) return dateTime;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999 (0001-01-01 became 1901).
  const next = new Date(0);
  next.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1);
  if (next.getUTCFullYear() > 9999) return nextDayInUtc(dateTime);
  return `${next.toISOString().slice(0, 10)}${match[4]}`;
}

/**
 * Past 9999-12-31 in its own offset: ASMX reads a date-time with an offset as UTC (the peer's
 * local time), where a day may still be left (9999-12-31T00:00+14:00 is 9999-12-30T10:00Z). The
 * C#'s AddDays throws past 9999-12-31 (a Server fault); the caller's date is what cannot be
 * answered, so the mirror refuses it as the caller's: a Client fault naming it.
 */
function nextDayInUtc(dateTime: string): string {
  const offset = /T\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/.exec(dateTime);
  const next = offset === null ? Number.NaN : Date.parse(dateTime) + 86_400_000;
  if (Number.isNaN(next) || new Date(next).getUTCFullYear() > 9999)
    throw new ServiceError('OUT_OF_RANGE', `after: ${dateTime} has no next day before year 10000`);
  return `${new Date(next).toISOString().slice(0, 19)}${offset![1] ?? ''}Z`;
}
