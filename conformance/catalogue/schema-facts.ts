/**
 * What the descriptor leaves out but sample values need: the facets of simple values (a number's
 * range, a string's length, a pattern) and the item values of list types (ASMX's [Flags] enums).
 * The descriptor collapses a named simple type into its primitive, so facets are looked up per
 * member: `<complex type key>|<member prop>` (the same keys the descriptor uses).
 *
 * Read from the WSDL model when the run has one; a run given only a descriptor has no facts, and
 * its samples use each primitive's typical value.
 */
import type { SimpleType, TypeUse, WsdlModel } from '../../contract/model/index.js';
import { planSchema } from '../../contract/plan/schema.js';
import type { PlannedValue } from '../../contract/plan/values.js';

export type Facets = SimpleType['facets'];

export interface SchemaFacts {
  /** Facets of a member of a complex type (merged along the restriction chain). */
  memberFacets(typeKey: string, prop: string): Facets | undefined;
  /** Values a list type's items may take (the item type's enumeration), when known. */
  listItems(typeKey: string): readonly string[] | undefined;
}

export const NO_FACTS: SchemaFacts = { memberFacets: () => undefined, listItems: () => undefined };

function clarkOf(name: { ns: string; local: string }): string {
  return `{${name.ns}}${name.local}`;
}

/** Facets of a simple type, its bases' first (a restriction narrows what its base allows). */
function facetsOf(types: WsdlModel['schema']['types'], type: SimpleType, depth = 0): Facets {
  const base =
    type.variety === 'atomic' && type.base?.kind === 'named' && depth < 16 ? types[clarkOf(type.base.name)] : undefined;
  const inherited = base?.kind === 'simple' ? facetsOf(types, base, depth + 1) : {};
  return { ...inherited, ...type.facets };
}

function simpleOfUse(types: WsdlModel['schema']['types'], use: TypeUse | undefined): SimpleType | undefined {
  if (use === undefined) return undefined;
  if (use.kind === 'inline') return use.type.kind === 'simple' ? use.type : undefined;
  if (use.kind === 'named') {
    const type = types[clarkOf(use.name)];
    return type?.kind === 'simple' ? type : undefined;
  }
  return undefined;
}

function hasFacets(facets: Facets): boolean {
  return Object.keys(facets).length > 0;
}

function valueFacets(
  types: WsdlModel['schema']['types'],
  value: PlannedValue,
  declared: TypeUse | undefined,
): Facets | undefined {
  if (value.kind !== 'primitive') return undefined;
  const named = value.simpleType === undefined ? undefined : types[value.simpleType];
  const simple = named?.kind === 'simple' ? named : simpleOfUse(types, declared);
  if (simple === undefined) return undefined;
  const facets = facetsOf(types, simple);
  return hasFacets(facets) ? facets : undefined;
}

/** The facts of a WSDL model; NO_FACTS when its schema cannot be planned (the descriptor then failed too). */
export function schemaFacts(model: WsdlModel): SchemaFacts {
  let plan: ReturnType<typeof planSchema>;
  try {
    plan = planSchema(model, []);
  } catch {
    return NO_FACTS;
  }
  const types = model.schema.types;
  const members = new Map<string, Facets>();
  const lists = new Map<string, readonly string[]>();
  for (const planned of plan.types) {
    if (planned.kind === 'complex') {
      for (const field of planned.fields) {
        const declared = field.decl.kind === 'element' ? field.decl.type : undefined;
        const facets = valueFacets(types, field.value, declared);
        if (facets !== undefined) members.set(`${planned.key}|${field.prop}`, facets);
      }
      for (const attribute of planned.attributes) {
        const facets = valueFacets(types, attribute.value, attribute.decl.type);
        if (facets !== undefined) members.set(`${planned.key}|${attribute.prop}`, facets);
      }
    } else if (planned.kind === 'simple' && planned.type.variety === 'list') {
      const item = simpleOfUse(types, planned.type.base);
      if (item !== undefined && item.enumeration.length > 0) lists.set(planned.key, item.enumeration);
    }
  }
  return {
    memberFacets: (typeKey, prop) => members.get(`${typeKey}|${prop}`),
    listItems: (typeKey) => lists.get(typeKey),
  };
}
