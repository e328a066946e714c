/**
 * A simple value's text judged against its XSD primitive: the lexical form (after whitespace
 * collapsing), the range of the bounded integers, and the enumeration. The schema walk asks this
 * of every element and attribute holding a simple value.
 */

/** Lexical forms of the XSD primitives (XSD Part 2 §3.2, §3.3), after whitespace collapsing. */
const LEXICAL: Readonly<Record<string, RegExp>> = {
  boolean: /^(true|false|1|0)$/,
  int: /^[+-]?\d+$/,
  integer: /^[+-]?\d+$/,
  long: /^[+-]?\d+$/,
  short: /^[+-]?\d+$/,
  byte: /^[+-]?\d+$/,
  nonNegativeInteger: /^\+?\d+$/,
  positiveInteger: /^\+?\d+$/,
  nonPositiveInteger: /^(-\d+|\+?0+)$/,
  negativeInteger: /^-\d+$/,
  unsignedInt: /^\+?\d+$/,
  unsignedLong: /^\+?\d+$/,
  unsignedShort: /^\+?\d+$/,
  unsignedByte: /^\+?\d+$/,
  char: /^\+?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  double: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  float: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  duration: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  base64Binary: /^[A-Za-z0-9+/= \t\r\n]*$/,
  hexBinary: /^([0-9a-fA-F]{2})*$/,
};

/** Ranges of the bounded integer types: a lexically valid number may still be out of range. */
const RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedInt: [0n, 2n ** 32n - 1n],
  unsignedShort: [0n, 65535n],
  unsignedByte: [0n, 255n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  char: [0n, 65535n],
};

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
  const pattern = LEXICAL[xsd];
  if (pattern !== undefined && !pattern.test(value)) return { expected: `xs:${xsd}`, why: `is not a valid xs:${xsd}` };
  const range = RANGES[xsd];
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
