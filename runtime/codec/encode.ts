/**
 * Descriptor-driven encoding: a TypeScript value -> an XML fragment string, elements in
 * descriptor (schema) order. Namespaces are written as default-namespace declarations only
 * where the element's namespace differs from its parent's, which is what ASMX writes
 * (`<SMSSendResponse xmlns="...">` and unprefixed children) and needs no prefix bookkeeping.
 */
import type { ComplexTypeDescriptor, FieldDescriptor, NameDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { escapeAttr, escapeText, writeElement } from '../xml/writer.js';
import type { XmlElement } from '../xml/types.js';
import { primitiveCodec } from './primitives.js';
import { XSI_NS, checkEnumeration, resolveValue } from './shared.js';

/**
 * Encodes one element `name` holding `value`. `parentNs` is the default namespace in scope
 * where the element is written ('' at the top of a fragment that declares nothing).
 */
export function encodeElement(
  d: ServiceDescriptor,
  name: NameDescriptor,
  vd: ValueDescriptor,
  value: unknown,
  nillable: boolean,
  parentNs: string,
  path: string,
): string {
  const nsDecl = name.ns === parentNs ? '' : ` xmlns="${escapeAttr(name.ns, path)}"`;
  if (value === null) {
    if (!nillable) throw new CodecError('CODEC_NIL', path, 'null given for an element that is not nillable');
    return `<${name.local}${nsDecl} xsi:nil="true" xmlns:xsi="${XSI_NS}"/>`;
  }
  const resolved = resolveValue(d, vd, path);
  if (resolved.kind === 'xml') {
    if (!isXmlElement(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an XmlElement');
    return writeElement(value, { '': parentNs }, path, name);
  }
  if (resolved.kind === 'primitive') {
    const lexical = primitiveCodec(resolved.xsd, path).encode(value, path);
    checkEnumeration(resolved.enumeration, lexical, path);
    const text = escapeText(lexical, path);
    return `<${name.local}${nsDecl}>${text}</${name.local}>`;
  }
  const [attrs, content] = encodeComplex(d, resolved.type, value, name.ns, path);
  return content === '' ? `<${name.local}${nsDecl}${attrs}/>` : `<${name.local}${nsDecl}${attrs}>${content}</${name.local}>`;
}

/** Encodes the attributes and content of a complex value whose element is in `ownNs`. */
export function encodeComplex(d: ServiceDescriptor, type: ComplexTypeDescriptor, value: unknown, ownNs: string, path: string): [string, string] {
  if (type.arrayItem !== undefined) {
    if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an array');
    return ['', encodeItems(d, type.arrayItem, value, ownNs, path)];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an object');
  }
  const record = value as Record<string, unknown>;
  const attrs = type.attributes.length === 0 ? '' : encodeAttributes(d, type, record, path);
  if (type.text !== undefined) {
    const resolved = resolveValue(d, type.text, path);
    if (resolved.kind !== 'primitive') throw new CodecError('CODEC_DESCRIPTOR', path, 'simple content must be of a simple type');
    const text = record['value'];
    if (text === undefined || text === null) return [attrs, ''];
    const lexical = primitiveCodec(resolved.xsd, path).encode(text, path);
    checkEnumeration(resolved.enumeration, lexical, path);
    return [attrs, escapeText(lexical, `${path}/value`)];
  }
  let content = '';
  for (const field of type.fields) content += encodeField(d, field, record[field.prop], ownNs, path);
  return [attrs, content];
}

/** Encodes one particle of a sequence: absent, one element, or several. */
function encodeField(d: ServiceDescriptor, field: FieldDescriptor, value: unknown, parentNs: string, parentPath: string): string {
  const path = `${parentPath}/${field.name.local}`;
  if (field.wildcard === true) return encodeWildcard(value, parentNs, path);
  if (field.maxOccurs !== 1) {
    if (value === undefined) {
      if (field.minOccurs > 0 && field.inChoice !== true) throw new CodecError('CODEC_MISSING', path, `required (at least ${field.minOccurs})`);
      return '';
    }
    if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an array (maxOccurs > 1)');
    if (value.length < field.minOccurs && field.inChoice !== true) throw new CodecError('CODEC_MISSING', path, `${value.length} given, at least ${field.minOccurs} required`);
    if (field.maxOccurs > 0 && value.length > field.maxOccurs) throw new CodecError('CODEC_UNEXPECTED', path, `${value.length} given, at most ${field.maxOccurs} allowed`);
    return encodeItems(d, field, value, parentNs, parentPath);
  }
  if (value === undefined) {
    if (field.minOccurs > 0 && field.inChoice !== true) throw new CodecError('CODEC_MISSING', path, 'required');
    return '';
  }
  return encodeElement(d, field.name, field.value, value, field.nillable, parentNs, path);
}

function encodeItems(d: ServiceDescriptor, item: FieldDescriptor, values: readonly unknown[], parentNs: string, parentPath: string): string {
  let out = '';
  for (let i = 0; i < values.length; i++) {
    out += encodeElement(d, item.name, item.value, values[i], item.nillable, parentNs, `${parentPath}/${item.name.local}[${i + 1}]`);
  }
  return out;
}

function encodeWildcard(value: unknown, parentNs: string, path: string): string {
  if (value === undefined) return '';
  const items = Array.isArray(value) ? value : [value];
  let out = '';
  for (const item of items) {
    if (!isXmlElement(item)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected XmlElement values for a wildcard');
    out += writeElement(item, { '': parentNs }, path);
  }
  return out;
}

function encodeAttributes(d: ServiceDescriptor, type: ComplexTypeDescriptor, record: Record<string, unknown>, path: string): string {
  let out = '';
  let prefixes = 0;
  for (const attribute of type.attributes) {
    const value = record[attribute.prop];
    const attrPath = `${path}/@${attribute.name.local}`;
    if (value === undefined || value === null) {
      if (attribute.required) throw new CodecError('CODEC_MISSING', attrPath, 'required attribute');
      continue;
    }
    const resolved = resolveValue(d, attribute.value, attrPath);
    if (resolved.kind !== 'primitive') throw new CodecError('CODEC_DESCRIPTOR', attrPath, 'an attribute must be of a simple type');
    const lexical = primitiveCodec(resolved.xsd, attrPath).encode(value, attrPath);
    checkEnumeration(resolved.enumeration, lexical, attrPath);
    const text = escapeAttr(lexical, attrPath);
    if (attribute.name.ns === '') {
      out += ` ${attribute.name.local}="${text}"`;
    } else {
      // Qualified attributes need a prefix (a default namespace does not apply to attributes).
      const prefix = `a${++prefixes}`;
      out += ` xmlns:${prefix}="${escapeAttr(attribute.name.ns, attrPath)}" ${prefix}:${attribute.name.local}="${text}"`;
    }
  }
  return out;
}

export function isXmlElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'element' && Array.isArray((value as { children?: unknown }).children);
}
