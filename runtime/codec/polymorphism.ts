/**
 * Derived types (xsi:type) and the members of an object value, shared by encode and decode.
 *
 * A value whose declared complex type has derived types is polymorphic: in TypeScript it names
 * its concrete type in `$type` (the type's `tag`), on the wire in xsi:type (the type's QName).
 * Both lookups are built once per declared type and kept in a WeakMap, as encoding and decoding
 * are on the hot path.
 */
import type { ComplexTypeDescriptor, ServiceDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import type { XmlElement } from '../xml/types.js';
import { escapeAttr } from '../escape/xml.js';
import { atPath, type Path } from './path.js';
import { layoutOf } from './field-layout.js';
import { XSI_NS } from '../namespaces.js';

/** The declared type and every type derived from it, by `$type` tag and by wire name. */
export interface Hierarchy {
  readonly declared: ComplexTypeDescriptor;
  readonly byTag: ReadonlyMap<string, ComplexTypeDescriptor>;
  /** By namespace URI, then local name (ComplexTypeDescriptor.name): no key to build per lookup. */
  readonly byName: ReadonlyMap<string, ReadonlyMap<string, ComplexTypeDescriptor>>;
  /** The tags a value may carry (abstract types left out), for error messages. */
  readonly allowed: string;
}

const hierarchies = new WeakMap<ComplexTypeDescriptor, Hierarchy>();

/** Whether values of `type` carry `$type` (it has derived types). */
export function isPolymorphic(type: ComplexTypeDescriptor): boolean {
  return type.derived !== undefined && type.derived.length !== 0;
}

export function hierarchyOf(d: ServiceDescriptor, declared: ComplexTypeDescriptor, path: Path): Hierarchy {
  let hierarchy = hierarchies.get(declared);
  if (hierarchy === undefined) {
    const byTag = new Map<string, ComplexTypeDescriptor>();
    const byName = new Map<string, Map<string, ComplexTypeDescriptor>>();
    const add = (type: ComplexTypeDescriptor, key: string): void => {
      if (type.tag === undefined || type.name === undefined)
        throw new CodecError(
          'CODEC_DESCRIPTOR',
          String(path),
          `the type ${key} of a derivation hierarchy has no tag or no name`,
        );
      byTag.set(type.tag, type);
      const inNs = byName.get(type.name.ns) ?? byName.set(type.name.ns, new Map()).get(type.name.ns)!;
      inNs.set(type.name.local, type);
    };
    add(declared, declared.name === undefined ? '(anonymous)' : `{${declared.name.ns}}${declared.name.local}`);
    for (const key of declared.derived ?? []) {
      const type = d.types[key];
      if (type === undefined || type.kind !== 'complex')
        throw new CodecError(
          'CODEC_DESCRIPTOR',
          String(path),
          `the derived type ${key} is not a complex type of the descriptor`,
        );
      add(type, key);
    }
    const allowed = [...byTag]
      .filter(([, t]) => t.abstract !== true)
      .map(([tag]) => tag)
      .join(', ');
    hierarchy = { declared, byTag, byName, allowed: allowed === '' ? 'none: every type is abstract' : allowed };
    hierarchies.set(declared, hierarchy);
  }
  return hierarchy;
}

/** Encode: the concrete type a polymorphic value names in `$type`. */
export function concreteType(
  d: ServiceDescriptor,
  declared: ComplexTypeDescriptor,
  value: unknown,
  path: Path,
): ComplexTypeDescriptor {
  const hierarchy = hierarchyOf(d, declared, path);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CodecError('CODEC_INVALID_VALUE', String(path), 'expected an object');
  const tag = (value as { $type?: unknown }).$type;
  if (tag === undefined)
    throw new CodecError(
      'CODEC_MISSING',
      String(path),
      `$type is required (the declared type has derived types): one of ${hierarchy.allowed}`,
    );
  const type = typeof tag === 'string' ? hierarchy.byTag.get(tag) : undefined;
  if (type === undefined)
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      String(path),
      `$type ${shownTag(tag)} is not one of ${hierarchy.allowed}`,
    );
  if (type.abstract === true)
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      String(path),
      `$type "${String(tag)}" is abstract: use one of ${hierarchy.allowed}`,
    );
  return type;
}

/** A `$type` that is not a known tag, for the message (JSON.stringify throws on a bigint). */
function shownTag(tag: unknown): string {
  return typeof tag === 'bigint' ? `${tag}n` : (JSON.stringify(tag) ?? String(tag));
}

/**
 * Encode: ` xsi:type="..."` for a derived type written as an element of namespace `elementNs`.
 * The element's namespace is the default namespace there, so a type in it is written unprefixed,
 * as ASMX writes it (`<Shape xsi:type="Circle">`); another namespace gets a prefix, q1 as
 * XmlSerializer names them. The caller declares xsi.
 */
export function xsiTypeAttribute(type: ComplexTypeDescriptor, elementNs: string, path: Path): string {
  const name = type.name!; // checked by hierarchyOf
  if (name.ns === elementNs) return ` xsi:type="${name.local}"`;
  // A prefix cannot name "no namespace": an element in a namespace cannot carry such a type.
  if (name.ns === '')
    throw new CodecError(
      'CODEC_DESCRIPTOR',
      String(path),
      `the type ${name.local} has no namespace and cannot be named by xsi:type on an element in ${elementNs}`,
    );
  let ns: string;
  try {
    ns = escapeAttr(name.ns, '');
  } catch (err) {
    throw atPath(err, path);
  }
  return ` xmlns:q1="${ns}" xsi:type="q1:${name.local}"`;
}

/** Decode: the xsi:type QName of an element, resolved against its namespaces (undefined: none). */
export function xsiTypeOf(
  el: XmlElement,
  path: Path,
): { readonly ns: string; readonly local: string; readonly text: string } | undefined {
  if (el.attributes.length === 0) return undefined;
  for (const a of el.attributes) {
    if (a.local !== 'type' || a.ns !== XSI_NS) continue;
    const text = a.value.trim();
    const colon = text.indexOf(':');
    const prefix = colon < 0 ? '' : text.slice(0, colon);
    const local = colon < 0 ? text : text.slice(colon + 1);
    // An unprefixed QName value takes the default namespace, as XSD (and XmlSerializer) read it.
    const ns = el.namespaces[prefix] ?? (prefix === '' ? '' : undefined);
    if (ns === undefined || local === '' || local.includes(':'))
      throw new CodecError(
        'CODEC_INVALID_VALUE',
        `${path}/@xsi:type`,
        `"${text}" is not a QName in scope (undeclared prefix?)`,
      );
    return { ns, local, text };
  }
  return undefined;
}

/** Decode: the type an element of polymorphic declared type carries. */
export function receivedType(
  d: ServiceDescriptor,
  declared: ComplexTypeDescriptor,
  el: XmlElement,
  path: Path,
): ComplexTypeDescriptor {
  const hierarchy = hierarchyOf(d, declared, path);
  const xsiType = xsiTypeOf(el, path);
  const type = xsiType === undefined ? declared : hierarchy.byName.get(xsiType.ns)?.get(xsiType.local);
  if (type === undefined)
    throw new CodecError(
      'CODEC_UNEXPECTED',
      String(path),
      `xsi:type {${xsiType!.ns}}${xsiType!.local} is not the declared type or one derived from it (${hierarchy.allowed})`,
    );
  if (type.abstract === true)
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      String(path),
      `the specified type is abstract: {${type.name!.ns}}${type.name!.local}${xsiType === undefined ? ' (no xsi:type given)' : ''}`,
    );
  return type;
}

/**
 * Decode: a monomorphic named type accepts an xsi:type only when it names the type itself
 * (ASMX answers "The specified type was not recognized" otherwise); anonymous types ignore it.
 */
export function checkOwnXsiType(type: ComplexTypeDescriptor, el: XmlElement, path: Path): void {
  const name = type.name;
  if (name === undefined) return;
  const xsiType = xsiTypeOf(el, path);
  if (xsiType !== undefined && (xsiType.ns !== name.ns || xsiType.local !== name.local)) {
    throw new CodecError(
      'CODEC_UNEXPECTED',
      String(path),
      `xsi:type {${xsiType.ns}}${xsiType.local} is not the declared type {${name.ns}}${name.local}, which has no derived types`,
    );
  }
}

/**
 * Encode: refuses a property that is not a member of `type` — the encoder would otherwise drop
 * it without a word (a misspelt optional field, a subtype's field on a base-typed value).
 */
export function checkMembers(
  type: ComplexTypeDescriptor,
  record: Record<string, unknown>,
  polymorphic: boolean,
  path: Path,
): void {
  const members = layoutOf(type).members;
  for (const key in record) {
    if (members.has(key) || (polymorphic && key === '$type')) continue;
    const name = type.name === undefined ? 'this type' : `{${type.name.ns}}${type.name.local}`;
    const why =
      key === '$type'
        ? `${name} has no derived types, so its values carry no $type`
        : `"${key}" is not a member of ${name}`;
    throw new CodecError('CODEC_UNEXPECTED', String(path), `unexpected property: ${why}`);
  }
}
