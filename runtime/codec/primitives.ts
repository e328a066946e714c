/**
 * One codec per XSD built-in type: TypeScript value <-> lexical form (unescaped). Which codec a
 * type gets follows from its family in the primitive table (runtime/primitives.ts).
 *
 * The mapping (mirrors the table in docs/generator.md, "XSD → TypeScript type mapping"):
 *   string family, date/time types, durations, anyURI, QName, guid -> string (date/time types and
 *     durations checked against their XSD lexical forms, temporal.ts; guid against its pattern)
 *   boolean -> boolean (in: 'true'/'false'/'1'/'0'; out: 'true'/'false')
 *   float, double -> number (INF, -INF, NaN)
 *   int, short, byte, unsignedInt, unsignedShort, unsignedByte, (DataContract) char -> number (range-checked)
 *   long, unsignedLong, integer and its derived types -> bigint (an integral number is accepted on encode)
 *   decimal -> string (validated lexically, so no precision is lost)
 *   base64Binary, hexBinary -> Uint8Array
 * Unknown primitive names are a descriptor error, found when the codec is looked up.
 */
import { CodecError } from '../errors.js';
import {
  isPrimitiveName,
  keepsWhitespace,
  PRIMITIVE_NAMES,
  PRIMITIVES,
  type PrimitiveFacts,
  type PrimitiveFamily,
  type PrimitiveName,
  type PrimitiveOf,
} from '../primitives.js';
import { checkTemporal, readTemporal, temporalForm } from './temporal.js';

export interface PrimitiveCodec {
  /** The TypeScript type name, for error messages. */
  readonly tsType: string;
  encode(value: unknown, path: string): string;
  decode(text: string, path: string): unknown;
}

function invalid(path: string, detail: string): CodecError {
  return new CodecError('CODEC_INVALID_VALUE', path, detail);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : `"${value}"`;
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

const stringCodec: PrimitiveCodec = {
  tsType: 'string',
  encode(value, path) {
    if (typeof value !== 'string') throw invalid(path, `expected a string, got ${describe(value)}`);
    return value;
  },
  decode: (text) => text,
};

const booleanCodec: PrimitiveCodec = {
  tsType: 'boolean',
  encode(value, path) {
    if (typeof value !== 'boolean') throw invalid(path, `expected a boolean, got ${describe(value)}`);
    return value ? 'true' : 'false';
  },
  decode(text, path) {
    const t = text.trim();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
    throw invalid(path, `"${t}" is not an xs:boolean`);
  },
};

const FLOAT_LEXICAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

const floatCodec: PrimitiveCodec = {
  tsType: 'number',
  encode(value, path) {
    if (typeof value !== 'number') throw invalid(path, `expected a number, got ${describe(value)}`);
    if (Number.isNaN(value)) return 'NaN';
    if (value === Infinity) return 'INF';
    if (value === -Infinity) return '-INF';
    return String(value);
  },
  decode(text, path) {
    const t = text.trim();
    if (t === 'NaN') return NaN;
    // .NET writes infinities as Infinity/-Infinity (Double.ToString, e.g. its HTTP GET/POST
    // proxies), and genuine ASMX reads those too; smskit writes only INF/-INF.
    if (t === 'INF' || t === '+INF' || t === 'Infinity' || t === '+Infinity') return Infinity;
    if (t === '-INF' || t === '-Infinity') return -Infinity;
    if (!FLOAT_LEXICAL.test(t)) throw invalid(path, `"${t}" is not an xs:double`);
    return Number(t);
  },
};

const INTEGER_LEXICAL = /^[+-]?\d+$/;

function boundedIntCodec(xsd: string, min: number, max: number): PrimitiveCodec {
  return {
    tsType: 'number',
    encode(value, path) {
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw invalid(path, `expected an integer number for xs:${xsd}, got ${describe(value)}`);
      if (value < min || value > max)
        throw invalid(path, `${value} is outside the range of xs:${xsd} (${min}..${max})`);
      return String(value);
    },
    decode(text, path) {
      const t = text.trim();
      if (!INTEGER_LEXICAL.test(t)) throw invalid(path, `"${t}" is not an xs:${xsd}`);
      const n = Number(t);
      if (n < min || n > max) throw invalid(path, `${t} is outside the range of xs:${xsd} (${min}..${max})`);
      return n === 0 ? 0 : n; // never -0
    },
  };
}

function bigIntCodec(xsd: string, min?: bigint, max?: bigint): PrimitiveCodec {
  const check = (n: bigint, path: string, shown: string): bigint => {
    if ((min !== undefined && n < min) || (max !== undefined && n > max))
      throw invalid(path, `${shown} is outside the range of xs:${xsd}`);
    return n;
  };
  return {
    tsType: 'bigint',
    encode(value, path) {
      if (typeof value === 'bigint') return String(check(value, path, String(value)));
      if (typeof value === 'number' && Number.isSafeInteger(value))
        return String(check(BigInt(value), path, String(value)));
      throw invalid(path, `expected a bigint (or a safe integer number) for xs:${xsd}, got ${describe(value)}`);
    },
    decode(text, path) {
      const t = text.trim();
      if (!INTEGER_LEXICAL.test(t))
        throw invalid(path, `"${t.length > 40 ? `${t.slice(0, 40)}...` : t}" is not an xs:${xsd}`);
      return check(BigInt(t), path, t);
    },
  };
}

const DECIMAL_LEXICAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

const decimalCodec: PrimitiveCodec = {
  tsType: 'string',
  encode(value, path) {
    const s = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
    if (typeof s !== 'string' || !DECIMAL_LEXICAL.test(s) || s.includes('e'))
      throw invalid(path, `expected an xs:decimal string such as "12.50", got ${describe(value)}`);
    return s;
  },
  decode(text, path) {
    const t = text.trim();
    if (!DECIMAL_LEXICAL.test(t)) throw invalid(path, `"${t}" is not an xs:decimal`);
    return canonicalDecimal(t);
  },
};

/**
 * The decimal as .NET's decimal holds it: no `+`, no leading zeros, a digit on each side of the
 * point that is written, the scale (trailing zeros) kept, no sign on zero. `+01.50` → `1.50`.
 */
function canonicalDecimal(lexical: string): string {
  const negative = lexical.startsWith('-');
  const unsigned = lexical.replace(/^[+-]/, '');
  const [whole = '', fraction] = unsigned.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  const digits = fraction === undefined || fraction === '' ? integer : `${integer}.${fraction}`;
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

const BASE64_LEXICAL = /^[A-Za-z0-9+/]*={0,2}$/;

const base64Codec: PrimitiveCodec = {
  tsType: 'Uint8Array',
  encode(value, path) {
    if (!(value instanceof Uint8Array)) throw invalid(path, `expected a Uint8Array, got ${describe(value)}`);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  },
  decode(text, path) {
    const t = text.replace(/[ \t\r\n]+/g, '');
    if (t.length % 4 !== 0 || !BASE64_LEXICAL.test(t)) throw invalid(path, 'not valid xs:base64Binary');
    return new Uint8Array(Buffer.from(t, 'base64'));
  },
};

const hexCodec: PrimitiveCodec = {
  tsType: 'Uint8Array',
  encode(value, path) {
    if (!(value instanceof Uint8Array)) throw invalid(path, `expected a Uint8Array, got ${describe(value)}`);
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex').toUpperCase();
  },
  decode(text, path) {
    const t = text.trim();
    if (t.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(t)) throw invalid(path, 'not valid xs:hexBinary');
    return new Uint8Array(Buffer.from(t, 'hex'));
  },
};

/** A date, time or duration type: its text, checked against the type's lexical form (whitespace collapses, as XSD says). */
function temporalCodec(xsd: PrimitiveOf<'temporal'>): PrimitiveCodec {
  const form = temporalForm(xsd);
  return {
    tsType: 'string',
    encode(value, path) {
      if (typeof value !== 'string') throw invalid(path, `expected an xs:${xsd} string, got ${describe(value)}`);
      checkTemporal(form, value, path);
      return value;
    },
    decode: (text, path) => readTemporal(form, text.trim(), path),
  };
}

/**
 * Microsoft's guid (`{http://microsoft.com/wsdl/types/}guid` in ASMX WSDLs, and DataContract's):
 * xs:string restricted by this pattern, so whitespace is kept and fails the pattern.
 */
const GUID_LEXICAL = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function checkGuid(text: string, path: string): string {
  if (!GUID_LEXICAL.test(text))
    throw invalid(
      path,
      `${describe(text)} is not a guid (expected 8-4-4-4-12 hexadecimal digits, such as 3f2504e0-4f89-11d3-9a0c-0305e82c3301)`,
    );
  return text;
}

/**
 * The other forms .NET's Guid parser (XmlConvert.ToGuid, genuine ASMX) reads: `{…}` and `(…)`
 * around the 8-4-4-4-12 form, the 32 digits without hyphens (N), surrounding whitespace. Each is
 * read as the 8-4-4-4-12 form (its digits as written), the only one smskit writes.
 */
const GUID_DOTNET = /^\s*(?:\{([^{}]*)\}|\(([^()]*)\)|([0-9a-fA-F]{32})|([^\s{}()]*))\s*$/;

function readGuid(text: string, path: string): string {
  const match = GUID_DOTNET.exec(text);
  const inner = match?.[1] ?? match?.[2] ?? match?.[4];
  const digits = match?.[3];
  const hyphenated =
    digits === undefined
      ? inner
      : `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
  if (hyphenated === undefined || !GUID_LEXICAL.test(hyphenated)) return checkGuid(text, path);
  return hyphenated;
}

const guidCodec: PrimitiveCodec = {
  tsType: 'string',
  encode(value, path) {
    if (typeof value !== 'string') throw invalid(path, `expected a guid string, got ${describe(value)}`);
    return checkGuid(value, path);
  },
  decode: readGuid,
};

/** The codec of each family; an integer type's range and TypeScript type come from the table. */
const FAMILY_CODECS = {
  text: () => stringCodec,
  temporal: (name) => temporalCodec(name as PrimitiveOf<'temporal'>),
  guid: () => guidCodec,
  integer: integerCodec,
  decimal: () => decimalCodec,
  float: () => floatCodec,
  boolean: () => booleanCodec,
  base64: () => base64Codec,
  hex: () => hexCodec,
} satisfies Record<PrimitiveFamily, (name: PrimitiveName) => PrimitiveCodec>;

function integerCodec(name: PrimitiveName): PrimitiveCodec {
  const { ts, range } = PRIMITIVES[name] as PrimitiveFacts;
  const [min, max] = range ?? [undefined, undefined];
  return ts === 'number' ? boundedIntCodec(name, Number(min), Number(max)) : bigIntCodec(name, min, max);
}

const CODECS: ReadonlyMap<string, PrimitiveCodec> = new Map(
  PRIMITIVE_NAMES.map((name) => [name, FAMILY_CODECS[PRIMITIVES[name].family](name)]),
);

/** The codec for a primitive (a descriptor's name, checked here), or a CODEC_DESCRIPTOR error. */
export function primitiveCodec(xsd: string, path: string): PrimitiveCodec {
  const codec = CODECS.get(xsd);
  if (codec === undefined) throw new CodecError('CODEC_DESCRIPTOR', path, `no codec for the XSD type "${xsd}"`);
  return codec;
}

/** The codec for a primitive, undefined when there is none. */
export function findPrimitiveCodec(xsd: string): PrimitiveCodec | undefined {
  return CODECS.get(xsd);
}

/** Whether the type keeps whitespace as written (string-like) rather than collapsing it. */
export function isStringLike(xsd: string): boolean {
  return isPrimitiveName(xsd) && keepsWhitespace(xsd);
}
