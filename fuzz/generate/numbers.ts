/**
 * Numbers within their type's range and the facets (min/max inclusive or exclusive, totalDigits,
 * fractionDigits), biased to the edges: each bound exactly and one inside it, zero, one and minus
 * one, as the runtime's values (a JS number for the types that fit one, a bigint for the others, a
 * decimal's lexical form as a string). A type's own range (xs:int's 2147483647) is a bound like a
 * facet's: an overflow there is the classic defect.
 */
import fc from 'fast-check';
import type { Facets } from '../../conformance/catalogue/schema-facts.js';
import { primitiveFacts, type PrimitiveName } from '../../runtime/primitives.js';

/**
 * Generation bounds of an unbounded integer type (xs:integer and its kin) and of a decimal without
 * totalDigits: 18 digits, what XSD 1.0 (Part 2 §3.2.3) requires every processor to support. Past
 * that a stack may refuse a valid value by its own limit (.NET's decimal stops at 29 digits), which
 * says nothing of the server.
 */
const UNBOUNDED = 10n ** 18n - 1n;
const DECIMAL_DIGITS = 18;

function bigOf(text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const m = /^\s*([+-]?\d+)(?:\.(\d*))?\s*$/.exec(text);
  if (m === null) return undefined;
  return BigInt(m[1]!);
}

/** The smallest and largest integer a value may take, from the type and the facets. */
export function integerBounds(xsd: PrimitiveName, facets: Facets | undefined): { min: bigint; max: bigint } {
  const [typeMin, typeMax] = primitiveFacts(xsd).range ?? [undefined, undefined];
  let min = typeMin ?? -UNBOUNDED;
  let max = typeMax ?? UNBOUNDED;
  const raise = (n: bigint | undefined): void => {
    if (n !== undefined && n > min) min = n;
  };
  const lower = (n: bigint | undefined): void => {
    if (n !== undefined && n < max) max = n;
  };
  raise(bigOf(facets?.minInclusive));
  lower(bigOf(facets?.maxInclusive));
  const minEx = bigOf(facets?.minExclusive);
  const maxEx = bigOf(facets?.maxExclusive);
  raise(minEx === undefined ? undefined : minEx + 1n);
  lower(maxEx === undefined ? undefined : maxEx - 1n);
  if (facets?.totalDigits !== undefined) {
    const limit = 10n ** BigInt(facets.totalDigits) - 1n;
    raise(-limit);
    lower(limit);
  }
  return { min, max };
}

/** The edges worth a case: 0, 1, -1 when in range (first: what a value shrinks to), each bound and one inside it. */
function integerEdges(min: bigint, max: bigint): bigint[] {
  const all = [0n, 1n, -1n, min, max, min + 1n, max - 1n];
  return [...new Set(all.filter((n) => n >= min && n <= max))];
}

/** An integer of the type, as the runtime holds it (number or bigint). */
export function integerValue(xsd: PrimitiveName, facets: Facets | undefined): fc.Arbitrary<number | bigint> {
  const { min, max } = integerBounds(xsd, facets);
  if (min > max) return fc.constant(primitiveFacts(xsd).ts === 'bigint' ? min : Number(min));
  // Cross-shrinking: a failing value from any arm is tried as the first arm's (0 first) while shrinking.
  const big = fc.oneof(
    { withCrossShrink: true },
    { weight: 3, arbitrary: fc.constantFrom(...integerEdges(min, max)) },
    { weight: 2, arbitrary: fc.bigInt({ min: min > -100n ? min : -100n, max: max < 100n ? max : 100n }) },
    { weight: 5, arbitrary: fc.bigInt({ min, max }) },
  );
  return primitiveFacts(xsd).ts === 'bigint' ? big : big.map(Number);
}

/** A decimal's lexical form within totalDigits/fractionDigits and its range. */
export function decimalValue(facets: Facets | undefined): fc.Arbitrary<string> {
  const { min, max } = integerBounds('integer', facets);
  const fraction = facets?.fractionDigits ?? 6;
  const total = facets?.totalDigits ?? DECIMAL_DIGITS;
  const ranged = [facets?.minInclusive, facets?.maxInclusive, facets?.minExclusive, facets?.maxExclusive].some(
    (f) => f !== undefined,
  );
  const edges = [facets?.minInclusive, facets?.maxInclusive].filter((t): t is string => t !== undefined);
  // Whole parts that leave room for a fraction, and the range's own edges (without one).
  const room = 10n ** BigInt(Math.max(1, total - Math.min(fraction, 6))) - 1n;
  const small = { min: min > -room ? min : -room, max: max < room ? max : room };
  const whole = fc.oneof(
    { withCrossShrink: true },
    fc.constantFrom(...integerEdges(min, max)),
    fc.bigInt(small.min <= small.max ? small : { min, max }),
  );
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: Math.max(1, fraction) });
  const text = fc.tuple(whole, fraction === 0 ? fc.constant('') : fc.option(digits, { nil: '' })).map(([w, f]) => {
    // Inside the range: a fraction only where it cannot cross a bound.
    const keep = f !== '' && !(ranged && (w === min || w === max));
    return keep ? `${w}.${f}` : String(w);
  });
  const fits = (t: string): boolean =>
    t
      .replace(/^-/, '')
      .replace('.', '')
      .replace(/^0+(?=\d)/, '').length <= total;
  return fc.oneof(
    { weight: 8, arbitrary: text.filter(fits) },
    ...(edges.length > 0 ? [{ weight: 2, arbitrary: fc.constantFrom(...edges) }] : []),
  );
}

const FLOAT_EDGES = [0, -0, 1, -1, 3.4028234663852886e38, -3.4028234663852886e38, 1.401298464324817e-45, 1.5];
const DOUBLE_EDGES = [0, -0, 1, -1, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 0.1, 1e21, 1e-7];

/** A float or double, special values included (INF, -INF, NaN), within the range facets. */
export function floatValue(xsd: 'float' | 'double', facets: Facets | undefined): fc.Arbitrary<number> {
  const special = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN];
  const body =
    xsd === 'float'
      ? fc.float({ noDefaultInfinity: true, noNaN: true })
      : fc.double({ noDefaultInfinity: true, noNaN: true });
  const all = fc.oneof(
    { withCrossShrink: true },
    { weight: 2, arbitrary: fc.constantFrom(...(xsd === 'float' ? FLOAT_EDGES : DOUBLE_EDGES)) },
    { weight: 6, arbitrary: body },
    { weight: 1, arbitrary: fc.constantFrom(...special) },
  );
  const low = facets?.minInclusive ?? facets?.minExclusive;
  const high = facets?.maxInclusive ?? facets?.maxExclusive;
  if (low === undefined && high === undefined) return all;
  const lo = low === undefined ? -Infinity : Number(low);
  const hi = high === undefined ? Infinity : Number(high);
  const inRange = (n: number): boolean =>
    !Number.isNaN(n) &&
    (facets?.minExclusive !== undefined ? n > lo : n >= lo) &&
    (facets?.maxExclusive !== undefined ? n < hi : n <= hi);
  const edges = [facets?.minInclusive, facets?.maxInclusive].filter((t): t is string => t !== undefined).map(Number);
  return fc.oneof(all.filter(inRange), ...(edges.length > 0 ? [fc.constantFrom(...edges)] : [])).filter(inRange);
}
