/**
 * Where a mutation can strike in one valid input: every simple value it holds (with its type,
 * enumeration and facets) and every required element it holds, found by walking the value along
 * the descriptor in wire order. Paths are element local names from the Body child down, the
 * first element of a name at each step (conformance's `alterSoapValue` follows them), so a
 * repeated member is entered by its first item only.
 */
import type { Facets, SchemaFacts } from '../../conformance/catalogue/schema-facts.js';
import type { WirePath } from '../../conformance/catalogue/requests.js';
import { resolveValue } from '../../runtime/codec/index.js';
import type { ComplexTypeDescriptor, ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import type { PrimitiveName } from '../../runtime/primitives.js';

export interface LeafTarget {
  readonly path: WirePath;
  readonly xsd: PrimitiveName;
  readonly enumeration?: readonly string[];
  readonly facets?: Facets;
}

export interface Targets {
  readonly leaves: readonly LeafTarget[];
  /** Elements the schema requires that the input holds (removing one must be refused). */
  readonly required: readonly WirePath[];
}

const MAX_DEPTH = 12;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** The concrete type a (polymorphic) value is, by its `$type`. */
function concreteOf(
  d: ServiceDescriptor,
  declared: ComplexTypeDescriptor,
  value: Record<string, unknown>,
): ComplexTypeDescriptor {
  if (typeof value.$type !== 'string') return declared;
  const found = (declared.derived ?? [])
    .map((k) => d.types[k])
    .find((t) => t?.kind === 'complex' && t.tag === value.$type);
  return found?.kind === 'complex' ? found : declared;
}

class TargetWalk {
  readonly leaves: LeafTarget[] = [];
  readonly required: WirePath[] = [];
  constructor(
    readonly d: ServiceDescriptor,
    readonly facts: SchemaFacts,
  ) {}

  value(
    vd: ValueDescriptor,
    value: unknown,
    path: WirePath,
    owner: { typeKey: string; prop: string } | undefined,
  ): void {
    if (value === null || value === undefined || vd.kind === 'xml' || path.length > MAX_DEPTH) return;
    const resolved = resolveValue(this.d, vd, path.join('/'));
    if (resolved.kind === 'primitive') {
      // A list type ([Flags]) is one text of several names: not a simple value to spoil here.
      if (vd.kind === 'type') return;
      const facets = owner === undefined ? undefined : this.facts.memberFacets(owner.typeKey, owner.prop);
      this.leaves.push({
        path,
        xsd: resolved.xsd,
        ...(resolved.enumeration === undefined ? {} : { enumeration: resolved.enumeration }),
        ...(facets === undefined ? {} : { facets }),
      });
      return;
    }
    if (resolved.kind !== 'complex' || vd.kind !== 'type') return;
    this.complex(vd.type, resolved.type, value, path);
  }

  complex(key: string, declared: ComplexTypeDescriptor, value: unknown, path: WirePath): void {
    if (declared.arrayItem !== undefined) {
      const item = declared.arrayItem;
      const first = Array.isArray(value) ? value[0] : undefined;
      this.value(item.value, first, [...path, item.name.local], { typeKey: key, prop: item.prop });
      return;
    }
    if (!isRecord(value)) return;
    const type = concreteOf(this.d, declared, value);
    const typeKey = type === declared ? key : ((declared.derived ?? []).find((k) => this.d.types[k] === type) ?? key);
    for (const field of type.fields) {
      const member = value[field.prop];
      if (member === undefined || field.wildcard === true) continue;
      // A repeating group has no element: its members sit in this element (FieldDescriptor.group).
      if (field.group !== undefined) {
        this.value(field.value, Array.isArray(member) ? member[0] : undefined, path, { typeKey, prop: field.prop });
        continue;
      }
      const at = [...path, field.name.local];
      if (field.minOccurs >= 1 && field.inChoice !== true) this.required.push(at);
      const one = field.maxOccurs !== 1 && Array.isArray(member) ? member[0] : member;
      this.value(field.value, one, at, { typeKey, prop: field.prop });
    }
  }
}

/** The targets of an input element's value (`root`: the Body child's local name, the first step). */
export function targetsOf(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  vd: ValueDescriptor,
  value: unknown,
  root: string,
): Targets {
  const walk = new TargetWalk(d, facts);
  walk.value(vd, value, [root], undefined);
  return { leaves: walk.leaves, required: walk.required };
}
