/**
 * What encoding and decoding need of a complex type, worked out once per type instead of once
 * per element: its fields with their values resolved (on first use), the fields by name, the
 * required ones, the property names a value may have. Kept in a WeakMap by type descriptor.
 *
 * A field's value is resolved where the first element of it is met, not when the layout is made,
 * so a descriptor error (a type missing from the descriptor) names that element, as it would
 * without a layout, and a field never met is never resolved.
 */
import type {
  AttributeFieldDescriptor,
  ComplexTypeDescriptor,
  FieldDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../descriptor.js';
import type { XmlElement } from '../xml/types.js';
import type { Path } from './path.js';
import { resolveValue, type ResolvedValue } from './shared.js';

/** A value descriptor and, once met, what it resolves to. */
export interface ValueSlot {
  readonly value: ValueDescriptor;
  resolved: ResolvedValue | undefined;
}

export interface FieldSlot extends ValueSlot {
  readonly field: FieldDescriptor;
  /** The field's element name and property, copied here: the slots of all types share one shape. */
  readonly local: string;
  readonly ns: string;
  readonly prop: string;
  /** Its index in the type's fields. */
  readonly position: number;
  /** `1 << position` for the first 31 fields, 0 after: a bit in a set of the fields seen. */
  readonly bit: number;
  /** maxOccurs is not 1: the property holds an array. */
  readonly repeated: boolean;
  /**
   * A child element with this field's name is this field's: it is the first field of that
   * name (later ones are never matched by name) and not a wildcard.
   */
  readonly byName: boolean;
  /** `<local`, `<local>`, `</local>`: the tags of the field's element where its namespace is the default one. */
  readonly open: string;
  readonly openTag: string;
  readonly close: string;
}

export interface AttributeSlot extends ValueSlot {
  readonly attribute: AttributeFieldDescriptor;
}

export interface FieldLayout {
  readonly fields: readonly FieldSlot[];
  /** Fields matched by name, by local name (namespaces compared after). */
  readonly byLocal: ReadonlyMap<string, readonly FieldSlot[]>;
  /** The `xs:any` field: every child no field's name matches. */
  readonly wildcard: FieldSlot | undefined;
  /** Repeating groups (`FieldDescriptor.group`): matched by their members' names (group-occurrences.ts). */
  readonly groups: readonly FieldSlot[];
  /** Fields that must be present: not in a choice, not a wildcard, minOccurs above 0. */
  readonly required: readonly FieldSlot[];
  readonly attributes: readonly AttributeSlot[];
  /** ArrayOfX: the item field. */
  readonly item: FieldSlot | undefined;
  /** simpleContent: the text's value. */
  readonly text: ValueSlot | undefined;
  /** The properties an object of the type may have (fields, attributes, `value`). */
  readonly members: ReadonlySet<string>;
}

const layouts = new WeakMap<ComplexTypeDescriptor, FieldLayout>();

export function layoutOf(type: ComplexTypeDescriptor): FieldLayout {
  let layout = layouts.get(type);
  if (layout === undefined) {
    layout = makeLayout(type);
    layouts.set(type, layout);
  }
  return layout;
}

function makeLayout(type: ComplexTypeDescriptor): FieldLayout {
  const byLocal = new Map<string, FieldSlot[]>();
  let wildcard: FieldSlot | undefined;
  const fields = type.fields.map((field, position): FieldSlot => {
    const named =
      field.wildcard !== true &&
      field.group === undefined &&
      !type.fields.some(
        (other, i) =>
          i < position &&
          other.wildcard !== true &&
          other.name.local === field.name.local &&
          other.name.ns === field.name.ns,
      );
    return fieldSlot(field, position, named);
  });
  for (const slot of fields) {
    if (slot.field.wildcard === true) wildcard = slot;
    else if (slot.field.group !== undefined) continue;
    else byLocal.set(slot.field.name.local, [...(byLocal.get(slot.field.name.local) ?? []), slot]);
  }
  const members = new Set<string>();
  for (const f of type.fields) members.add(f.prop);
  for (const a of type.attributes) members.add(a.prop);
  if (type.text !== undefined) members.add('value');
  return {
    fields,
    byLocal,
    wildcard,
    groups: fields.filter((s) => s.field.group !== undefined),
    required: fields.filter((s) => s.field.inChoice !== true && s.field.wildcard !== true && s.field.minOccurs !== 0),
    attributes: type.attributes.map((attribute) => ({ attribute, value: attribute.value, resolved: undefined })),
    item: type.arrayItem === undefined ? undefined : fieldSlot(type.arrayItem, 0, true),
    text: type.text === undefined ? undefined : { value: type.text, resolved: undefined },
    members,
  };
}

function fieldSlot(field: FieldDescriptor, position: number, byName: boolean): FieldSlot {
  const local = field.name.local;
  return {
    field,
    value: field.value,
    resolved: undefined,
    local,
    ns: field.name.ns,
    prop: field.prop,
    position,
    bit: position < 31 ? 1 << position : 0,
    repeated: field.maxOccurs !== 1,
    byName,
    open: `<${local}`,
    openTag: `<${local}>`,
    close: `</${local}>`,
  };
}

/** What the slot's value resolves to; `path` names the element in a descriptor error. */
export function resolveSlot(d: ServiceDescriptor, slot: ValueSlot, path: Path): ResolvedValue {
  return (slot.resolved ??= resolveValue(d, slot.value, String(path)));
}

/**
 * The field a child element belongs to (undefined: none). Elements mostly come in schema order,
 * so the field after the last one matched, or that one again when it repeats, is tried before
 * the lookup by name.
 */
export function fieldFor(layout: FieldLayout, child: XmlElement, last: number): FieldSlot | undefined {
  const fields = layout.fields;
  if (last >= 0) {
    const again = fields[last]!;
    if (again.repeated && named(again, child)) return again;
  }
  const next = fields[last + 1];
  if (next !== undefined && named(next, child)) return next;
  const candidates = layout.byLocal.get(child.local);
  if (candidates !== undefined) for (const slot of candidates) if (slot.ns === child.ns) return slot;
  return layout.wildcard;
}

function named(slot: FieldSlot, child: XmlElement): boolean {
  return slot.byName && slot.local === child.local && slot.ns === child.ns;
}
