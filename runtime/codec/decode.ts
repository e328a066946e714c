/**
 * Descriptor-driven decoding: an element from the reader's tree -> a TypeScript value.
 *
 * Children are matched by namespace URI + local name (any prefix). Order is not enforced
 * (ASMX's XmlSerializer does not enforce it either, and the conformance runner checks order
 * on responses separately); an undeclared child, a second occurrence of a single-valued
 * field, non-whitespace text in element-only content and a missing required element are
 * errors naming the element path. A value of a type with derived types is read as the type its
 * xsi:type names (the declared type without one) and carries that type's tag in `$type`.
 */
import type { ComplexTypeDescriptor, FieldDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import type { XmlElement } from '../xml/types.js';
import { isStringLike, primitiveCodec } from './primitives.js';
import { checkOwnXsiType, isPolymorphic, receivedType } from './polymorphism.js';
import { XSI_NS, checkEnumeration, resolveValue } from './shared.js';

/** Decodes the value of element `el` described by `vd`. */
export function decodeElement(d: ServiceDescriptor, vd: ValueDescriptor, el: XmlElement, nillable: boolean, path: string): unknown {
  if (el.attributes.length !== 0 && isNil(el)) {
    if (!nillable) throw new CodecError('CODEC_NIL', path, 'xsi:nil on an element that is not nillable');
    if (el.children.length !== 0) throw new CodecError('CODEC_UNEXPECTED', path, 'an element with xsi:nil="true" must be empty');
    return null;
  }
  const resolved = resolveValue(d, vd, path);
  if (resolved.kind === 'xml') return el;
  if (resolved.kind === 'primitive') return decodeText(resolved.xsd, resolved.enumeration, simpleText(el, path), path);
  const declared = resolved.type;
  if (isPolymorphic(declared)) {
    const type = receivedType(d, declared, el, path);
    return decodeComplex(d, type, el, path, type.tag);
  }
  if (el.attributes.length !== 0) checkOwnXsiType(declared, el, path);
  return decodeComplex(d, declared, el, path);
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
  const children = el.children;
  if (children.length === 0) return '';
  let text = '';
  for (const child of children) {
    if (child.type !== 'text') throw new CodecError('CODEC_UNEXPECTED', `${path}/${child.local}`, 'an element inside a simple-typed value');
    text += child.text;
  }
  return text;
}

export function decodeText(xsd: string, enumeration: readonly string[] | undefined, text: string, path: string): unknown {
  const lexical = enumeration !== undefined && !isStringLike(xsd) ? text.trim() : text;
  checkEnumeration(enumeration, lexical, path);
  return primitiveCodec(xsd, path).decode(lexical, path);
}

/**
 * Decodes a complex value (array wrapper, simple content or a sequence of fields). `tag`: the
 * value is polymorphic and `type` its concrete type; the result carries it in `$type` (first).
 */
export function decodeComplex(d: ServiceDescriptor, type: ComplexTypeDescriptor, el: XmlElement, path: string, tag?: string): unknown {
  if (type.arrayItem !== undefined) return decodeArray(d, type.arrayItem, el, path);
  const out: Record<string, unknown> = tag === undefined ? {} : { $type: tag };
  if (type.attributes.length !== 0) decodeAttributes(d, type, el, out, path);
  if (type.text !== undefined) {
    const resolved = resolveValue(d, type.text, path);
    if (resolved.kind !== 'primitive') throw new CodecError('CODEC_DESCRIPTOR', path, 'simple content must be of a simple type');
    out['value'] = decodeText(resolved.xsd, resolved.enumeration, simpleText(el, path), path);
    return out;
  }
  const index = fieldIndex(type);
  for (const child of el.children) {
    if (child.type === 'text') {
      if (!isWhitespace(child.text)) throw new CodecError('CODEC_UNEXPECTED', path, 'text inside element-only content');
      continue;
    }
    const field = lookupField(index, child) ?? index.wildcard;
    if (field === undefined) throw new CodecError('CODEC_UNEXPECTED', `${path}/${child.local}`, `unexpected element {${child.ns}}${child.local}`);
    addFieldValue(d, field, child, out, path);
  }
  for (const field of type.fields) checkPresence(field, out[field.prop], path);
  return out;
}

function addFieldValue(d: ServiceDescriptor, field: FieldDescriptor, child: XmlElement, out: Record<string, unknown>, path: string): void {
  if (field.wildcard === true) {
    const list = (out[field.prop] ??= []) as XmlElement[];
    list.push(child);
    return;
  }
  const repeated = field.maxOccurs !== 1;
  const existing = out[field.prop];
  if (!repeated && existing !== undefined) throw new CodecError('CODEC_UNEXPECTED', `${path}/${child.local}`, 'occurs more than once');
  if (repeated) {
    const list = (existing ?? (out[field.prop] = [])) as unknown[];
    if (field.maxOccurs > 0 && list.length >= field.maxOccurs) throw new CodecError('CODEC_UNEXPECTED', `${path}/${child.local}`, `more than ${field.maxOccurs} occurrences`);
    list.push(decodeElement(d, field.value, child, field.nillable, `${path}/${child.local}[${list.length + 1}]`));
  } else {
    out[field.prop] = decodeElement(d, field.value, child, field.nillable, `${path}/${child.local}`);
  }
}

function checkPresence(field: FieldDescriptor, value: unknown, path: string): void {
  if (field.inChoice === true || field.wildcard === true || field.minOccurs === 0) return;
  const count = value === undefined ? 0 : field.maxOccurs !== 1 ? (value as unknown[]).length : 1;
  if (count < field.minOccurs) {
    throw new CodecError('CODEC_MISSING', `${path}/${field.name.local}`, field.minOccurs === 1 ? 'required element is missing' : `${count} found, at least ${field.minOccurs} required`);
  }
}

function decodeArray(d: ServiceDescriptor, item: FieldDescriptor, el: XmlElement, path: string): unknown[] {
  const out: unknown[] = [];
  for (const child of el.children) {
    if (child.type === 'text') {
      if (!isWhitespace(child.text)) throw new CodecError('CODEC_UNEXPECTED', path, 'text inside an array');
      continue;
    }
    const itemPath = `${path}/${child.local}[${out.length + 1}]`;
    if (child.local !== item.name.local || child.ns !== item.name.ns) throw new CodecError('CODEC_UNEXPECTED', itemPath, `unexpected element {${child.ns}}${child.local}, expected {${item.name.ns}}${item.name.local}`);
    out.push(decodeElement(d, item.value, child, item.nillable, itemPath));
  }
  return out;
}

function decodeAttributes(d: ServiceDescriptor, type: ComplexTypeDescriptor, el: XmlElement, out: Record<string, unknown>, path: string): void {
  for (const attribute of type.attributes) {
    const attrPath = `${path}/@${attribute.name.local}`;
    const found = el.attributes.find((a) => a.local === attribute.name.local && a.ns === attribute.name.ns);
    if (found === undefined) {
      if (attribute.required) throw new CodecError('CODEC_MISSING', attrPath, 'required attribute is missing');
      continue;
    }
    const resolved = resolveValue(d, attribute.value, attrPath);
    if (resolved.kind !== 'primitive') throw new CodecError('CODEC_DESCRIPTOR', attrPath, 'an attribute must be of a simple type');
    out[attribute.prop] = decodeText(resolved.xsd, resolved.enumeration, found.value, attrPath);
  }
}

interface FieldIndex {
  readonly byLocal: ReadonlyMap<string, readonly FieldDescriptor[]>;
  readonly wildcard: FieldDescriptor | undefined;
}

const indexCache = new WeakMap<ComplexTypeDescriptor, FieldIndex>();

/** Fields by local name (namespaces compared after), built once per type. */
function fieldIndex(type: ComplexTypeDescriptor): FieldIndex {
  let index = indexCache.get(type);
  if (index === undefined) {
    const byLocal = new Map<string, FieldDescriptor[]>();
    let wildcard: FieldDescriptor | undefined;
    for (const field of type.fields) {
      if (field.wildcard === true) wildcard = field;
      else byLocal.set(field.name.local, [...(byLocal.get(field.name.local) ?? []), field]);
    }
    index = { byLocal, wildcard };
    indexCache.set(type, index);
  }
  return index;
}

function lookupField(index: FieldIndex, child: XmlElement): FieldDescriptor | undefined {
  const candidates = index.byLocal.get(child.local);
  if (candidates === undefined) return undefined;
  for (const field of candidates) if (field.name.ns === child.ns) return field;
  return undefined;
}

function isWhitespace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}
