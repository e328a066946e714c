/**
 * Every simple type smskit carries, with the facts each part needs about it: the one place an
 * XSD built-in is added. The generator's type map, the runtime's codecs (codec/primitives.ts and
 * codec/temporal.ts), the contract diff's acceptance rules, the HTTP GET/POST parameters and the
 * conformance samples all read this table or key their own per-type data by `PrimitiveName`
 * (`satisfies Record<PrimitiveName, …>`), so a name added here and forgotten there is a compile
 * error rather than a value that fails at run time. docs/generator.md has the same table as prose.
 *
 * Names are local names in the XSD namespace, plus `guid` and `char`: Microsoft serialization
 * types (ASMX's `{http://microsoft.com/wsdl/types/}`, DataContract's Serialization namespace)
 * that the generator recognises by their qualified name, never as `xs:guid` or `xs:char`.
 */

/** The TypeScript type a value of the primitive is. */
export type TsPrimitive = 'string' | 'boolean' | 'number' | 'bigint' | 'Uint8Array';

/**
 * How the runtime reads the text, which decides the codec:
 * text: any text, as written; temporal: a date, time or duration lexical form (codec/temporal.ts);
 * guid: the 8-4-4-4-12 form; integer: a range (`range`); decimal: digits kept as text; float: a
 * JS number (INF, NaN); boolean; base64 and hex: bytes.
 */
export type PrimitiveFamily =
  | 'text'
  | 'temporal'
  | 'guid'
  | 'integer'
  | 'decimal'
  | 'float'
  | 'boolean'
  | 'base64'
  | 'hex';

/**
 * How an HTTP GET/POST parameter writes the value, where ASMX's HTTP readers differ from XML
 * (runtime/http/params.ts): `bytes` is one decimal pair per byte (and so cannot be repeated),
 * `char` the character itself, `boolean` read case-insensitively, `xml` the XML lexical form.
 * Every primitive can be a parameter; a [Flags] list type is decided by its simple type, not here.
 */
export type HttpParamForm = 'xml' | 'bytes' | 'char' | 'boolean';

export interface PrimitiveFacts {
  readonly ts: TsPrimitive;
  readonly family: PrimitiveFamily;
  /** `xsd`: a built-in of the XSD namespace; `microsoft`: recognised by its Microsoft type name only. */
  readonly origin: 'xsd' | 'microsoft';
  /** Smallest and largest value of an integer type (undefined: unbounded on that side). */
  readonly range?: readonly [bigint | undefined, bigint | undefined];
  readonly http: HttpParamForm;
  /**
   * A typical value in its lexical form (what a conformance sample sends), or undefined for free
   * text, where the sample chooses the text (plain, non-ASCII, markup).
   */
  readonly sample: string | undefined;
}

const TEXT = { ts: 'string', family: 'text', origin: 'xsd', http: 'xml' } as const;
const TEMPORAL = { ts: 'string', family: 'temporal', origin: 'xsd', http: 'xml' } as const;
const NUMBER = { ts: 'number', family: 'integer', origin: 'xsd', http: 'xml' } as const;
const BIG = { ts: 'bigint', family: 'integer', origin: 'xsd', http: 'xml' } as const;

export const PRIMITIVES = {
  // Plain text: the value is the text as written.
  string: { ...TEXT, sample: undefined },
  normalizedString: { ...TEXT, sample: undefined },
  token: { ...TEXT, sample: undefined },
  anySimpleType: { ...TEXT, sample: undefined },
  language: { ...TEXT, sample: 'en' },
  Name: { ...TEXT, sample: 'conformance' },
  NCName: { ...TEXT, sample: 'conformance' },
  NMTOKEN: { ...TEXT, sample: 'conformance' },
  NMTOKENS: { ...TEXT, sample: 'conformance' },
  ID: { ...TEXT, sample: 'conformance1' },
  IDREF: { ...TEXT, sample: 'conformance1' },
  IDREFS: { ...TEXT, sample: 'conformance1' },
  ENTITY: { ...TEXT, sample: 'conformance' },
  ENTITIES: { ...TEXT, sample: 'conformance' },
  anyURI: { ...TEXT, sample: 'https://example.com/conformance' },
  QName: { ...TEXT, sample: 'conformance' },
  NOTATION: { ...TEXT, sample: 'conformance' },
  // Dates, times and durations: text checked against the type's lexical form.
  dateTime: { ...TEMPORAL, sample: '2024-05-17T10:30:00Z' },
  dateTimeStamp: { ...TEMPORAL, sample: '2024-05-17T10:30:00Z' },
  date: { ...TEMPORAL, sample: '2024-05-17' },
  time: { ...TEMPORAL, sample: '10:30:00' },
  gYear: { ...TEMPORAL, sample: '2024' },
  gYearMonth: { ...TEMPORAL, sample: '2024-05' },
  gMonth: { ...TEMPORAL, sample: '--05' },
  gMonthDay: { ...TEMPORAL, sample: '--05-17' },
  gDay: { ...TEMPORAL, sample: '---17' },
  duration: { ...TEMPORAL, sample: 'P1DT2H' },
  dayTimeDuration: { ...TEMPORAL, sample: 'P1DT2H' },
  yearMonthDuration: { ...TEMPORAL, sample: 'P1Y2M' },
  guid: {
    ts: 'string',
    family: 'guid',
    origin: 'microsoft',
    http: 'xml',
    sample: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
  },
  boolean: { ts: 'boolean', family: 'boolean', origin: 'xsd', http: 'boolean', sample: 'true' },
  float: { ts: 'number', family: 'float', origin: 'xsd', http: 'xml', sample: '1.5' },
  double: { ts: 'number', family: 'float', origin: 'xsd', http: 'xml', sample: '1.5' },
  decimal: { ts: 'string', family: 'decimal', origin: 'xsd', http: 'xml', sample: '12.5' },
  // Integers that fit a JS number.
  byte: { ...NUMBER, range: [-128n, 127n], sample: '42' },
  short: { ...NUMBER, range: [-32768n, 32767n], sample: '42' },
  int: { ...NUMBER, range: [-2147483648n, 2147483647n], sample: '42' },
  unsignedByte: { ...NUMBER, range: [0n, 255n], sample: '42' },
  unsignedShort: { ...NUMBER, range: [0n, 65535n], sample: '42' },
  unsignedInt: { ...NUMBER, range: [0n, 4294967295n], sample: '42' },
  // DataContract/ASMX char: a UTF-16 code unit as a number in XML, the character itself over HTTP.
  char: { ...NUMBER, origin: 'microsoft', http: 'char', range: [0n, 65535n], sample: '65' },
  // Integers that may not: bigint.
  long: { ...BIG, range: [-(2n ** 63n), 2n ** 63n - 1n], sample: '42' },
  unsignedLong: { ...BIG, range: [0n, 2n ** 64n - 1n], sample: '42' },
  integer: { ...BIG, range: [undefined, undefined], sample: '42' },
  nonNegativeInteger: { ...BIG, range: [0n, undefined], sample: '42' },
  positiveInteger: { ...BIG, range: [1n, undefined], sample: '42' },
  nonPositiveInteger: { ...BIG, range: [undefined, 0n], sample: '-42' },
  negativeInteger: { ...BIG, range: [undefined, -1n], sample: '-42' },
  base64Binary: { ts: 'Uint8Array', family: 'base64', origin: 'xsd', http: 'bytes', sample: 'AAEC/w==' },
  hexBinary: { ts: 'Uint8Array', family: 'hex', origin: 'xsd', http: 'bytes', sample: '0001FF' },
} as const satisfies Readonly<Record<string, PrimitiveFacts>>;

/** A simple type smskit carries: a key of the table above. */
export type PrimitiveName = keyof typeof PRIMITIVES;

/** The primitives of one family, as a type (`PrimitiveOf<'temporal'>` is 'dateTime' | 'date' | …). */
export type PrimitiveOf<F extends PrimitiveFamily> = {
  [K in PrimitiveName]: (typeof PRIMITIVES)[K]['family'] extends F ? K : never;
}[PrimitiveName];

export const PRIMITIVE_NAMES = Object.keys(PRIMITIVES) as readonly PrimitiveName[];

/** Narrows a type name read from a WSDL or a descriptor (own keys only: not `toString`). */
export function isPrimitiveName(name: string): name is PrimitiveName {
  return Object.hasOwn(PRIMITIVES, name);
}

export function primitiveFacts(name: PrimitiveName): PrimitiveFacts {
  return PRIMITIVES[name];
}

/** The primitive an XSD-namespace built-in (local name) is, undefined when smskit has none. */
export function xsdBuiltin(local: string): PrimitiveName | undefined {
  return isPrimitiveName(local) && PRIMITIVES[local].origin === 'xsd' ? local : undefined;
}

/** Whether the value is its text as written (text and guid) rather than the text with whitespace collapsed. */
export function keepsWhitespace(name: PrimitiveName): boolean {
  const family = PRIMITIVES[name].family;
  return family === 'text' || family === 'guid';
}

/** Whether a value of the primitive is a number (integer, decimal or floating point). */
export function isNumericPrimitive(name: PrimitiveName): boolean {
  const family = PRIMITIVES[name].family;
  return family === 'integer' || family === 'decimal' || family === 'float';
}

/**
 * A numeric primitive's bounds as JS numbers (±Infinity where unbounded, or beyond what a
 * conformance sample needs) and whether it is integral; undefined for a type that is no number.
 */
export function numericRange(
  name: PrimitiveName,
): { readonly min: number; readonly max: number; readonly integral: boolean } | undefined {
  if (!isNumericPrimitive(name)) return undefined;
  const facts: PrimitiveFacts = PRIMITIVES[name];
  const [min, max] = facts.range ?? [undefined, undefined];
  return {
    min: min === undefined ? -Infinity : Number(min),
    max: max === undefined ? Infinity : Number(max),
    integral: facts.family === 'integer',
  };
}
