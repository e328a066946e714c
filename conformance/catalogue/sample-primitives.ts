/**
 * Samples of simple values, one primitive at a time: the per-primitive table (a typical lexical
 * form of each XSD built-in, the numbers with their ranges) and the facets laid over it (range,
 * length, pattern, enumeration). Kept in one piece so that one primitive table can replace it.
 */
import type { Facets } from './schema-facts.js';
import { PLAIN_TEXT, type SimpleWalk } from './sample-types.js';

// -- simple values ---------------------------------------------------------------------------

const FREE_TEXT_TYPES = new Set(['string', 'normalizedString', 'token', 'anySimpleType']);

/** Typical lexical forms of the XSD built-ins that are not numbers or free text. */
const TYPICAL: Readonly<Record<string, string>> = {
  boolean: 'true',
  dateTime: '2024-05-17T10:30:00Z',
  dateTimeStamp: '2024-05-17T10:30:00Z',
  date: '2024-05-17',
  time: '10:30:00',
  gYear: '2024',
  gYearMonth: '2024-05',
  gMonth: '--05',
  gMonthDay: '--05-17',
  gDay: '---17',
  duration: 'P1DT2H',
  dayTimeDuration: 'P1DT2H',
  yearMonthDuration: 'P1Y2M',
  base64Binary: 'AAEC/w==',
  hexBinary: '0001FF',
  anyURI: 'https://example.com/conformance',
  QName: 'conformance',
  NOTATION: 'conformance',
  language: 'en',
  Name: 'conformance',
  NCName: 'conformance',
  ID: 'conformance1',
  IDREF: 'conformance1',
  IDREFS: 'conformance1',
  ENTITY: 'conformance',
  ENTITIES: 'conformance',
  NMTOKEN: 'conformance',
  NMTOKENS: 'conformance',
  guid: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
};

/** Each numeric primitive: typical value, range, whether it is integral. */
const NUMBERS: Readonly<
  Record<string, { readonly typical: number; readonly min: number; readonly max: number; readonly integral: boolean }>
> = {
  int: { typical: 42, min: -2147483648, max: 2147483647, integral: true },
  short: { typical: 42, min: -32768, max: 32767, integral: true },
  byte: { typical: 42, min: -128, max: 127, integral: true },
  unsignedInt: { typical: 42, min: 0, max: 4294967295, integral: true },
  unsignedShort: { typical: 42, min: 0, max: 65535, integral: true },
  unsignedByte: { typical: 42, min: 0, max: 255, integral: true },
  // DataContract/ASMX char: a UTF-16 code unit as a number ('A').
  char: { typical: 65, min: 0, max: 65535, integral: true },
  long: { typical: 42, min: -Infinity, max: Infinity, integral: true },
  unsignedLong: { typical: 42, min: 0, max: Infinity, integral: true },
  integer: { typical: 42, min: -Infinity, max: Infinity, integral: true },
  nonNegativeInteger: { typical: 42, min: 0, max: Infinity, integral: true },
  positiveInteger: { typical: 42, min: 1, max: Infinity, integral: true },
  nonPositiveInteger: { typical: -42, min: -Infinity, max: 0, integral: true },
  negativeInteger: { typical: -42, min: -Infinity, max: -1, integral: true },
  decimal: { typical: 12.5, min: -Infinity, max: Infinity, integral: false },
  float: { typical: 1.5, min: -Infinity, max: Infinity, integral: false },
  double: { typical: 1.5, min: -Infinity, max: Infinity, integral: false },
};

/** Whether a primitive holds a number (the `not-a-number` negative case targets these). */
export function isNumeric(xsd: string): boolean {
  return xsd in NUMBERS;
}

function facetNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The typical number moved into [min, max] as the type and facets allow. */
function numberSample(xsd: string, facets: Facets | undefined): string {
  const spec = NUMBERS[xsd]!;
  const step = spec.integral ? 1 : 0.5;
  const lows = [
    spec.min,
    facetNumber(facets?.minInclusive),
    (facetNumber(facets?.minExclusive) ?? -Infinity) + step,
  ].filter((n): n is number => n !== undefined);
  const highs = [
    spec.max,
    facetNumber(facets?.maxInclusive),
    (facetNumber(facets?.maxExclusive) ?? Infinity) - step,
  ].filter((n): n is number => n !== undefined);
  const low = Math.max(...lows);
  const high = Math.min(...highs);
  let value = Math.min(Math.max(spec.typical, low), high);
  if (facets?.fractionDigits === 0 || spec.integral) value = Math.trunc(value);
  if (facets?.totalDigits !== undefined && String(Math.abs(value)).replace('.', '').length > facets.totalDigits)
    value = Math.min(Math.max(1, low), high);
  return String(value);
}

function fitLength(text: string, facets: Facets | undefined): string {
  const max = facets?.length ?? facets?.maxLength;
  const min = facets?.length ?? facets?.minLength;
  let out = max !== undefined && text.length > max ? text.slice(0, max) : text;
  if (min !== undefined && out.length < min) out = out + 'x'.repeat(min - out.length);
  return out;
}

const PATTERN_CANDIDATES = [
  'A1',
  'a',
  'A',
  '1',
  '42',
  'abc',
  'ABC',
  'abc123',
  'ABC123',
  'A-1',
  'a@example.com',
  '+15551234567',
  '12345',
  'AB',
];

/** A value matching every pattern (XSD patterns are anchored), or undefined. */
function matchPatterns(patterns: readonly string[], candidates: readonly string[]): string | undefined {
  const compiled: RegExp[] = [];
  for (const p of patterns) {
    try {
      compiled.push(new RegExp(`^(?:${p})$`, 'u'));
    } catch {
      return undefined;
    }
  }
  return candidates.find((c) => compiled.every((r) => r.test(c)));
}

export function simpleSample(
  walk: SimpleWalk,
  xsd: string,
  enumeration: readonly string[] | undefined,
  facets: Facets | undefined,
  path: string,
): unknown {
  if (enumeration !== undefined && enumeration.length > 0) return enumeration[0]!;
  if (isNumeric(xsd)) return numberSample(xsd, facets);
  const typical = TYPICAL[xsd];
  const free = FREE_TEXT_TYPES.has(xsd);
  const base = typical ?? (free && walk.variant.kind === 'typical' ? walk.variant.text : PLAIN_TEXT);
  if (facets?.pattern !== undefined && facets.pattern.length > 0) {
    const candidates = [base, ...PATTERN_CANDIDATES, ...Object.values(TYPICAL)].map((c) => fitLength(c, facets));
    const found = matchPatterns(facets.pattern, candidates);
    if (found === undefined)
      walk.problems.push({ path, reason: `no sample matches its pattern ${facets.pattern.join(' | ')}` });
    return found ?? base;
  }
  if (free && typical === undefined) walk.features.freeText = true;
  return fitLength(base, facets);
}
