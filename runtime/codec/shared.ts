/** What encode and decode share: resolving a value descriptor and checking enumerations. */
import type { ComplexTypeDescriptor, PrimitiveName, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { isStringLike, primitiveCodec, findPrimitiveCodec, type PrimitiveCodec } from './primitives.js';

/** A simple value: its XSD built-in, its enumeration facet, and what reading and writing it needs. */
export interface PrimitiveValue {
  readonly kind: 'primitive';
  readonly xsd: PrimitiveName;
  readonly enumeration: readonly string[] | undefined;
  /** Undefined when the runtime has no codec for `xsd`: an error where a value of it is met. */
  readonly codec: PrimitiveCodec | undefined;
  /** The text is trimmed before the enumeration check (a non-string type with an enumeration). */
  readonly trim: boolean;
}

/** A value descriptor with named simple types folded into primitives. */
export type ResolvedValue =
  | PrimitiveValue
  | { readonly kind: 'complex'; readonly type: ComplexTypeDescriptor }
  | { readonly kind: 'xml' };

const XML_VALUE: ResolvedValue = { kind: 'xml' };
const resolvedCache = new WeakMap<ValueDescriptor, ResolvedValue>();

export function resolveValue(d: ServiceDescriptor, vd: ValueDescriptor, path: string): ResolvedValue {
  const cached = resolvedCache.get(vd);
  if (cached !== undefined) return cached;
  let resolved: ResolvedValue;
  if (vd.kind === 'primitive') resolved = primitiveValue(vd.xsd, vd.enumeration);
  else if (vd.kind === 'xml') resolved = XML_VALUE;
  else {
    const type = d.types[vd.type];
    if (type === undefined)
      throw new CodecError('CODEC_DESCRIPTOR', path, `the type ${vd.type} is not in the descriptor`);
    // A list type is carried as its whole text (the emitter maps it to string).
    resolved =
      type.kind === 'complex'
        ? { kind: 'complex', type }
        : primitiveValue(type.list === true ? 'string' : type.xsd, type.enumeration);
  }
  resolvedCache.set(vd, resolved);
  return resolved;
}

function primitiveValue(xsd: PrimitiveName, enumeration: readonly string[] | undefined): PrimitiveValue {
  return {
    kind: 'primitive',
    xsd,
    enumeration,
    codec: findPrimitiveCodec(xsd),
    trim: enumeration !== undefined && !isStringLike(xsd),
  };
}

/** A simple value from its text (the element's or the attribute's, unescaped). */
export function decodeLexical(value: PrimitiveValue, text: string, path: string): unknown {
  const lexical = value.trim ? text.trim() : text;
  checkEnumeration(value.enumeration, lexical, path);
  return (value.codec ?? primitiveCodec(value.xsd, path)).decode(lexical, path);
}

/** The lexical form of a simple value (not yet escaped). */
export function encodeLexical(value: PrimitiveValue, given: unknown, path: string): string {
  const lexical = (value.codec ?? primitiveCodec(value.xsd, path)).encode(given, path);
  checkEnumeration(value.enumeration, lexical, path);
  return lexical;
}

/** Checks a lexical form (what goes on the wire) against the enumeration facet. */
export function checkEnumeration(enumeration: readonly string[] | undefined, lexical: string, path: string): void {
  if (enumeration === undefined || enumeration.length === 0) return;
  if (!enumeration.includes(lexical)) {
    const shown = enumeration.length > 8 ? `${enumeration.slice(0, 8).join(', ')}, ...` : enumeration.join(', ');
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      path,
      `"${lexical.length > 40 ? `${lexical.slice(0, 40)}...` : lexical}" is not one of the allowed values (${shown})`,
    );
  }
}
