/**
 * Samples of simple values, one primitive at a time: a typical lexical form of each primitive and
 * the numbers' ranges, both read from the primitive table (runtime/primitives.ts), with the
 * facets laid over them (range, length, pattern, enumeration).
 */
import {
  isNumericPrimitive,
  isPrimitiveName,
  numericRange,
  PRIMITIVE_NAMES,
  type PrimitiveName,
  primitiveFacts,
} from '../../runtime/primitives.js';
import type { Facets } from './schema-facts.js';
import { PLAIN_TEXT, type SimpleWalk } from './sample-types.js';

/**
 * The typical lexical forms of the table's primitives that are neither numbers nor free text
 * (runtime/primitives.ts): what a pattern is tried against when the typical value misses it.
 */
const TYPICAL_TEXTS: readonly string[] = PRIMITIVE_NAMES.filter((name) => !isNumericPrimitive(name)).flatMap((name) => {
  const sample = primitiveFacts(name).sample;
  return sample === undefined ? [] : [sample];
});

/** Whether a type holds a number (the `not-a-number` negative case targets these). */
export function isNumeric(xsd: string): boolean {
  return isPrimitiveName(xsd) && isNumericPrimitive(xsd);
}

function facetNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** The typical number moved into [min, max] as the type and facets allow. */
function numberSample(xsd: PrimitiveName, facets: Facets | undefined): string {
  const spec = { ...numericRange(xsd)!, typical: Number(primitiveFacts(xsd).sample) };
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
  xsd: PrimitiveName,
  enumeration: readonly string[] | undefined,
  facets: Facets | undefined,
  path: string,
): unknown {
  if (enumeration !== undefined && enumeration.length > 0) return enumeration[0]!;
  if (isNumericPrimitive(xsd)) return numberSample(xsd, facets);
  const typical = primitiveFacts(xsd).sample;
  const free = typical === undefined;
  const base = typical ?? (free && walk.variant.kind === 'typical' ? walk.variant.text : PLAIN_TEXT);
  if (facets?.pattern !== undefined && facets.pattern.length > 0) {
    const candidates = [base, ...PATTERN_CANDIDATES, ...TYPICAL_TEXTS].map((c) => fitLength(c, facets));
    const found = matchPatterns(facets.pattern, candidates);
    if (found === undefined)
      walk.problems.push({ path, reason: `no sample matches its pattern ${facets.pattern.join(' | ')}` });
    return found ?? base;
  }
  if (free && typical === undefined) walk.features.freeText = true;
  return fitLength(base, facets);
}
