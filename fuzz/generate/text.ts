/**
 * Text that XML 1.0 can carry, biased to where servers break: the empty string, a length facet's
 * exact edges (counted in characters, so a surrogate pair at the edge is one character but two
 * UTF-16 units), markup characters, whitespace at the ends, and characters outside the Basic
 * Multilingual Plane. Characters XML cannot carry (C0 controls but tab/LF/CR, lone surrogates,
 * U+FFFE/U+FFFF) are never produced: the runtime would refuse to send them, and that is not the
 * server's defect.
 */
import fc from 'fast-check';
import type { Facets } from '../../conformance/catalogue/schema-facts.js';
import { escapeText } from '../../runtime/escape/xml.js';

/** Free text stays short unless a facet asks for more: long texts find little and cost time. */
const DEFAULT_MAX = 24;
/** A facet's maxLength above this is probed at its edge, never filled at random. */
const RANDOM_MAX = 64;

const codePoint = (min: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).map((cp) => String.fromCodePoint(cp));

/** One character, weighted: mostly ASCII, some markup and whitespace, non-ASCII, and astral. */
export const xmlChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: codePoint(0x20, 0x7e) },
  { weight: 1, arbitrary: fc.constantFrom('<', '>', '&', '"', "'", ']', ' ', '\t', '\n', '\r') },
  { weight: 2, arbitrary: fc.oneof(codePoint(0xa0, 0xd7ff), codePoint(0xe000, 0xfffd)) },
  { weight: 1, arbitrary: codePoint(0x10000, 0x10ffff) },
);

/** A character of an NCName after the first (ASCII: what every stack's name check takes). */
const NAME_CHAR = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-');
const NAME_START = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_');

/** Length bounds in characters from the facets: `length`, or min/max (defaults 0 and DEFAULT_MAX). */
export function lengthBounds(facets: Facets | undefined): { readonly min: number; readonly max: number } {
  const min = facets?.length ?? facets?.minLength ?? 0;
  const max = facets?.length ?? facets?.maxLength ?? Math.max(min, DEFAULT_MAX);
  return { min, max: Math.max(min, max) };
}

/**
 * Strings of `unit` characters with `min`..`max` of them; a facet's own bounds (`edges`) weighted
 * up. Without facets there is no edge worth a case beyond the empty string, and an exact-length
 * string cannot shrink its length, so only the facets' edges are forced.
 */
function sized(unit: fc.Arbitrary<string>, min: number, max: number, edges: boolean): fc.Arbitrary<string> {
  const randomMax = Math.min(max, Math.max(min, RANDOM_MAX));
  const random = fc.string({ unit, minLength: min, maxLength: randomMax });
  if (!edges) return random;
  const exact = [fc.string({ unit, minLength: min, maxLength: min })];
  if (max !== min) exact.push(fc.string({ unit, minLength: max, maxLength: max }));
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 7, arbitrary: random },
    { weight: 3, arbitrary: fc.oneof(...exact) },
  );
}

/** Free text (xs:string and its kin) within the length facets. */
export function freeText(facets: Facets | undefined, kind: 'string' | 'normalized' | 'token'): fc.Arbitrary<string> {
  const { min, max } = lengthBounds(facets);
  const edges = facets?.length !== undefined || facets?.minLength !== undefined || facets?.maxLength !== undefined;
  if (kind === 'string') {
    const astralEdge =
      max > 0 && max <= RANDOM_MAX
        ? [fc.string({ unit: codePoint(0x10000, 0x10ffff), minLength: Math.max(1, min), maxLength: max })]
        : [];
    return fc.oneof(
      { withCrossShrink: true },
      { weight: 9, arbitrary: sized(xmlChar, min, max, edges) },
      ...astralEdge.map((a) => ({ weight: 1, arbitrary: a })),
    );
  }
  // normalizedString has no tab or line break; a token no leading, trailing or double space either.
  const unit = xmlChar.filter((c) => c !== '\t' && c !== '\n' && c !== '\r');
  const text = sized(unit, min, max, edges);
  return kind === 'normalized' ? text : text.map((t) => t.replace(/ +/g, ' ').trim()).filter((t) => t.length >= min);
}

/** An NCName (also what Name, ID, NMTOKEN, ENTITY and QName get: a name valid for all). */
export const ncName: fc.Arbitrary<string> = fc
  .tuple(NAME_START, fc.string({ unit: NAME_CHAR, maxLength: 12 }))
  .map(([first, rest]) => first + rest);

/** A whitespace-separated list of names (NMTOKENS, IDREFS, ENTITIES). */
export const nameList: fc.Arbitrary<string> = fc.array(ncName, { minLength: 1, maxLength: 4 }).map((l) => l.join(' '));

/** A language tag (en, en-GB, zh-Hant-TW). */
export const languageTag: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^[a-z]{2,3}$/), fc.array(fc.stringMatching(/^[A-Za-z0-9]{1,8}$/), { maxLength: 2 }))
  .map(([primary, subtags]) => [primary, ...subtags].join('-'));

/** An absolute URI with a path and a query that need escaping in a URL but not in XML. */
export const absoluteUri: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('http', 'https', 'urn'), ncName, fc.array(ncName, { maxLength: 3 }))
  .map(([scheme, host, path]) =>
    scheme === 'urn' ? `urn:${host}:${path.join(':')}` : `${scheme}://${host.toLowerCase()}.example/${path.join('/')}`,
  );

/**
 * Text matching every XSD pattern (anchored), within the length facets; undefined when a pattern
 * is not a JavaScript regular expression (XSD's \i, \c, class subtraction): the caller falls back.
 */
export function patternText(patterns: readonly string[], facets: Facets | undefined): fc.Arbitrary<string> | undefined {
  const compiled: RegExp[] = [];
  for (const p of patterns) {
    try {
      compiled.push(new RegExp(`^(?:${p})$`, 'u'));
    } catch {
      return undefined;
    }
  }
  const { min, max } = lengthBounds({
    ...facets,
    ...(facets?.maxLength === undefined && facets?.length === undefined ? { maxLength: 10_000 } : {}),
  });
  const length = (t: string): number => [...t].length;
  return fc
    .stringMatching(compiled[0]!)
    .filter((t) => compiled.every((r) => r.test(t)) && length(t) >= min && length(t) <= max && isXmlText(t));
}

/** Whether XML 1.0 can carry the text: the runtime's own escaping decides (it refuses what XML cannot carry). */
export function isXmlText(text: string): boolean {
  try {
    escapeText(text, '');
    return true;
  } catch {
    return false;
  }
}
