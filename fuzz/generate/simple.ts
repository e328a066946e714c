/**
 * The arbitrary of one simple value, by the primitive table's family (runtime/primitives.ts) with
 * the facets laid over it: an enumeration's values, a pattern, lengths, ranges and digits. Every
 * value is one the runtime's codec takes (a value it would refuse to send says nothing about the
 * server), which the codec itself confirms for the text-shaped families.
 */
import fc from 'fast-check';
import type { Facets } from '../../conformance/catalogue/schema-facts.js';
import { primitiveCodec } from '../../runtime/codec/primitives.js';
import { type PrimitiveName, primitiveFacts } from '../../runtime/primitives.js';
import { decimalValue, floatValue, integerValue } from './numbers.js';
import { TEMPORAL } from './temporal.js';
import { absoluteUri, freeText, languageTag, lengthBounds, nameList, ncName, patternText } from './text.js';

/** Texts of the name-like built-ins: a valid one for every stack, whatever its checks. */
const NAMED_TEXT: Partial<Record<PrimitiveName, fc.Arbitrary<string>>> = {
  language: languageTag,
  Name: ncName,
  NCName: ncName,
  NMTOKEN: ncName,
  ID: ncName,
  IDREF: ncName,
  ENTITY: ncName,
  QName: ncName,
  NOTATION: ncName,
  NMTOKENS: nameList,
  IDREFS: nameList,
  ENTITIES: nameList,
  anyURI: absoluteUri,
};

/** ASMX's char travels as the character itself over HTTP: code units XML can carry, surrogates excluded. */
const charValue = fc.oneof(
  fc.constantFrom(0x20, 0x41, 0x7e, 0xa0, 0xd7ff, 0xe000, 0xfffd),
  fc.integer({ min: 0x20, max: 0xd7ff }),
  fc.integer({ min: 0xe000, max: 0xfffd }),
);

function bytesValue(facets: Facets | undefined): fc.Arbitrary<Uint8Array> {
  const { min, max } = lengthBounds(facets);
  return fc.oneof(
    fc.uint8Array({ minLength: min, maxLength: min }),
    fc.uint8Array({ minLength: min, maxLength: Math.min(max, 256) }),
  );
}

const guidValue = fc.oneof(
  fc.uuid(),
  fc.uuid().map((g) => g.toUpperCase()),
);

function textValue(xsd: PrimitiveName, facets: Facets | undefined): fc.Arbitrary<string> {
  if (facets?.pattern !== undefined && facets.pattern.length > 0) {
    const matching = patternText(facets.pattern, facets);
    if (matching !== undefined) return matching;
  }
  const named = NAMED_TEXT[xsd];
  if (named !== undefined) return named;
  return freeText(facets, xsd === 'normalizedString' ? 'normalized' : xsd === 'token' ? 'token' : 'string');
}

/** A value of the primitive (with its enumeration and facets) as the runtime holds it. */
export function simpleArbitrary(
  xsd: PrimitiveName,
  enumeration: readonly string[] | undefined,
  facets: Facets | undefined,
): fc.Arbitrary<unknown> {
  if (enumeration !== undefined && enumeration.length > 0) return enumerated(xsd, enumeration);
  if (xsd === 'char') return charValue;
  const facts = primitiveFacts(xsd);
  switch (facts.family) {
    case 'text':
      return textValue(xsd, facets);
    case 'temporal':
      return checked(xsd, TEMPORAL[xsd as keyof typeof TEMPORAL]);
    case 'guid':
      return guidValue;
    case 'integer':
      return integerValue(xsd, facets);
    case 'decimal':
      return decimalValue(facets);
    case 'float':
      return floatValue(xsd as 'float' | 'double', facets);
    case 'boolean':
      return fc.boolean();
    case 'base64':
    case 'hex':
      return bytesValue(facets);
  }
}

/** An enumeration's values, read by the primitive's codec (an enumerated int is a number). */
function enumerated(xsd: PrimitiveName, values: readonly string[]): fc.Arbitrary<unknown> {
  const codec = primitiveCodec(xsd, xsd);
  const decoded = values.flatMap((v) => {
    try {
      return [primitiveFacts(xsd).ts === 'string' ? v : codec.decode(v, xsd)];
    } catch {
      return [];
    }
  });
  return decoded.length === 0 ? fc.constantFrom(...values) : fc.constantFrom(...decoded);
}

/** Only the texts the runtime's codec takes (the generators aim for that; the codec decides). */
function checked(xsd: PrimitiveName, arbitrary: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const codec = primitiveCodec(xsd, xsd);
  return arbitrary.filter((text) => {
    try {
      codec.decode(text, xsd);
      return true;
    } catch {
      return false;
    }
  });
}
