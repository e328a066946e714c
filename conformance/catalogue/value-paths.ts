/**
 * Where in an input a negative case puts its one wrong value: the first number, the first
 * enumerated value, the first required element, found by walking a sample (JSON) along the
 * descriptor in wire order. The result is the element path the request alteration follows.
 */
import type { ComplexTypeDescriptor, ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import { resolveValue } from '../../runtime/codec/index.js';
import type { WirePath } from './requests.js';

export interface ValueLeaf {
  readonly path: WirePath;
  readonly xsd: string;
  readonly enumeration?: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function concrete(
  d: ServiceDescriptor,
  declared: ComplexTypeDescriptor,
  json: Record<string, unknown>,
): ComplexTypeDescriptor {
  const tag = json.$type;
  if (typeof tag !== 'string') return declared;
  const found = (declared.derived ?? []).map((k) => d.types[k]).find((t) => t?.kind === 'complex' && t.tag === tag);
  return found?.kind === 'complex' ? found : declared;
}

/** The first simple value (depth first, wire order) that `accept` takes. */
export function findLeaf(
  d: ServiceDescriptor,
  vd: ValueDescriptor,
  json: unknown,
  accept: (xsd: string, enumeration: readonly string[] | undefined) => boolean,
  path: WirePath = [],
): ValueLeaf | undefined {
  if (json === null || json === undefined || vd.kind === 'xml') return undefined;
  const resolved = resolveValue(d, vd, path.join('/'));
  if (resolved.kind === 'primitive') {
    return vd.kind === 'primitive' && accept(resolved.xsd, resolved.enumeration)
      ? {
          path,
          xsd: resolved.xsd,
          ...(resolved.enumeration === undefined ? {} : { enumeration: resolved.enumeration }),
        }
      : undefined;
  }
  if (resolved.kind !== 'complex') return undefined;
  const declared = resolved.type;
  if (declared.arrayItem !== undefined) {
    const first = Array.isArray(json) ? json[0] : undefined;
    return findLeaf(d, declared.arrayItem.value, first, accept, [...path, declared.arrayItem.name.local]);
  }
  if (!isRecord(json)) return undefined;
  const type = concrete(d, declared, json);
  for (const field of type.fields) {
    const value = json[field.prop];
    const item = field.maxOccurs !== 1 && Array.isArray(value) ? value[0] : value;
    // A repeating group has no element of its own: its members are children of this one.
    const at = field.group === undefined ? [...path, field.name.local] : path;
    const found = findLeaf(d, field.value, item, accept, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first element the schema requires (minOccurs >= 1, not in a choice) that the sample holds: outer ones first. */
export function findRequired(
  d: ServiceDescriptor,
  vd: ValueDescriptor,
  json: unknown,
  path: WirePath = [],
  depth = 0,
): WirePath | undefined {
  if (!isRecord(json) || vd.kind !== 'type' || depth > 8) return undefined;
  const declared = d.types[vd.type];
  if (declared?.kind !== 'complex' || declared.arrayItem !== undefined) return undefined;
  const type = concrete(d, declared, json);
  const own = type.fields.find(
    (f) =>
      f.minOccurs >= 1 &&
      f.inChoice !== true &&
      f.wildcard !== true &&
      f.group === undefined &&
      json[f.prop] !== undefined,
  );
  if (own !== undefined) return [...path, own.name.local];
  for (const field of type.fields) {
    // A repeating group's members are children of this element: its first occurrence is looked into here.
    const value = json[field.prop];
    const found =
      field.group !== undefined
        ? findRequired(d, field.value, Array.isArray(value) ? value[0] : undefined, path, depth + 1)
        : field.maxOccurs === 1
          ? findRequired(d, field.value, value, [...path, field.name.local], depth + 1)
          : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}
