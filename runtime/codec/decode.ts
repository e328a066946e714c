/**
 * Descriptor-driven decoding: an element from the reader's tree -> a TypeScript value.
 *
 * Children are matched by namespace URI + local name (any prefix). Order is not enforced
 * (ASMX's XmlSerializer does not enforce it either, and the conformance runner checks order
 * on responses separately); an undeclared child, a second occurrence of a single-valued
 * field, non-whitespace text in element-only content and a missing required element are
 * errors naming the element path. A value of a type with derived types is read as the type its
 * xsi:type names (the declared type without one) and carries that type's tag in `$type`.
 *
 * Every element of a response goes through here, so the per-element work is kept to what the
 * value needs: types come with a layout (field-layout.ts), and paths are built only for errors (path.ts).
 */
import type { ComplexTypeDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import type { XmlElement, XmlNode } from '../xml/types.js';
import { groupFor, readOccurrences } from './group-occurrences.js';
import { checkOwnXsiType, isPolymorphic, receivedType } from './polymorphism.js';
import { fieldFor, layoutOf, resolveSlot, type FieldSlot, type FieldLayout } from './field-layout.js';
import { atPath, childPath, PathNode, type Path } from './path.js';
import { XSI_NS } from '../namespaces.js';
import { decodeLexical, resolveValue, type PrimitiveValue, type ResolvedValue } from './shared.js';

/** Decodes the value of element `el` described by `vd`. */
export function decodeElement(
  d: ServiceDescriptor,
  vd: ValueDescriptor,
  el: XmlElement,
  nillable: boolean,
  path: string,
): unknown {
  return decodeNode(d, el, nillable, path, undefined, vd);
}

/**
 * Decodes element `el` whose path is `path`: its value is `slot`'s (resolved there once) or,
 * without a slot, `vd`'s.
 */
function decodeNode(
  d: ServiceDescriptor,
  el: XmlElement,
  nillable: boolean,
  path: Path,
  slot: FieldSlot | undefined,
  vd?: ValueDescriptor,
): unknown {
  if (el.attributes.length !== 0 && isNil(el)) {
    if (!nillable) throw new CodecError('CODEC_NIL', String(path), 'xsi:nil on an element that is not nillable');
    if (el.children.length !== 0)
      throw new CodecError('CODEC_UNEXPECTED', String(path), 'an element with xsi:nil="true" must be empty');
    return null;
  }
  const resolved: ResolvedValue = slot === undefined ? resolveValue(d, vd!, String(path)) : resolveSlot(d, slot, path);
  if (resolved.kind === 'xml') return el;
  if (resolved.kind === 'primitive') return decodeSimple(resolved, el, path);
  const declared = resolved.type;
  if (isPolymorphic(declared)) {
    const type = receivedType(d, declared, el, path);
    return decodeComplex(d, type, el, path, type.tag);
  }
  if (el.attributes.length !== 0) checkOwnXsiType(declared, el, path);
  return decodeComplex(d, declared, el, path);
}

/**
 * Decodes the child `el` of the element at `parent`, the `index`th of its repeated field or
 * array (0: a single field). A simple value without attributes (no xsi:nil, no xsi:type) is read
 * here without a path of its own; anything else gets one and goes the general way.
 */
function decodeChild(d: ServiceDescriptor, slot: FieldSlot, el: XmlElement, parent: Path, index: number): unknown {
  const resolved = slot.resolved;
  if (resolved !== undefined && resolved.kind === 'primitive' && el.attributes.length === 0)
    return decodeLeaf(resolved, el, parent, index);
  return decodeNode(d, el, slot.field.nillable, new PathNode(parent, el.local, index), slot);
}

/** The simple value of `el` (an element's or its simple content), its path built on failure only. */
function decodeSimple(value: PrimitiveValue, el: XmlElement, path: Path): unknown {
  const text = textOf(el);
  if (text === undefined) throw elementInText(el, String(path));
  try {
    return decodeLexical(value, text, '');
  } catch (err) {
    throw atPath(err, path);
  }
}

function decodeLeaf(value: PrimitiveValue, el: XmlElement, parent: Path, index: number): unknown {
  const text = textOf(el);
  if (text === undefined) throw elementInText(el, childPath(parent, el.local, index));
  try {
    return decodeLexical(value, text, '');
  } catch (err) {
    throw atPath(err, new PathNode(parent, el.local, index));
  }
}

function isNil(el: XmlElement): boolean {
  for (const a of el.attributes) {
    if (a.local === 'nil' && a.ns === XSI_NS) {
      const v = a.value.trim();
      return v === 'true' || v === '1';
    }
  }
  return false;
}

/** The text of an element that may hold only text. */
export function simpleText(el: XmlElement, path: string): string {
  const text = textOf(el);
  if (text === undefined) throw elementInText(el, path);
  return text;
}

/** The element's text; undefined when it has an element child. */
function textOf(el: XmlElement): string | undefined {
  const children = el.children;
  if (children.length === 0) return '';
  if (children.length === 1) {
    const only = children[0]!;
    return only.type === 'text' ? only.text : undefined;
  }
  let text = '';
  for (const child of children) {
    if (child.type !== 'text') return undefined;
    text += child.text;
  }
  return text;
}

function elementInText(el: XmlElement, path: string): CodecError {
  const child = el.children.find((c) => c.type === 'element') as XmlElement;
  return new CodecError('CODEC_UNEXPECTED', `${path}/${child.local}`, 'an element inside a simple-typed value');
}

/**
 * Decodes a complex value (array wrapper, simple content or a sequence of fields). `tag`: the
 * value is polymorphic and `type` its concrete type; the result carries it in `$type` (first).
 */
export function decodeComplex(
  d: ServiceDescriptor,
  type: ComplexTypeDescriptor,
  el: XmlElement,
  path: Path,
  tag?: string,
): unknown {
  const layout = layoutOf(type);
  if (layout.item !== undefined) return decodeArray(d, layout.item, el, path);
  const out: Record<string, unknown> = tag === undefined ? {} : { $type: tag };
  if (layout.attributes.length !== 0) decodeAttributes(d, layout, el, out, path);
  if (layout.text !== undefined) {
    const resolved = resolveSlot(d, layout.text, path);
    if (resolved.kind !== 'primitive')
      throw new CodecError('CODEC_DESCRIPTOR', String(path), 'simple content must be of a simple type');
    out.value = decodeSimple(resolved, el, path);
    return out;
  }
  let last = -1;
  // The single-valued fields seen so far, one bit per field position below 31 (the others are
  // looked up in `out`): cheaper than reading a property of `out` per element.
  let seen = 0;
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === 'text') {
      if (!isWhitespace(child.text))
        throw new CodecError('CODEC_UNEXPECTED', String(path), 'text inside element-only content');
      continue;
    }
    let slot = fieldFor(layout, child, last);
    if (layout.groups.length !== 0 && (slot === undefined || slot === layout.wildcard))
      slot = groupFor(d, layout.groups, child, path) ?? slot;
    if (slot === undefined)
      throw new CodecError(
        'CODEC_UNEXPECTED',
        childPath(path, child.local, 0),
        `unexpected element {${child.ns}}${child.local}`,
      );
    if (slot.field.group !== undefined) i = readGroup(d, slot, children, i, out, path);
    else if (slot.repeated || slot.field.wildcard === true) addRepeated(d, slot, child, out, path);
    else {
      const bit = slot.bit;
      if (bit !== 0 ? (seen & bit) !== 0 : out[slot.prop] !== undefined)
        throw new CodecError('CODEC_UNEXPECTED', childPath(path, child.local, 0), 'occurs more than once');
      seen |= bit;
      out[slot.prop] = decodeChild(d, slot, child, path, 0);
    }
    last = slot.position;
  }
  for (const slot of layout.required) checkPresence(slot, out[slot.prop], path);
  return out;
}

/**
 * Reads the occurrences of the repeating group `slot` that start at `children[start]` into `out`;
 * the index of the last child read. Its members' elements follow one another: a second run of
 * them, after another field's element, is one the schema's order forbids.
 */
function readGroup(
  d: ServiceDescriptor,
  slot: FieldSlot,
  children: readonly XmlNode[],
  start: number,
  out: Record<string, unknown>,
  path: Path,
): number {
  if (out[slot.prop] !== undefined)
    throw new CodecError(
      'CODEC_UNEXPECTED',
      childPath(path, (children[start] as XmlElement).local, 0),
      `the occurrences of the repeating ${slot.field.group} ${slot.prop} must follow one another`,
    );
  const read = readOccurrences(d, slot, children, start, path, (member, child, occurrence, index) =>
    decodeChild(d, member, child, occurrence, index),
  );
  out[slot.prop] = read.occurrences;
  return read.next - 1;
}

function addRepeated(
  d: ServiceDescriptor,
  slot: FieldSlot,
  child: XmlElement,
  out: Record<string, unknown>,
  path: Path,
): void {
  const field = slot.field;
  if (field.wildcard === true) {
    const list = (out[field.prop] ??= []) as XmlElement[];
    list.push(child);
    return;
  }
  const list = (out[slot.prop] ??= []) as unknown[];
  if (field.maxOccurs > 0 && list.length >= field.maxOccurs)
    throw new CodecError(
      'CODEC_UNEXPECTED',
      childPath(path, child.local, 0),
      `more than ${field.maxOccurs} occurrences`,
    );
  list.push(decodeChild(d, slot, child, path, list.length + 1));
}

function checkPresence(slot: FieldSlot, value: unknown, path: Path): void {
  const field = slot.field;
  const count = value === undefined ? 0 : slot.repeated ? (value as unknown[]).length : 1;
  if (count < field.minOccurs) {
    throw new CodecError(
      'CODEC_MISSING',
      childPath(path, field.name.local, 0),
      field.group !== undefined
        ? `${count} occurrences of the repeating ${field.group} found, at least ${field.minOccurs} required`
        : field.minOccurs === 1
          ? 'required element is missing'
          : `${count} found, at least ${field.minOccurs} required`,
    );
  }
}

function decodeArray(d: ServiceDescriptor, item: FieldSlot, el: XmlElement, path: Path): unknown[] {
  const out: unknown[] = [];
  const name = item.field.name;
  for (const child of el.children) {
    if (child.type === 'text') {
      if (!isWhitespace(child.text)) throw new CodecError('CODEC_UNEXPECTED', String(path), 'text inside an array');
      continue;
    }
    if (child.local !== name.local || child.ns !== name.ns) {
      throw new CodecError(
        'CODEC_UNEXPECTED',
        childPath(path, child.local, out.length + 1),
        `unexpected element {${child.ns}}${child.local}, expected {${name.ns}}${name.local}`,
      );
    }
    out.push(decodeChild(d, item, child, path, out.length + 1));
  }
  return out;
}

function decodeAttributes(
  d: ServiceDescriptor,
  layout: FieldLayout,
  el: XmlElement,
  out: Record<string, unknown>,
  path: Path,
): void {
  for (const slot of layout.attributes) {
    const name = slot.attribute.name;
    let found: string | undefined;
    for (const a of el.attributes) {
      if (a.local === name.local && a.ns === name.ns) {
        found = a.value;
        break;
      }
    }
    if (found === undefined) {
      if (slot.attribute.required)
        throw new CodecError('CODEC_MISSING', `${path}/@${name.local}`, 'required attribute is missing');
      continue;
    }
    const resolved = slot.resolved ?? resolveSlot(d, slot, `${path}/@${name.local}`);
    if (resolved.kind !== 'primitive')
      throw new CodecError('CODEC_DESCRIPTOR', `${path}/@${name.local}`, 'an attribute must be of a simple type');
    try {
      out[slot.attribute.prop] = decodeLexical(resolved, found, '');
    } catch (err) {
      throw atPath(err, `${path}/@${name.local}`);
    }
  }
}

function isWhitespace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}
