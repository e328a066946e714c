/**
 * A simple value's text judged against its XSD primitive: the lexical form (after whitespace
 * collapsing), the range of the bounded integers, and the enumeration. The schema walk asks this
 * of every element and attribute holding a simple value.
 */
import { isPrimitiveName, type PrimitiveName, primitiveFacts } from '../../runtime/primitives.js';

const INTEGER = /^[+-]?\d+$/;
const UNSIGNED = /^\+?\d+$/;
const FLOATING = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/;

/**
 * Lexical forms of the primitives (XSD Part 2 §3.2, §3.3), after whitespace collapsing; null
 * where any text is the type's (the text family) or the runner does not judge the form. Keyed by
 * the primitive table (runtime/primitives.ts), so a type added there must be decided here.
 */
const LEXICAL = {
  string: null,
  normalizedString: null,
  token: null,
  anySimpleType: null,
  language: null,
  Name: null,
  NCName: null,
  NMTOKEN: null,
  NMTOKENS: null,
  ID: null,
  IDREF: null,
  IDREFS: null,
  ENTITY: null,
  ENTITIES: null,
  anyURI: null,
  QName: null,
  NOTATION: null,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  dateTimeStamp: null,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  gYear: null,
  gYearMonth: null,
  gMonth: null,
  gMonthDay: null,
  gDay: null,
  duration: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  dayTimeDuration: null,
  yearMonthDuration: null,
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  boolean: /^(true|false|1|0)$/,
  float: FLOATING,
  double: FLOATING,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  byte: INTEGER,
  short: INTEGER,
  int: INTEGER,
  unsignedByte: UNSIGNED,
  unsignedShort: UNSIGNED,
  unsignedInt: UNSIGNED,
  char: UNSIGNED,
  long: INTEGER,
  unsignedLong: UNSIGNED,
  integer: INTEGER,
  nonNegativeInteger: UNSIGNED,
  positiveInteger: UNSIGNED,
  nonPositiveInteger: /^(-\d+|\+?0+)$/,
  negativeInteger: /^-\d+$/,
  base64Binary: /^[A-Za-z0-9+/= \t\r\n]*$/,
  hexBinary: /^([0-9a-fA-F]{2})*$/,
} as const satisfies Readonly<Record<PrimitiveName, RegExp | null>>;

/** The range of a bounded integer type (both bounds known), from the primitive table. */
function rangeOf(xsd: PrimitiveName): readonly [bigint, bigint] | undefined {
  const facts = primitiveFacts(xsd);
  if (facts.family !== 'integer' || facts.range === undefined) return undefined;
  const [min, max] = facts.range;
  return min === undefined || max === undefined ? undefined : [min, max];
}

export function truncate(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

export function isWhitespaceCollapsed(xsd: string): boolean {
  return xsd !== 'string' && xsd !== 'normalizedString' && xsd !== 'anySimpleType';
}

/** Mismatches of a simple value's text with its primitive and enumeration. */
export function simpleValueProblem(
  xsd: string,
  enumeration: readonly string[] | undefined,
  text: string,
): { expected: string; why: string } | undefined {
  const value = isWhitespaceCollapsed(xsd) ? text.trim() : text;
  const known = isPrimitiveName(xsd) ? xsd : undefined;
  const pattern = known === undefined ? null : LEXICAL[known];
  if (pattern !== null && !pattern.test(value)) return { expected: `xs:${xsd}`, why: `is not a valid xs:${xsd}` };
  const range = known === undefined ? undefined : rangeOf(known);
  if (range !== undefined) {
    const n = BigInt(value.replace(/^\+/, ''));
    if (n < range[0] || n > range[1])
      return { expected: `xs:${xsd} (${range[0]}..${range[1]})`, why: `is outside the range of xs:${xsd}` };
  }
  if (enumeration !== undefined && enumeration.length > 0 && !enumeration.includes(value)) {
    return { expected: `one of ${enumeration.join(', ')}`, why: 'is not an allowed value' };
  }
  return undefined;
}
