/** What encode and decode share: resolving a value descriptor and checking enumerations. */
import type { ComplexTypeDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** A value descriptor with named simple types folded into primitives. */
export type ResolvedValue =
  | { readonly kind: 'primitive'; readonly xsd: string; readonly enumeration: readonly string[] | undefined }
  | { readonly kind: 'complex'; readonly type: ComplexTypeDescriptor }
  | { readonly kind: 'xml' };

const XML_VALUE: ResolvedValue = { kind: 'xml' };
const resolvedCache = new WeakMap<ValueDescriptor, ResolvedValue>();

export function resolveValue(d: ServiceDescriptor, vd: ValueDescriptor, path: string): ResolvedValue {
  const cached = resolvedCache.get(vd);
  if (cached !== undefined) return cached;
  let resolved: ResolvedValue;
  if (vd.kind === 'primitive') resolved = { kind: 'primitive', xsd: vd.xsd, enumeration: vd.enumeration };
  else if (vd.kind === 'xml') resolved = XML_VALUE;
  else {
    const type = d.types[vd.type];
    if (type === undefined) throw new CodecError('CODEC_DESCRIPTOR', path, `the type ${vd.type} is not in the descriptor`);
    // A list type is carried as its whole text (the emitter maps it to string).
    resolved = type.kind === 'complex' ? { kind: 'complex', type } : { kind: 'primitive', xsd: type.list === true ? 'string' : type.xsd, enumeration: type.enumeration };
  }
  resolvedCache.set(vd, resolved);
  return resolved;
}

/** Checks a lexical form (what goes on the wire) against the enumeration facet. */
export function checkEnumeration(enumeration: readonly string[] | undefined, lexical: string, path: string): void {
  if (enumeration === undefined || enumeration.length === 0) return;
  if (!enumeration.includes(lexical)) {
    const shown = enumeration.length > 8 ? `${enumeration.slice(0, 8).join(', ')}, ...` : enumeration.join(', ');
    throw new CodecError('CODEC_INVALID_VALUE', path, `"${lexical.length > 40 ? `${lexical.slice(0, 40)}...` : lexical}" is not one of the allowed values (${shown})`);
  }
}
