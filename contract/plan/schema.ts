/**
 * The schema plan: every schema type the generated code declares, with its TypeScript name,
 * its fields in wire order (extension flattened, base first) and their property names.
 * `toDescriptor` and the `types.ts` emitter both read it, so property names agree by
 * construction.
 *
 * Type keys: a named type is keyed by its Clark name (`{ns}local`); the anonymous complex type
 * of a global element by `element:{ns}local`; a nested anonymous complex type by
 * `<parent key>/<child local name>` (`[n]` appended when the parent has two such children of
 * the same name). None of these can collide: NCNames contain neither `/` nor `:` at the start.
 */
import {
  clark,
  type ComplexType,
  type ElementDecl,
  type ModelWarning,
  type QName,
  type SchemaType,
  type SimpleType,
  type WsdlModel,
} from '../model/index.js';
import { elementParticles } from '../model/particles.js';
import { NameScope, candidatesFor, toTypeIdentifier } from '../naming.js';
import { planComplexMembers, type PlannedMembers } from './members.js';
import { refuse } from '../errors.js';
import { isXmlContent, orderKeptAsXml } from './xml-content.js';
import { repeatingGroups, untypedGroupWarning, type TypedGroup, type UntypedGroup } from './repeating-groups.js';
import { throwIfOmitted } from './omitted.js';
import { resolveValue, simpleValue, type PlannedValue, type PrimitiveValue, type TypeLookup } from './values.js';

/** `group`: the object of one occurrence of a repeating group (repeating-groups.ts). */
export type TypeOrigin = 'type' | 'element' | 'nested' | 'group';

/** A complex type with its TS name; `fields` (wire order, inherited first) etc. from PlannedMembers. */
export interface PlannedComplex extends PlannedMembers {
  readonly kind: 'complex';
  readonly key: string;
  readonly tsName: string;
  readonly sourceName: string;
  readonly origin: TypeOrigin;
  /** Clark name of the named type or global element it comes from (nested: the child element). */
  readonly wireName: QName;
  readonly type: ComplexType;
  /**
   * Set when other types derive from this one: the name of the union of its concrete variants,
   * each tagged by `$type` (`AnyShape = ({ $type: 'Circle' } & Circle) | ...`). Every value
   * declared of this type is typed by the union, so the compiler tells which subtype arrived
   * and an abstract type cannot be sent.
   */
  readonly unionName?: string;
  /** origin `group`: the repeating group one object of this type is an occurrence of. */
  readonly group?: TypedGroup;
}

export interface PlannedSimple {
  readonly kind: 'simple';
  readonly key: string;
  readonly tsName: string;
  readonly sourceName: string;
  readonly wireName: QName;
  readonly type: SimpleType;
  readonly value: PrimitiveValue;
}

/**
 * A named complex type kept as XML, `type X = XmlElement`: its content is only wildcards / a
 * DataSet schema, mixed, or holds `orderedGroup`, a repeating group whose occurrences cannot be
 * found again in a document.
 */
export interface PlannedXmlAlias {
  readonly kind: 'xml';
  readonly key: string;
  readonly tsName: string;
  readonly sourceName: string;
  readonly wireName: QName;
  readonly type: ComplexType;
  readonly orderedGroup?: UntypedGroup;
}

export type PlannedType = PlannedComplex | PlannedSimple | PlannedXmlAlias;

export interface PlannedElement {
  readonly key: string;
  readonly decl: ElementDecl;
  readonly value: PlannedValue;
}

export interface SchemaPlan {
  /** Declarations in emit order: named types, element types, nested types (document order). */
  readonly types: readonly PlannedType[];
  readonly byKey: ReadonlyMap<string, PlannedType>;
  readonly elements: ReadonlyMap<string, PlannedElement>;
  readonly lookup: TypeLookup;
  /** Every type name taken, for the service-level names that must stay clear of them. */
  readonly scope: NameScope;
  /** Types kept as XML although they declare elements (repeating-groups.ts), one warning each. */
  readonly warnings: readonly ModelWarning[];
}

interface Candidate {
  readonly key: string;
  readonly origin: TypeOrigin;
  readonly sourceName: string;
  readonly wireName: QName;
  readonly type: SchemaType;
  readonly base?: string;
  readonly group?: TypedGroup;
}

/** Builds the plan; `reserved` are names the generated modules use for other things. */
export function planSchema(model: WsdlModel, reserved: Iterable<string>): SchemaPlan {
  const scope = new NameScope(reserved);
  const anonymous = new Map<object, string>();
  const xmlValued = new Set<string>();
  const candidates = collectCandidates(model, anonymous);
  for (const c of candidates) if (c.type.kind === 'complex' && isXmlContent(c.type)) xmlValued.add(c.key);
  const groups = new Map<object, { key: string; group: TypedGroup }>();
  candidates.push(...groupCandidates(candidates, xmlValued, groups));
  const lookup = makeLookup(model, anonymous, xmlValued, groups);
  const names = nameCandidates(candidates, xmlValued, scope);
  const types = nameUnions(buildTypes(candidates, names, lookup, xmlValued), scope);
  const byKey = new Map(types.map((t) => [t.key, t] as const));
  const elements = new Map<string, PlannedElement>();
  for (const [key, decl] of Object.entries(model.schema.elements)) {
    elements.set(key, { key, decl, value: resolveValue(decl.type, lookup, decl.source) });
  }
  return { types, byKey, elements, lookup, scope, warnings: interleavedWarnings(candidates) };
}

function interleavedWarnings(candidates: readonly Candidate[]): ModelWarning[] {
  return candidates.flatMap((c) => {
    const group = c.type.kind === 'complex' ? orderKeptAsXml(c.type) : undefined;
    if (group === undefined) return [];
    const what = c.origin === 'type' ? `type ${clark(c.wireName)}` : `the type of element ${clark(c.wireName)}`;
    return [untypedGroupWarning(what, group)];
  });
}

function collectCandidates(model: WsdlModel, anonymous: Map<object, string>): Candidate[] {
  const out: Candidate[] = [];
  for (const [key, type] of Object.entries(model.schema.types)) {
    const name = type.name ?? refuse('UNSUPPORTED_CONSTRUCT', `schema type ${key} has no name`, type.source);
    out.push({ key, origin: 'type', sourceName: name.local, wireName: name, type });
  }
  for (const [clarkName, decl] of Object.entries(model.schema.elements)) {
    if (decl.type.kind !== 'inline' || decl.type.type.kind !== 'complex') continue;
    const key = `element:${clarkName}`;
    anonymous.set(decl.type.type, key);
    out.push({ key, origin: 'element', sourceName: decl.name.local, wireName: decl.name, type: decl.type.type });
  }
  // Nested anonymous types, breadth-first so that a parent is always named before its children.
  for (let i = 0; i < out.length; i++) {
    const parent = out[i]!;
    if (parent.type.kind === 'complex') collectNested(parent, anonymous, out, model);
  }
  return out;
}

function collectNested(parent: Candidate, anonymous: Map<object, string>, out: Candidate[], model: WsdlModel): void {
  const seen = new Map<string, number>();
  const type = parent.type as ComplexType;
  for (const decl of elementParticles(type)) {
    if (decl.type.kind !== 'inline' || decl.type.type.kind !== 'complex') continue;
    if (anonymous.has(decl.type.type)) continue;
    const global = decl.ref !== undefined ? model.schema.elements[clark(decl.ref)] : undefined;
    if (global?.type.kind === 'inline' && anonymous.has(global.type.type)) {
      anonymous.set(decl.type.type, anonymous.get(global.type.type)!);
      continue;
    }
    const count = (seen.get(decl.name.local) ?? 0) + 1;
    seen.set(decl.name.local, count);
    const key = `${parent.key}/${decl.name.local}${count > 1 ? `[${count}]` : ''}`;
    anonymous.set(decl.type.type, key);
    out.push({
      key,
      origin: 'nested',
      sourceName: decl.name.local,
      wireName: decl.name,
      type: decl.type.type,
      base: parent.key,
    });
  }
}

/**
 * One candidate per repeating group carried typed: the type of one occurrence, keyed
 * `<parent key>#<name>` (`#` is in no NCName, so no other key has it) and registered by the
 * group particle, which is how the member plan finds it.
 */
function groupCandidates(
  candidates: readonly Candidate[],
  xmlValued: ReadonlySet<string>,
  groups: Map<object, { key: string; group: TypedGroup }>,
): Candidate[] {
  const out: Candidate[] = [];
  for (const parent of candidates) {
    if (parent.type.kind !== 'complex' || xmlValued.has(parent.key) || parent.type.arrayItem !== undefined) continue;
    const seen = new Map<string, number>();
    for (const found of repeatingGroups(parent.type)) {
      if (!('typed' in found)) continue;
      const group = found.typed;
      const count = (seen.get(group.name) ?? 0) + 1;
      seen.set(group.name, count);
      const key = `${parent.key}#${group.name}${count > 1 ? `[${count}]` : ''}`;
      groups.set(group.particle, { key, group });
      const content = {
        kind: group.kind,
        minOccurs: 1,
        maxOccurs: 1,
        particles: group.members,
        source: group.particle.source,
      };
      const type: ComplexType = {
        kind: 'complex',
        content,
        attributes: [],
        anyAttribute: false,
        mixed: false,
        abstract: false,
        source: group.particle.source,
      };
      out.push({
        key,
        origin: 'group',
        sourceName: group.name,
        wireName: parent.wireName,
        type,
        base: parent.key,
        group,
      });
    }
  }
  return out;
}

function nameCandidates(
  candidates: readonly Candidate[],
  xmlValued: ReadonlySet<string>,
  scope: NameScope,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const c of candidates) {
    // Anonymous XML-valued types are plain XmlElement values: nothing to declare or name.
    if (c.origin !== 'type' && xmlValued.has(c.key)) continue;
    const parentName = c.base !== undefined ? names.get(c.base) : undefined;
    const base =
      parentName !== undefined ? `${parentName}_${toTypeIdentifier(c.sourceName)}` : toTypeIdentifier(c.sourceName);
    const kind = c.origin === 'type' ? 'type' : c.origin === 'element' ? 'element' : 'nested';
    names.set(c.key, scope.claim(candidatesFor(base, kind, c.wireName.ns)));
  }
  return names;
}

function makeLookup(
  model: WsdlModel,
  anonymous: Map<object, string>,
  xmlValued: ReadonlySet<string>,
  groups: ReadonlyMap<object, { key: string; group: TypedGroup }>,
): TypeLookup {
  return {
    typedGroup: (particle) => groups.get(particle),
    simpleType: (key) => {
      const t = model.schema.types[key];
      return t?.kind === 'simple' ? t : undefined;
    },
    isComplex: (key) => model.schema.types[key]?.kind === 'complex',
    anonymousKey: (type) => anonymous.get(type),
    isXmlValued: (key) => xmlValued.has(key),
    throwIfOmitted: (key) => throwIfOmitted(model, `type:${key}`),
  };
}

/** Claims the union names of polymorphic types, after every schema type has its name. */
function nameUnions(types: readonly PlannedType[], scope: NameScope): PlannedType[] {
  return types.map((t) =>
    t.kind === 'complex' && t.derived.length > 0
      ? { ...t, unionName: scope.claim(candidatesFor(`Any${t.tsName}`, 'type', t.wireName.ns)) }
      : t,
  );
}

function buildTypes(
  candidates: readonly Candidate[],
  names: ReadonlyMap<string, string>,
  lookup: TypeLookup,
  xmlValued: ReadonlySet<string>,
): PlannedType[] {
  const complexByKey = new Map<string, ComplexType>();
  for (const c of candidates) if (c.type.kind === 'complex') complexByKey.set(c.key, c.type);
  const members = planComplexMembers(complexByKey, lookup);
  const out: PlannedType[] = [];
  for (const c of candidates) {
    const tsName = names.get(c.key);
    if (tsName === undefined) continue;
    const common = { key: c.key, tsName, sourceName: c.sourceName, wireName: c.wireName };
    if (c.type.kind === 'simple') {
      out.push({ kind: 'simple', ...common, type: c.type, value: simpleValue(c.type, lookup, c.type.source, 0) });
    } else if (xmlValued.has(c.key)) {
      const orderedGroup = orderKeptAsXml(c.type);
      out.push({ kind: 'xml', ...common, type: c.type, ...(orderedGroup === undefined ? {} : { orderedGroup }) });
    } else {
      const group = c.group === undefined ? {} : { group: c.group };
      out.push({ kind: 'complex', ...common, origin: c.origin, type: c.type, ...members.get(c.key)!, ...group });
    }
  }
  return out;
}
