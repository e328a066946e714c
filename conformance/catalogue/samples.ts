/**
 * Sample values built from the schema, for any document/literal operation: a valid value of
 * every type, as JSON in the form `valueFromJson` reads (runtime/codec/json.ts), so that user
 * values and generated ones go through the same conversion and the same checks.
 *
 * - simple values (sample-primitives.ts): a typical value of the primitive inside its facets (42 clamped into a range,
 *   a text cut to maxLength, an enumeration's first value, a list type's first item); strings
 *   the run may vary (free text: xs:string and its kin, no enumeration, no pattern) carry the
 *   variant's text;
 * - complex values: every member, optional ones too (so the answer shows them all), the first
 *   alternative of a choice; a derivation hierarchy's first concrete type, or the one a variant
 *   asks for; arrays of two items (one of each concrete type for polymorphic items);
 * - `override` is what the user gave at that place (JSON): it wins, and the sample fills in only
 *   what it leaves out, so a user gives just the values their service checks.
 *
 * Problems (a type that contains itself through required members, a pattern no candidate
 * matches, an abstract type with no concrete subtype) are collected with their path, not
 * thrown: the operation is then reported as not exercisable, unless the user's values cover it.
 */
import type {
  ComplexTypeDescriptor,
  FieldDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { resolveValue } from '../../runtime/codec/index.js';
import type { SchemaFacts } from './schema-facts.js';
import { simpleSample } from './sample-primitives.js';
import { PLAIN_TEXT, type SampleFeatures, type SampleProblem, type SampleVariant } from './sample-types.js';

export { isNumeric } from './sample-primitives.js';
export { PLAIN_TEXT, type SampleFeatures, type SampleProblem, type SampleVariant } from './sample-types.js';

interface Walk {
  readonly d: ServiceDescriptor;
  readonly facts: SchemaFacts;
  readonly variant: SampleVariant;
  readonly features: SampleFeatures;
  readonly problems: SampleProblem[];
  /** Complex type keys on the way down (a type met again is recursion). */
  readonly stack: string[];
}

/** The simple value's owner, for facet lookup. */
interface Owner {
  readonly typeKey: string;
  readonly prop: string;
}

export interface SampleResult {
  readonly json: unknown;
  readonly features: SampleFeatures;
  readonly problems: readonly SampleProblem[];
}

export function newFeatures(): SampleFeatures {
  return { freeText: false, arrays: false, nillable: false, derived: new Set() };
}

/** A sample of a value (an element's content) with the user's `override` laid over it. */
export function sampleValue(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  variant: SampleVariant,
  vd: ValueDescriptor,
  override: unknown,
  path: string,
  typeKey?: string,
): SampleResult {
  const walk: Walk = {
    d,
    facts,
    variant,
    features: newFeatures(),
    problems: [],
    stack: typeKey === undefined ? [] : [typeKey],
  };
  const json = valueSample(walk, vd, false, override, path, undefined);
  return { json, features: walk.features, problems: walk.problems };
}

function valueSample(
  walk: Walk,
  vd: ValueDescriptor,
  nillable: boolean,
  override: unknown,
  path: string,
  owner: Owner | undefined,
): unknown {
  if (override === null) return null;
  if (nillable && override === undefined) {
    walk.features.nillable = true;
    if (walk.variant.kind === 'nil') return null;
  }
  if (vd.kind === 'xml') return override ?? `<sample xmlns="urn:smskit:conformance">${PLAIN_TEXT}</sample>`;
  const resolved = resolveValue(walk.d, vd, path);
  if (resolved.kind === 'complex')
    return complexSample(walk, vd.kind === 'type' ? vd.type : path, resolved.type, override, path);
  if (override !== undefined) return override;
  if (resolved.kind === 'xml') return `<sample xmlns="urn:smskit:conformance">${PLAIN_TEXT}</sample>`;
  if (vd.kind === 'type') {
    // A list type (the descriptor keeps only those as simple types): one item.
    const items = walk.facts.listItems(vd.type);
    return items?.find((item) => item !== 'None') ?? items?.[0] ?? '';
  }
  const facets = owner === undefined ? undefined : walk.facts.memberFacets(owner.typeKey, owner.prop);
  return simpleSample(walk, resolved.xsd, resolved.enumeration, facets, path);
}

// -- complex values --------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The concrete (non-abstract) types a value declared of `key` may be: itself first, then derived ones. */
function concreteTypes(d: ServiceDescriptor, key: string, type: ComplexTypeDescriptor): string[] {
  const all = [key, ...(type.derived ?? [])];
  return all.filter((k) => {
    const t = d.types[k];
    return t?.kind === 'complex' && t.abstract !== true;
  });
}

function byTag(d: ServiceDescriptor, keys: readonly string[], tag: unknown): string | undefined {
  return typeof tag === 'string'
    ? keys.find((k) => (d.types[k] as ComplexTypeDescriptor | undefined)?.tag === tag)
    : undefined;
}

/** Which concrete type a polymorphic value takes: the user's `$type`, the variant's, or the first (or the `index`-th). */
function chooseType(
  walk: Walk,
  key: string,
  type: ComplexTypeDescriptor,
  override: unknown,
  path: string,
  index: number | undefined,
): string | undefined {
  const concrete = concreteTypes(walk.d, key, type);
  if (concrete.length === 0) {
    walk.problems.push({ path, reason: `the type ${key} is abstract and has no concrete subtype` });
    return undefined;
  }
  const given = isRecord(override) ? byTag(walk.d, concrete, override.$type) : undefined;
  if (given !== undefined) return given;
  if (walk.variant.kind === 'derived' && concrete.includes(walk.variant.type)) return walk.variant.type;
  if (index !== undefined) return concrete[index % concrete.length];
  for (const k of concrete.slice(1)) walk.features.derived.add(k);
  return concrete[0];
}

function complexSample(
  walk: Walk,
  key: string,
  declared: ComplexTypeDescriptor,
  override: unknown,
  path: string,
  index?: number,
): unknown {
  if (declared.arrayItem !== undefined) return itemsSample(walk, key, declared.arrayItem, override, path, true);
  if (override !== undefined && !isRecord(override)) return override; // valueFromJson names the mistake
  const polymorphic = (declared.derived?.length ?? 0) > 0;
  const chosen =
    polymorphic || declared.abstract === true ? chooseType(walk, key, declared, override, path, index) : key;
  if (chosen === undefined) return override ?? {};
  const type = walk.d.types[chosen] as ComplexTypeDescriptor;
  const recursive = walk.stack.includes(chosen);
  walk.stack.push(chosen);
  try {
    const given = normalizeKeys(type, isRecord(override) ? override : {});
    const out: Record<string, unknown> = polymorphic ? { $type: type.tag } : {};
    let choiceTaken = false;
    for (const field of type.fields) {
      if (field.wildcard === true) continue;
      const value = given[field.prop];
      if (field.inChoice === true && value === undefined) {
        if (choiceTaken) continue;
        choiceTaken = true;
      } else if (field.inChoice === true) choiceTaken = true;
      if (value === undefined && recursive && (field.minOccurs === 0 || field.inChoice === true)) continue;
      const memberPath = `${path}/${field.name.local}`;
      if (value === undefined && recursive && refersTo(walk.d, field.value, chosen)) {
        walk.problems.push({ path: memberPath, reason: `the type ${chosen} contains itself through required members` });
        continue;
      }
      out[field.prop] =
        field.maxOccurs !== 1
          ? itemsSample(walk, chosen, field, value, memberPath, false)
          : valueSample(walk, field.value, field.nillable, value, memberPath, { typeKey: chosen, prop: field.prop });
    }
    for (const attribute of type.attributes) {
      const value = given[attribute.prop];
      out[attribute.prop] =
        value !== undefined
          ? value
          : valueSample(walk, attribute.value, false, undefined, `${path}/@${attribute.name.local}`, {
              typeKey: chosen,
              prop: attribute.prop,
            });
    }
    if (type.text !== undefined)
      out.value = given.value ?? valueSample(walk, type.text, false, undefined, `${path}/value`, undefined);
    // Whatever else the user gave is kept, so the conversion reports it with its path.
    for (const [prop, value] of Object.entries(given)) if (!(prop in out)) out[prop] = value;
    return out;
  } finally {
    walk.stack.pop();
  }
}

function refersTo(d: ServiceDescriptor, vd: ValueDescriptor, key: string): boolean {
  if (vd.kind !== 'type') return false;
  if (vd.type === key) return true;
  const type = d.types[vd.type];
  return type?.kind === 'complex' && type.arrayItem !== undefined && refersTo(d, type.arrayItem.value, key);
}

/** User keys by property; a key that is a member's wire name (when it differs) is accepted too. */
function normalizeKeys(type: ComplexTypeDescriptor, given: Record<string, unknown>): Record<string, unknown> {
  const byWire = new Map<string, string>([...type.fields, ...type.attributes].map((m) => [m.name.local, m.prop]));
  const props = new Set<string>([...type.fields, ...type.attributes].map((m) => m.prop));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (key === '$type') continue;
    out[props.has(key) ? key : (byWire.get(key) ?? key)] = value;
  }
  return out;
}

/** How many items an array gets: the variant's count, else two (or one per concrete type). */
function itemCount(walk: Walk, item: FieldDescriptor): number {
  if (walk.variant.kind === 'arrays') return walk.variant.count;
  const itemType = item.value.kind === 'type' ? walk.d.types[item.value.type] : undefined;
  const kinds =
    itemType?.kind === 'complex' && (itemType.derived?.length ?? 0) > 0
      ? concreteTypes(walk.d, item.value.kind === 'type' ? item.value.type : '', itemType).length
      : 0;
  return Math.max(2, kinds);
}

/** An array wrapper's items (`wrapped`) or a repeated element's occurrences. */
function itemsSample(
  walk: Walk,
  ownerKey: string,
  item: FieldDescriptor,
  override: unknown,
  path: string,
  wrapped: boolean,
): unknown {
  const itemPath = (i: number): string => (wrapped ? `${path}/${item.name.local}[${i + 1}]` : `${path}[${i + 1}]`);
  if (override !== undefined && !Array.isArray(override)) return override;
  if (Array.isArray(override))
    return override.map((given, i) => itemSample(walk, ownerKey, item, given, itemPath(i), i));
  walk.features.arrays = true;
  if (walk.stack.filter((k) => k === ownerKey).length > 1) return [];
  const count = itemCount(walk, item);
  const items: unknown[] = [];
  for (let i = 0; i < count; i++) {
    if (item.nillable) walk.features.nillable = true;
    items.push(
      walk.variant.kind === 'nil' && item.nillable && i === count - 1
        ? null
        : itemSample(walk, ownerKey, item, undefined, itemPath(i), i),
    );
  }
  return items;
}

function itemSample(
  walk: Walk,
  ownerKey: string,
  item: FieldDescriptor,
  given: unknown,
  path: string,
  index: number,
): unknown {
  if (given === null) return null;
  if (item.value.kind === 'type') {
    const type = walk.d.types[item.value.type];
    if (type?.kind === 'complex') return complexSample(walk, item.value.type, type, given, path, index);
  }
  // Items are not nil in a typical value; the nil variant sets one (above).
  return valueSample(walk, item.value, false, given, path, { typeKey: ownerKey, prop: item.prop });
}
