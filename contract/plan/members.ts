/**
 * Fields and attributes of complex types, in wire order, with their property names.
 *
 * Model groups are flattened: an element inside an optional group or a choice of several
 * members becomes optional (choice members are marked `inChoice`), an element inside a
 * repeating group becomes an array. Extension is flattened base-first and inherited members
 * keep the base's property names, so `interface D extends B` stays consistent.
 */
import {
  clark,
  XSD_NS,
  type AnyParticle,
  type AttributeDecl,
  type ComplexType,
  type ElementDecl,
  type GroupParticle,
  type MaxOccurs,
  type QName,
} from '../model/index.js';
import { type NameScope, candidatesFor, propertyNameScope } from '../naming.js';
import { refuse } from '../errors.js';
import type { TypedGroup } from './repeating-groups.js';
import { resolveValue, SOAP_ENCODING_NS, XML_VALUE, type PlannedValue, type TypeLookup } from './values.js';

export interface PlannedField {
  readonly prop: string;
  readonly name: QName;
  readonly value: PlannedValue;
  readonly minOccurs: number;
  readonly maxOccurs: MaxOccurs;
  readonly nillable: boolean;
  readonly inChoice: boolean;
  readonly wildcard: boolean;
  /**
   * A repeating group of several members (repeating-groups.ts): the property holds one object
   * per occurrence, of the occurrence type `value` names; `name.local` is the group's name.
   */
  readonly group?: 'sequence' | 'choice';
  readonly decl: ElementDecl | AnyParticle | GroupParticle;
}

export interface PlannedAttribute {
  readonly prop: string;
  readonly name: QName;
  readonly value: PlannedValue;
  readonly required: boolean;
  readonly decl: AttributeDecl;
}

export interface PlannedMembers {
  readonly fields: readonly PlannedField[];
  readonly attributes: readonly PlannedAttribute[];
  readonly inheritedFields: number;
  readonly inheritedAttributes: number;
  readonly baseKey?: string;
  readonly arrayItem?: PlannedField;
  readonly text?: PlannedValue;
  readonly derived: readonly string[];
}

type RawField = Omit<PlannedField, 'prop'>;

interface GroupContext {
  readonly optional: boolean;
  readonly repeated: boolean;
  readonly inChoice: boolean;
}

export function planComplexMembers(
  types: ReadonlyMap<string, ComplexType>,
  lookup: TypeLookup,
): Map<string, PlannedMembers> {
  const done = new Map<string, PlannedMembers>();
  const inProgress = new Set<string>();
  const plan = (key: string): PlannedMembers => {
    const cached = done.get(key);
    if (cached !== undefined) return cached;
    const type = types.get(key)!;
    if (inProgress.has(key)) refuse('UNSUPPORTED_CONSTRUCT', `type ${key} derives from itself`, type.source);
    inProgress.add(key);
    const members = planOne(type, types, lookup, plan);
    inProgress.delete(key);
    done.set(key, members);
    return members;
  };
  for (const key of types.keys()) plan(key);
  return addDerived(done, [...types.keys()]);
}

function planOne(
  type: ComplexType,
  types: ReadonlyMap<string, ComplexType>,
  lookup: TypeLookup,
  plan: (key: string) => PlannedMembers,
): PlannedMembers {
  if (type.arrayItem !== undefined) {
    const [item] = nameFields(
      [rawElement(type.arrayItem, lookup, { optional: false, repeated: false, inChoice: false })],
      propertyNameScope(),
    );
    return { fields: [], attributes: [], inheritedFields: 0, inheritedAttributes: 0, arrayItem: item!, derived: [] };
  }
  const baseKey = extensionBase(type, types);
  const base = baseKey !== undefined ? plan(baseKey) : undefined;
  let text = base?.text;
  if (type.simpleContent !== undefined) {
    const value = resolveValue(type.simpleContent, lookup, type.source);
    text = value.kind === 'type' ? plan(value.key).text : value;
  }
  const inherited = [...(base?.fields ?? []).map((f) => f.prop), ...(base?.attributes ?? []).map((a) => a.prop)];
  const scope = propertyNameScope([...inherited, ...(text !== undefined ? ['value'] : [])]);
  const raw: RawField[] = [];
  if (type.content !== undefined)
    flattenGroup(type.content, { optional: false, repeated: false, inChoice: false }, lookup, raw);
  const fields = [...(base?.fields ?? []), ...nameFields(raw, scope)];
  const attributes = [...(base?.attributes ?? []), ...nameAttributes(type.attributes, scope, lookup)];
  return {
    fields,
    attributes,
    inheritedFields: base?.fields.length ?? 0,
    inheritedAttributes: base?.attributes.length ?? 0,
    ...(baseKey !== undefined ? { baseKey } : {}),
    ...(text !== undefined ? { text } : {}),
    derived: [],
  };
}

/** The complex base whose members this type inherits (extension only), if any. */
function extensionBase(type: ComplexType, types: ReadonlyMap<string, ComplexType>): string | undefined {
  if (type.base === undefined) return undefined;
  const { name, derivation } = type.base;
  if (name.ns === SOAP_ENCODING_NS) {
    refuse(
      'UNSUPPORTED_CONSTRUCT',
      `SOAP-encoded array (restriction of soapenc:${name.local}) is not supported`,
      type.source,
    );
  }
  if (name.ns === XSD_NS && name.local === 'anyType') return undefined;
  const key = clark(name);
  if (!types.has(key)) return undefined; // simpleContent over a simple type: handled as text
  return derivation === 'extension' ? key : undefined;
}

function flattenGroup(group: GroupParticle, outer: GroupContext, lookup: TypeLookup, out: RawField[]): void {
  const typed = lookup.typedGroup?.(group);
  if (typed !== undefined) {
    out.push(rawGroup(group, typed.key, typed.group, outer));
    return;
  }
  const choice = group.kind === 'choice' && group.particles.length > 1;
  const context: GroupContext = {
    optional: outer.optional || group.minOccurs === 0 || choice,
    repeated: outer.repeated || group.maxOccurs === 'unbounded' || group.maxOccurs > 1,
    inChoice: outer.inChoice || choice,
  };
  for (const particle of group.particles) {
    if (particle.kind === 'element') out.push(rawElement(particle, lookup, context));
    else if (particle.kind === 'any') out.push(rawAny(particle, context));
    else flattenGroup(particle, context, lookup, out);
  }
}

function occurs(
  decl: { minOccurs: number; maxOccurs: MaxOccurs },
  context: GroupContext,
): { minOccurs: number; maxOccurs: MaxOccurs } {
  return {
    minOccurs: context.optional ? 0 : decl.minOccurs,
    maxOccurs: context.repeated ? 'unbounded' : decl.maxOccurs,
  };
}

function rawElement(decl: ElementDecl, lookup: TypeLookup, context: GroupContext): RawField {
  const value = decl.isSchemaRef === true ? XML_VALUE : resolveValue(decl.type, lookup, decl.source);
  return {
    name: decl.name,
    value,
    ...occurs(decl, context),
    nillable: decl.nillable,
    inChoice: context.inChoice,
    wildcard: false,
    decl,
  };
}

/** The property of a repeating group carried typed: an array of occurrence objects. */
function rawGroup(particle: GroupParticle, key: string, group: TypedGroup, context: GroupContext): RawField {
  return {
    name: { ns: group.members[0]!.name.ns, local: group.name },
    value: { kind: 'type', key },
    minOccurs: context.optional ? 0 : group.minOccurs,
    maxOccurs: group.maxOccurs,
    nillable: false,
    inChoice: context.inChoice,
    wildcard: false,
    group: group.kind,
    decl: particle,
  };
}

function rawAny(decl: AnyParticle, context: GroupContext): RawField {
  // The wildcard's "name" is its namespace constraint; the runtime matches unclaimed children.
  return {
    name: { ns: decl.namespace, local: '*' },
    value: XML_VALUE,
    ...occurs(decl, context),
    nillable: false,
    inChoice: context.inChoice,
    wildcard: true,
    decl,
  };
}

/**
 * Element and wildcard properties claim their names first, groups after: a group's name is
 * made up (repeating-groups.ts), so it is the one to give way to an element of the same name.
 */
function nameFields(raw: readonly RawField[], scope: NameScope): PlannedField[] {
  const props = new Map<RawField, string>();
  for (const f of raw) {
    if (f.group !== undefined) continue;
    const base = f.wildcard ? 'any' : f.name.local;
    props.set(f, scope.claim(candidatesFor(base, 'property', f.wildcard ? '' : f.name.ns)));
  }
  for (const f of raw) if (f.group !== undefined) props.set(f, scope.claim(candidatesFor(f.name.local, 'group', '')));
  return raw.map((f) => ({ ...f, prop: props.get(f)! }));
}

function nameAttributes(
  attributes: readonly AttributeDecl[],
  scope: NameScope,
  lookup: TypeLookup,
): PlannedAttribute[] {
  return attributes
    .filter((a) => a.use !== 'prohibited')
    .map((decl) => ({
      prop: scope.claim(candidatesFor(decl.name.local, 'attribute', decl.name.ns)),
      name: decl.name,
      value: resolveValue(decl.type, lookup, decl.source),
      required: decl.use === 'required',
      decl,
    }));
}

/** Fills `derived` (transitively, in document order) from the extension links. */
function addDerived(plans: Map<string, PlannedMembers>, documentOrder: readonly string[]): Map<string, PlannedMembers> {
  const derived = new Map<string, string[]>();
  for (const key of documentOrder) {
    const members = plans.get(key)!;
    for (let base = members.baseKey; base !== undefined; base = plans.get(base)?.baseKey) {
      const list = derived.get(base) ?? [];
      list.push(key);
      derived.set(base, list);
    }
  }
  const out = new Map<string, PlannedMembers>();
  for (const key of documentOrder) out.set(key, { ...plans.get(key)!, derived: derived.get(key) ?? [] });
  return out;
}
