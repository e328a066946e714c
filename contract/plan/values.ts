/**
 * Value resolution: what an element, attribute or part holds, as the descriptor and the type
 * emitter both see it. Named simple types collapse to their XSD primitive (plus enumeration);
 * complex types are referenced by key; arbitrary XML is `xml`.
 */
import { clark, type SimpleType, type SourceLocation, type TypeUse } from '../model/index.js';
import { SOAP_ENCODING_NS, XSD_NS } from '../../runtime/namespaces.js';
import { refuse } from '../errors.js';
import { tsTypeOfXsd, type TsPrimitive } from './type-map.js';
import type { PrimitiveName } from '../../runtime/primitives.js';
import type { TypedGroup } from './repeating-groups.js';

export interface PrimitiveValue {
  readonly kind: 'primitive';
  /** The primitive (runtime/primitives.ts) the runtime codes the text with. */
  readonly xsd: PrimitiveName;
  readonly ts: TsPrimitive;
  readonly enumeration?: readonly string[];
  /** list simple type: the text is a whitespace-separated list (kept as one string). */
  readonly list?: boolean;
  /** Key of the named simple type it came from (the type emitter uses its alias). */
  readonly simpleType?: string;
}

export type PlannedValue =
  | PrimitiveValue
  | { readonly kind: 'type'; readonly key: string }
  /** Arbitrary XML; `alias` is the key of a named type that is XML-valued (DataSet-like). */
  | { readonly kind: 'xml'; readonly alias?: string };

export const XML_VALUE: PlannedValue = { kind: 'xml' };

export { SOAP_ENCODING_NS };

/** What the resolver needs to know about the schema's named and anonymous complex types. */
export interface TypeLookup {
  simpleType(key: string): SimpleType | undefined;
  isComplex(key: string): boolean;
  /** Key of an anonymous complex type (by identity), or undefined. */
  anonymousKey(type: object): string | undefined;
  /** Keys whose content is only wildcards / DataSet schema: their value is XML. */
  isXmlValued(key: string): boolean;
  /** A repeating group carried typed (repeating-groups.ts): its occurrence type's key, by the group particle. */
  typedGroup?(particle: object): { readonly key: string; readonly group: TypedGroup } | undefined;
  /** Throws the refusal a named type the parser left out stands for (parse/broken.ts), when it was. */
  throwIfOmitted?(key: string): void;
}

function builtinValue(name: { ns: string; local: string }, at: SourceLocation): PlannedValue {
  if (name.ns === XSD_NS && name.local === 'anyType') return XML_VALUE;
  if (name.ns === SOAP_ENCODING_NS) {
    refuse('UNSUPPORTED_CONSTRUCT', `SOAP-encoding type soapenc:${name.local} (rpc/encoded is not supported)`, at);
  }
  // The boundary where a WSDL's type name becomes a PrimitiveName (or is refused).
  const builtin = name.ns === XSD_NS ? tsTypeOfXsd(name.local) : undefined;
  if (builtin === undefined) refuse('UNSUPPORTED_TYPE', `unsupported built-in type {${name.ns}}${name.local}`, at);
  return { kind: 'primitive', ...builtin };
}

export function resolveValue(use: TypeUse, lookup: TypeLookup, at: SourceLocation): PlannedValue {
  switch (use.kind) {
    case 'anyType':
      return XML_VALUE;
    case 'builtin':
      return builtinValue(use.name, at);
    case 'named':
      return namedValue(clark(use.name), use.name, lookup, at);
    case 'inline': {
      if (use.type.kind === 'simple') return simpleValue(use.type, lookup, at, 0);
      const key = lookup.anonymousKey(use.type);
      if (key === undefined) refuse('UNSUPPORTED_CONSTRUCT', 'anonymous complex type outside an element', at);
      return lookup.isXmlValued(key) ? XML_VALUE : { kind: 'type', key };
    }
  }
}

function namedValue(
  key: string,
  name: { ns: string; local: string },
  lookup: TypeLookup,
  at: SourceLocation,
): PlannedValue {
  const simple = lookup.simpleType(key);
  if (simple !== undefined) return { ...simpleValue(simple, lookup, at, 0), simpleType: key };
  if (lookup.isComplex(key)) return lookup.isXmlValued(key) ? { kind: 'xml', alias: key } : { kind: 'type', key };
  // Built-ins referenced as named types (a parser may not distinguish them).
  if (name.ns === XSD_NS || name.ns === SOAP_ENCODING_NS) return builtinValue(name, at);
  lookup.throwIfOmitted?.(key);
  return refuse('MISSING_REFERENCE', `type ${key} is not declared in any schema`, at);
}

/**
 * Microsoft's `char` (ASMX: `{http://microsoft.com/wsdl/types/}char`, a restriction of
 * unsignedShort; DataContract: a restriction of int) is a UTF-16 code unit: a number in XML, but
 * ASMX's HTTP GET/POST reader takes the character itself, so the runtime needs to know it.
 */
const CHAR_TYPES = new Set([
  '{http://microsoft.com/wsdl/types/}char',
  '{http://schemas.microsoft.com/2003/10/Serialization/}char',
]);

/**
 * Microsoft's `guid` is a string restricted by a pattern; the descriptor carries no pattern
 * facets, so it stays the runtime's `guid` primitive, which checks the form.
 */
const GUID_TYPES = new Set([
  '{http://microsoft.com/wsdl/types/}guid',
  '{http://schemas.microsoft.com/2003/10/Serialization/}guid',
]);

/** The primitive a simple type restricts, with its (own or inherited) enumeration. */
export function simpleValue(type: SimpleType, lookup: TypeLookup, at: SourceLocation, depth: number): PrimitiveValue {
  if (depth > 32) refuse('UNSUPPORTED_CONSTRUCT', 'simple type derivation is circular or too deep', at);
  if (type.name !== undefined && CHAR_TYPES.has(clark(type.name)))
    return { kind: 'primitive', xsd: 'char', ts: 'number' };
  if (type.name !== undefined && GUID_TYPES.has(clark(type.name)))
    return { kind: 'primitive', xsd: 'guid', ts: 'string' };
  if (type.variety === 'list') return { kind: 'primitive', xsd: 'string', ts: 'string', list: true };
  if (type.variety === 'union' || type.base === undefined) return { kind: 'primitive', xsd: 'string', ts: 'string' };
  const base = baseValue(type.base, lookup, type.source, depth);
  const enumeration = type.enumeration.length > 0 ? type.enumeration : base.enumeration;
  const { simpleType: _ignored, enumeration: _baseEnum, ...primitive } = base;
  return enumeration !== undefined && enumeration.length > 0 ? { ...primitive, enumeration } : primitive;
}

function baseValue(base: TypeUse, lookup: TypeLookup, at: SourceLocation, depth: number): PrimitiveValue {
  if (base.kind === 'inline' && base.type.kind === 'simple') return simpleValue(base.type, lookup, at, depth + 1);
  if (base.kind === 'named') {
    const simple = lookup.simpleType(clark(base.name));
    if (simple !== undefined) return simpleValue(simple, lookup, at, depth + 1);
  }
  if (base.kind === 'builtin' || base.kind === 'named') {
    const value = builtinValue(base.name, at);
    if (value.kind === 'primitive') return value;
  }
  return refuse('UNSUPPORTED_CONSTRUCT', 'simple type restricting a non-simple type', at);
}
