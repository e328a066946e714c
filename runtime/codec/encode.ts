/**
 * Descriptor-driven encoding: a TypeScript value -> an XML fragment string, elements in
 * descriptor (schema) order. Namespaces are written as default-namespace declarations only
 * where the element's namespace differs from its parent's, which is what ASMX writes
 * (`<SMSSendResponse xmlns="...">` and unprefixed children) and needs no prefix bookkeeping.
 *
 * Nothing is dropped: a property that is not a member of the value's type is an error, and a
 * value of a type with derived types names its concrete type in `$type` (written as xsi:type).
 */
import type { ComplexTypeDescriptor, FieldDescriptor, NameDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { escapeAttr, escapeText, writeElement } from '../xml/writer.js';
import type { XmlElement } from '../xml/types.js';
import { primitiveCodec } from './primitives.js';
import { checkMembers, concreteType, isPolymorphic, xsiTypeAttribute } from './polymorphism.js';
import { XSI_NS, checkEnumeration, resolveValue } from './shared.js';

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
  return encodeElementWith(d, name, vd, value, nillable, parentNs, path, xsiInScope, '');
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
  const start = name.ns === parentNs ? `<${name.local}${extraAttrs}` : `<${name.local} xmlns="${escapeAttr(name.ns, path)}"${extraAttrs}`;
  if (value === null) {
    if (!nillable) throw new CodecError('CODEC_NIL', path, 'null given for an element that is not nillable');
    return `${start} xsi:nil="true"${xsiInScope ? '' : XSI_DECL}/>`;
  }
  const resolved = resolveValue(d, vd, path);
  if (resolved.kind === 'xml') {
    if (!isXmlElement(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an XmlElement');
    return writeElement(value, { '': parentNs }, path, name, extraAttrs);
  }
  if (resolved.kind === 'primitive') {
    const lexical = primitiveCodec(resolved.xsd, path).encode(value, path);
    checkEnumeration(resolved.enumeration, lexical, path);
    return `${start}>${escapeText(lexical, path)}</${name.local}>`;
  }
  let type = resolved.type;
  let typeAttr = '';
  let childXsi = xsiInScope;
  const polymorphic = isPolymorphic(type);
  if (polymorphic) {
    const concrete = concreteType(d, type, value, path);
    if (concrete !== type) {
      // The declared type itself is written without xsi:type, as ASMX does.
      typeAttr = xsiTypeAttribute(concrete, name.ns, path) + (xsiInScope ? '' : XSI_DECL);
      childXsi = true;
      type = concrete;
    }
  }
  const [attrs, content] = encodeComplex(d, type, value, name.ns, path, polymorphic, childXsi);
  return content === '' ? `${start}${typeAttr}${attrs}/>` : `${start}${typeAttr}${attrs}>${content}</${name.local}>`;
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
  if (type.arrayItem !== undefined) {
    if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an array');
    return ['', encodeItems(d, type.arrayItem, value, ownNs, path, xsiInScope)];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) {
    throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an object');
  }
  const record = value as Record<string, unknown>;
  checkMembers(type, record, polymorphic, path);
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
  for (const field of type.fields) content += encodeField(d, field, record[field.prop], ownNs, path, xsiInScope);
  return [attrs, content];
}

/** Encodes one particle of a sequence: absent, one element, or several. */
function encodeField(d: ServiceDescriptor, field: FieldDescriptor, value: unknown, parentNs: string, parentPath: string, xsiInScope: boolean): string {
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
    return encodeItems(d, field, value, parentNs, parentPath, xsiInScope);
  }
  if (value === undefined) {
    if (field.minOccurs > 0 && field.inChoice !== true) throw new CodecError('CODEC_MISSING', path, 'required');
    return '';
  }
  return encodeElement(d, field.name, field.value, value, field.nillable, parentNs, path, xsiInScope);
}

function encodeItems(d: ServiceDescriptor, item: FieldDescriptor, values: readonly unknown[], parentNs: string, parentPath: string, xsiInScope: boolean): string {
  let out = '';
  for (let i = 0; i < values.length; i++) {
    out += encodeElement(d, item.name, item.value, values[i], item.nillable, parentNs, `${parentPath}/${item.name.local}[${i + 1}]`, xsiInScope);
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
