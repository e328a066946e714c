/**
 * Descriptor-driven encoding: a TypeScript value -> an XML fragment string, elements in
 * descriptor (schema) order. Namespaces are written as default-namespace declarations only
 * where the element's namespace differs from its parent's, which is what ASMX writes
 * (`<SMSSendResponse xmlns="...">` and unprefixed children) and needs no prefix bookkeeping.
 *
 * Nothing is dropped: a property that is not a member of the value's type is an error, and a
 * value of a type with derived types names its concrete type in `$type` (written as xsi:type).
 *
 * Every element of a request goes through here, so the per-element work is kept to what the
 * output needs: types come with a layout (field-layout.ts), and paths are built only for errors (path.ts).
 */
import type { ComplexTypeDescriptor, NameDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { escapeAttr, escapeText } from '../escape/xml.js';
import { writeElement } from '../xml/writer.js';
import type { XmlElement } from '../xml/types.js';
import { checkMembers, concreteType, isPolymorphic, xsiTypeAttribute } from './polymorphism.js';
import { layoutOf, resolveSlot, type FieldSlot, type FieldLayout } from './field-layout.js';
import { checkChoiceOccurrence, groupOccurrenceType, occurrencePath } from './group-occurrences.js';
import { atPath, childPath, PathNode, type Path } from './path.js';
import { XML_NS, XSI_NS } from '../namespaces.js';
import { encodeLexical, resolveValue, type ResolvedValue } from './shared.js';

const XSI_DECL = ` xmlns:xsi="${XSI_NS}"`;

/**
 * Encodes one element `name` holding `value`. `parentNs` is the default namespace in scope
 * where the element is written ('' at the top of a fragment that declares nothing);
 * `xsiInScope` says whether the xsi prefix is declared there (a SOAP envelope declares it),
 * else an element that needs it (xsi:nil, xsi:type) declares it itself.
 */
export function encodeElement(
  d: ServiceDescriptor,
  name: NameDescriptor,
  vd: ValueDescriptor,
  value: unknown,
  nillable: boolean,
  parentNs: string,
  path: string,
  xsiInScope = false,
): string {
  return encodeNode(d, name, nillable, value, parentNs, path, xsiInScope, '', undefined, vd);
}

/**
 * encodeElement with `extraAttrs` (e.g. ` soap:mustUnderstand="1"`, namespace declarations)
 * written on the element's own start tag: for header blocks and document roots.
 */
export function encodeElementWith(
  d: ServiceDescriptor,
  name: NameDescriptor,
  vd: ValueDescriptor,
  value: unknown,
  nillable: boolean,
  parentNs: string,
  path: string,
  xsiInScope: boolean,
  extraAttrs: string,
): string {
  return encodeNode(d, name, nillable, value, parentNs, path, xsiInScope, extraAttrs, undefined, vd);
}

/** Encodes an element whose path is `path`; its value is `slot`'s (resolved there once) or, without a slot, `vd`'s. */
function encodeNode(
  d: ServiceDescriptor,
  name: NameDescriptor,
  nillable: boolean,
  value: unknown,
  parentNs: string,
  path: Path,
  xsiInScope: boolean,
  extraAttrs: string,
  slot: FieldSlot | undefined,
  vd?: ValueDescriptor,
): string {
  const start =
    name.ns !== parentNs
      ? `<${name.local} xmlns="${namespaceAttr(name.ns, path)}"${extraAttrs}`
      : slot === undefined || extraAttrs !== ''
        ? `<${name.local}${extraAttrs}`
        : slot.open;
  const end = slot === undefined ? `</${name.local}>` : slot.close;
  if (value === null) {
    if (!nillable) throw new CodecError('CODEC_NIL', String(path), 'null given for an element that is not nillable');
    return `${start} xsi:nil="true"${xsiInScope ? '' : XSI_DECL}/>`;
  }
  const resolved: ResolvedValue = slot === undefined ? resolveValue(d, vd!, String(path)) : resolveSlot(d, slot, path);
  if (resolved.kind === 'xml') {
    if (!isXmlElement(value)) throw new CodecError('CODEC_INVALID_VALUE', String(path), 'expected an XmlElement');
    return writeElement(value, { '': parentNs }, String(path), name, extraAttrs);
  }
  if (resolved.kind === 'primitive') {
    let text: string;
    try {
      text = escapeText(encodeLexical(resolved, value, ''), '');
    } catch (err) {
      throw atPath(err, path);
    }
    return `${start}>${text}${end}`;
  }
  let type = resolved.type;
  let typeAttr = '';
  let childXsi = xsiInScope;
  const polymorphic = isPolymorphic(type);
  if (polymorphic) {
    const concrete = concreteType(d, type, value, path);
    if (concrete !== type) {
      typeAttr = derivedTypeAttribute(concrete, name, path, xsiInScope);
      childXsi = true;
      type = concrete;
    }
  }
  const layout = layoutOf(type);
  if (layout.item !== undefined) {
    if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', String(path), 'expected an array');
    const items = encodeItems(d, layout.item, value, name.ns, path, childXsi);
    return items === '' ? `${start}${typeAttr}/>` : `${start}${typeAttr}>${items}${end}`;
  }
  const record = checkedRecord(type, value, polymorphic, path);
  const attrs = layout.attributes.length === 0 ? '' : encodeAttributes(d, layout, record, path);
  const content = encodeContent(d, layout, record, name.ns, path, childXsi);
  return content === '' ? `${start}${typeAttr}${attrs}/>` : `${start}${typeAttr}${attrs}>${content}${end}`;
}

/** The declared type itself is written without xsi:type, as ASMX does; a derived one with it. */
function derivedTypeAttribute(
  concrete: ComplexTypeDescriptor,
  name: NameDescriptor,
  path: Path,
  xsiInScope: boolean,
): string {
  return xsiTypeAttribute(concrete, name.ns, path) + (xsiInScope ? '' : XSI_DECL);
}

function namespaceAttr(ns: string, path: Path): string {
  try {
    return escapeAttr(ns, '');
  } catch (err) {
    throw atPath(err, path);
  }
}

/**
 * Encodes the attributes and content of a complex value whose element is in `ownNs`.
 * `polymorphic`: the value may (must) carry `$type`, already resolved to `type` by the caller.
 */
export function encodeComplex(
  d: ServiceDescriptor,
  type: ComplexTypeDescriptor,
  value: unknown,
  ownNs: string,
  path: string,
  polymorphic = false,
  xsiInScope = false,
): [string, string] {
  const layout = layoutOf(type);
  if (layout.item !== undefined) {
    if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an array');
    return ['', encodeItems(d, layout.item, value, ownNs, path, xsiInScope)];
  }
  const record = checkedRecord(type, value, polymorphic, path);
  const attrs = layout.attributes.length === 0 ? '' : encodeAttributes(d, layout, record, path);
  return [attrs, encodeContent(d, layout, record, ownNs, path, xsiInScope)];
}

/** The value as an object of `type`'s members (`$type` too when polymorphic), or an error. */
function checkedRecord(
  type: ComplexTypeDescriptor,
  value: unknown,
  polymorphic: boolean,
  path: Path,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new CodecError('CODEC_INVALID_VALUE', String(path), 'expected an object');
  }
  const record = value as Record<string, unknown>;
  checkMembers(type, record, polymorphic, path);
  return record;
}

/** The content of a complex value: its simple content or its fields, in schema order. */
function encodeContent(
  d: ServiceDescriptor,
  layout: FieldLayout,
  record: Record<string, unknown>,
  ownNs: string,
  path: Path,
  xsiInScope: boolean,
): string {
  if (layout.text !== undefined) {
    const resolved = resolveSlot(d, layout.text, path);
    if (resolved.kind !== 'primitive')
      throw new CodecError('CODEC_DESCRIPTOR', String(path), 'simple content must be of a simple type');
    const text = record.value;
    if (text === undefined || text === null) return '';
    let lexical: string;
    try {
      lexical = encodeLexical(resolved, text, '');
    } catch (err) {
      throw atPath(err, path);
    }
    try {
      return escapeText(lexical, '');
    } catch (err) {
      throw atPath(err, `${path}/value`);
    }
  }
  let content = '';
  for (const slot of layout.fields) {
    const value = record[slot.prop];
    if (value === undefined && slot.field.minOccurs === 0) continue;
    content += encodeField(d, slot, value, ownNs, path, xsiInScope);
  }
  return content;
}

/** Encodes one particle of a sequence: absent, one element, or several. */
function encodeField(
  d: ServiceDescriptor,
  slot: FieldSlot,
  value: unknown,
  parentNs: string,
  parent: Path,
  xsiInScope: boolean,
): string {
  const field = slot.field;
  if (field.wildcard === true) return encodeWildcard(value, parentNs, parent, field.name.local);
  if (slot.repeated) {
    const items = checkedItems(slot, value, parent);
    if (items === undefined) return '';
    return field.group === undefined
      ? encodeItems(d, slot, items, parentNs, parent, xsiInScope)
      : encodeOccurrences(d, slot, items, parentNs, parent, xsiInScope);
  }
  if (value === undefined) {
    if (field.minOccurs > 0 && field.inChoice !== true)
      throw new CodecError('CODEC_MISSING', childPath(parent, field.name.local, 0), 'required');
    return '';
  }
  return encodeChild(d, slot, value, parentNs, parent, 0, xsiInScope);
}

/** The values of a repeated field (undefined: none given), checked against its occurrences. */
function checkedItems(slot: FieldSlot, value: unknown, parent: Path): readonly unknown[] | undefined {
  const field = slot.field;
  const path = (): string => childPath(parent, field.name.local, 0);
  const required = field.inChoice !== true ? field.minOccurs : 0;
  if (value === undefined) {
    if (required > 0) throw new CodecError('CODEC_MISSING', path(), `required (at least ${field.minOccurs})`);
    return undefined;
  }
  if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path(), 'expected an array (maxOccurs > 1)');
  if (value.length < required)
    throw new CodecError('CODEC_MISSING', path(), `${value.length} given, at least ${field.minOccurs} required`);
  if (field.maxOccurs > 0 && value.length > field.maxOccurs)
    throw new CodecError('CODEC_UNEXPECTED', path(), `${value.length} given, at most ${field.maxOccurs} allowed`);
  return value;
}

/**
 * The occurrences of a repeating group (group-occurrences.ts): each object's members in field
 * order, straight into the parent element, one occurrence after another.
 */
function encodeOccurrences(
  d: ServiceDescriptor,
  slot: FieldSlot,
  occurrences: readonly unknown[],
  parentNs: string,
  parent: Path,
  xsiInScope: boolean,
): string {
  const type = groupOccurrenceType(d, slot, parent);
  const layout = layoutOf(type);
  let out = '';
  for (let i = 0; i < occurrences.length; i++) {
    const path = occurrencePath(parent, slot, i + 1);
    const record = checkedRecord(type, occurrences[i], false, path);
    if (slot.field.group === 'choice') checkChoiceOccurrence(layout, record, path);
    out += encodeContent(d, layout, record, parentNs, path, xsiInScope);
  }
  return out;
}

function encodeItems(
  d: ServiceDescriptor,
  item: FieldSlot,
  values: readonly unknown[],
  parentNs: string,
  parent: Path,
  xsiInScope: boolean,
): string {
  let out = '';
  for (let i = 0; i < values.length; i++) out += encodeChild(d, item, values[i], parentNs, parent, i + 1, xsiInScope);
  return out;
}

/**
 * Encodes a child of the element at `parent`: the `index`th of its repeated field or array (0:
 * a single field). A simple value in the parent's namespace is written here without a path of
 * its own; anything else gets one and goes the general way.
 */
function encodeChild(
  d: ServiceDescriptor,
  slot: FieldSlot,
  value: unknown,
  parentNs: string,
  parent: Path,
  index: number,
  xsiInScope: boolean,
): string {
  const resolved = slot.resolved;
  const field = slot.field;
  if (value !== null && resolved !== undefined && resolved.kind === 'primitive' && slot.ns === parentNs) {
    let text: string;
    try {
      text = escapeText(encodeLexical(resolved, value, ''), '');
    } catch (err) {
      throw atPath(err, new PathNode(parent, field.name.local, index));
    }
    return slot.openTag + text + slot.close;
  }
  return encodeNode(
    d,
    field.name,
    field.nillable,
    value,
    parentNs,
    new PathNode(parent, field.name.local, index),
    xsiInScope,
    '',
    slot,
  );
}

function encodeWildcard(value: unknown, parentNs: string, parent: Path, local: string): string {
  if (value === undefined) return '';
  const path = childPath(parent, local, 0);
  const items = Array.isArray(value) ? value : [value];
  let out = '';
  for (const item of items) {
    if (!isXmlElement(item))
      throw new CodecError('CODEC_INVALID_VALUE', path, 'expected XmlElement values for a wildcard');
    out += writeElement(item, { '': parentNs }, path);
  }
  return out;
}

function encodeAttributes(
  d: ServiceDescriptor,
  layout: FieldLayout,
  record: Record<string, unknown>,
  path: Path,
): string {
  let out = '';
  let prefixes = 0;
  for (const slot of layout.attributes) {
    const attribute = slot.attribute;
    const value = record[attribute.prop];
    if (value === undefined || value === null) {
      if (attribute.required)
        throw new CodecError('CODEC_MISSING', `${path}/@${attribute.name.local}`, 'required attribute');
      continue;
    }
    const resolved = slot.resolved ?? resolveSlot(d, slot, `${path}/@${attribute.name.local}`);
    if (resolved.kind !== 'primitive')
      throw new CodecError(
        'CODEC_DESCRIPTOR',
        `${path}/@${attribute.name.local}`,
        'an attribute must be of a simple type',
      );
    let text: string;
    try {
      text = escapeAttr(encodeLexical(resolved, value, ''), '');
    } catch (err) {
      throw atPath(err, `${path}/@${attribute.name.local}`);
    }
    if (attribute.name.ns === '') {
      out += ` ${attribute.name.local}="${text}"`;
    } else if (attribute.name.ns === XML_NS) {
      // xml:lang, xml:space: the xml prefix is bound by definition, and no other may be bound to
      // its namespace (Namespaces in XML §3).
      out += ` xml:${attribute.name.local}="${text}"`;
    } else {
      // Qualified attributes need a prefix (a default namespace does not apply to attributes).
      const prefix = `a${++prefixes}`;
      out += ` xmlns:${prefix}="${escapeAttr(attribute.name.ns, `${path}/@${attribute.name.local}`)}" ${prefix}:${attribute.name.local}="${text}"`;
    }
  }
  return out;
}

export function isXmlElement(value: unknown): value is XmlElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'element' &&
    Array.isArray((value as { children?: unknown }).children)
  );
}
