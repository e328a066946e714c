/**
 * Arbitraries of whole values, from the descriptor (runtime/descriptor.ts) and the schema's
 * facets (conformance/catalogue/schema-facts.ts), as the runtime holds them: what a generated
 * client would pass. Every construct the generator supports is reached:
 *
 * - optional members present or absent, nillable ones now and then nil, repeated ones from
 *   minOccurs to a few items (none, one and the most a small run allows weighted up);
 * - the members of a choice: exactly one of them;
 * - a type with derived types: any concrete one, tagged by `$type` (the runtime writes xsi:type);
 * - ArrayOfX wrappers, attributes, simple content, list types (ASMX's [Flags] enums);
 * - raw XML (anyType): one small element.
 *
 * Depth is bounded: past MAX_DEPTH an optional member is left out and an array is empty, so a
 * recursive type ends. Arbitraries are built once per (value, depth) and reused.
 */
import fc from 'fast-check';
import type { SchemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { resolveValue } from '../../runtime/codec/index.js';
import type {
  AttributeFieldDescriptor,
  ComplexTypeDescriptor,
  FieldDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { readXml } from '../../runtime/xml/reader.js';
import { simpleArbitrary } from './simple.js';
import { ncName } from './text.js';

const MAX_DEPTH = 5;
/** Items of a repeated member beyond its minOccurs (a few: the server's loop, not its memory, is the target). */
const MAX_EXTRA_ITEMS = 4;

/** Raw XML values: one element with a little text (anyType, xs:any, DataSet schemas). */
const XML_VALUE = ncName.map((text) => readXml(`<fuzz xmlns="urn:smskit:fuzz">${text}</fuzz>`).root);

/** Builds and caches the arbitraries of one contract's values. */
export class ValueArbitraries {
  readonly #cache = new Map<string, fc.Arbitrary<unknown>>();

  constructor(
    readonly d: ServiceDescriptor,
    readonly facts: SchemaFacts,
  ) {}

  /** A value of `vd` (owner: the complex type and member it belongs to, for facets). */
  value(vd: ValueDescriptor, depth: number, owner?: { typeKey: string; prop: string }): fc.Arbitrary<unknown> {
    const key = `${vd.kind === 'type' ? vd.type : vd.kind === 'primitive' ? vd.xsd : 'xml'}|${owner?.typeKey ?? ''}|${owner?.prop ?? ''}|${depth}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    // A type that contains itself through required members has no finite value: an empty one ends it.
    const made = depth > MAX_DEPTH + 3 ? fc.constant({}) : this.#build(vd, depth, owner);
    this.#cache.set(key, made);
    return made;
  }

  #build(vd: ValueDescriptor, depth: number, owner?: { typeKey: string; prop: string }): fc.Arbitrary<unknown> {
    if (vd.kind === 'xml') return XML_VALUE;
    if (vd.kind === 'type') {
      const type = this.d.types[vd.type];
      if (type?.kind === 'simple' && type.list === true) return this.#list(vd.type);
      if (type?.kind === 'complex') return this.#complex(vd.type, type, depth);
    }
    const resolved = resolveValue(this.d, vd, owner?.prop ?? '');
    if (resolved.kind === 'xml') return XML_VALUE;
    if (resolved.kind === 'complex') return fc.constant({});
    const facets = owner === undefined ? undefined : this.facts.memberFacets(owner.typeKey, owner.prop);
    return simpleArbitrary(resolved.xsd, resolved.enumeration, facets);
  }

  /** A list type's text: a set of its items (a [Flags] enum's names), or a few names. */
  #list(typeKey: string): fc.Arbitrary<unknown> {
    const items = this.facts.listItems(typeKey);
    if (items === undefined || items.length === 0) return fc.array(ncName, { maxLength: 3 }).map((l) => l.join(' '));
    return fc.subarray([...items]).map((chosen) => chosen.join(' '));
  }

  #complex(key: string, declared: ComplexTypeDescriptor, depth: number): fc.Arbitrary<unknown> {
    if (declared.arrayItem !== undefined) return this.#items(key, declared.arrayItem, depth, 0);
    const concrete = [key, ...(declared.derived ?? [])].filter((k) => {
      const t = this.d.types[k];
      return t?.kind === 'complex' && t.abstract !== true;
    });
    const polymorphic = (declared.derived?.length ?? 0) > 0;
    if (concrete.length === 0) return fc.constant({});
    const each = concrete.map((k) => this.#record(k, this.d.types[k] as ComplexTypeDescriptor, depth, polymorphic));
    return each.length === 1 ? each[0]! : fc.oneof(...each);
  }

  /** One concrete type's members, `$type` first when the declared type is polymorphic. */
  #record(key: string, type: ComplexTypeDescriptor, depth: number, tagged: boolean): fc.Arbitrary<unknown> {
    const members: Record<string, fc.Arbitrary<unknown>> = {};
    const plain = type.fields.filter((f) => f.wildcard !== true && f.inChoice !== true);
    const choice = type.fields.filter((f) => f.wildcard !== true && f.inChoice === true);
    for (const field of plain) members[field.prop] = this.#field(key, field, depth);
    for (const attribute of type.attributes) members[attribute.prop] = this.#attribute(key, attribute);
    if (type.text !== undefined) members.value = this.value(type.text, depth + 1);
    const record = fc.record(members);
    const withChoice =
      choice.length === 0
        ? record
        : fc
            .tuple(
              record,
              fc.oneof(...choice.map((f) => this.#field(key, f, depth, true).map((v) => [f.prop, v] as const))),
            )
            .map(([r, [prop, v]]) => ({ ...r, [prop]: v }));
    return withChoice.map((r) => withoutAbsent(tagged ? { $type: type.tag, ...r } : r));
  }

  /** A member's value: absent (undefined), nil (null), one value, or its items. */
  #field(owner: string, field: FieldDescriptor, depth: number, chosen = false): fc.Arbitrary<unknown> {
    if (field.maxOccurs !== 1) return this.#items(owner, field, depth, field.minOccurs);
    const optional = !chosen && (field.minOccurs === 0 || field.inChoice === true);
    if (optional && depth >= MAX_DEPTH) return fc.constant(undefined);
    const one = this.#one(owner, field, depth);
    if (!optional) return one;
    return fc.oneof({ weight: 1, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: one });
  }

  #one(owner: string, field: FieldDescriptor, depth: number): fc.Arbitrary<unknown> {
    const value = this.value(field.value, depth + 1, { typeKey: owner, prop: field.prop });
    return field.nillable
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 5, arbitrary: value })
      : value;
  }

  /** The items of an ArrayOfX or of a repeated member: minOccurs up to a few more (none past MAX_DEPTH). */
  #items(owner: string, item: FieldDescriptor, depth: number, min: number): fc.Arbitrary<unknown> {
    const limit = item.maxOccurs === -1 ? min + MAX_EXTRA_ITEMS : Math.min(item.maxOccurs, min + MAX_EXTRA_ITEMS);
    const max = depth >= MAX_DEPTH ? min : Math.max(min, limit);
    if (max === 0) return fc.constant([]);
    return fc.array(this.#one(owner, item, depth), { minLength: min, maxLength: max });
  }

  #attribute(owner: string, attribute: AttributeFieldDescriptor): fc.Arbitrary<unknown> {
    const value = this.value(attribute.value, 0, { typeKey: owner, prop: attribute.prop });
    return attribute.required ? value : fc.option(value, { nil: undefined });
  }
}

/** The record without its absent members (the runtime reads `undefined` as absent anyway; output stays small). */
function withoutAbsent(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined) out[k] = v;
  return out;
}
