/**
 * Values as JSON: what `smskit call` and the conformance runner's `--inputs` read, and what
 * they print. The runtime's own values use `bigint` (long), `Uint8Array` (base64Binary) and
 * `XmlElement` (anyType), which JSON cannot hold, so this module converts by the descriptor:
 *
 * - a simple value may be given as its JSON type (number, boolean, string) or as its XML lexical
 *   form in a string (`"6"` for an int, `"9223372036854775807"` for a long, base64 for bytes):
 *   the form a command-line `--param` or a YAML file naturally gives;
 * - a complex value is an object of the generated property names; a polymorphic one names its
 *   concrete type in `$type`, as in TypeScript; arrays are arrays; `null` is xsi:nil;
 * - arbitrary XML is a string holding one element.
 *
 * Every mistake is a CodecError naming the path, like the wire codecs.
 */
import type { ComplexTypeDescriptor, FieldDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { readXml } from '../xml/reader.js';
import { writeElement } from '../xml/writer.js';
import { isXmlElement } from './encode.js';
import { concreteType, isPolymorphic } from './polymorphism.js';
import { primitiveCodec, isStringLike } from './primitives.js';
import { checkEnumeration, resolveValue } from './shared.js';

/** A runtime value from JSON, for an element described by `vd`. */
export function valueFromJson(
  d: ServiceDescriptor,
  vd: ValueDescriptor,
  json: unknown,
  nillable: boolean,
  path: string,
): unknown {
  if (json === null) {
    if (!nillable) throw new CodecError('CODEC_NIL', path, 'null given for an element that is not nillable');
    return null;
  }
  const resolved = resolveValue(d, vd, path);
  if (resolved.kind === 'xml') return xmlFromJson(json, path);
  if (resolved.kind === 'primitive') return primitiveFromJson(resolved.xsd, resolved.enumeration, json, path);
  return complexFromJson(d, resolved.type, json, path);
}

function primitiveFromJson(
  xsd: string,
  enumeration: readonly string[] | undefined,
  json: unknown,
  path: string,
): unknown {
  const codec = primitiveCodec(xsd, path);
  if (typeof json === 'string') {
    // A string is the lexical form; for string types it is the value itself.
    const value = isStringLike(xsd) ? json : codec.decode(json.trim(), path);
    checkEnumeration(enumeration, codec.encode(value, path), path);
    return value;
  }
  if (typeof json === 'number' || typeof json === 'boolean') {
    // Let the codec judge: it knows ranges, integrality and which types take a boolean.
    const value =
      typeof json === 'number' && Number.isInteger(json) && typeof codec.decode('0', path) === 'bigint'
        ? BigInt(json)
        : json;
    const lexical = codec.encode(typeof json === 'number' && xsd === 'decimal' ? String(json) : value, path);
    checkEnumeration(enumeration, lexical, path);
    return codec.decode(lexical, path);
  }
  throw new CodecError('CODEC_INVALID_VALUE', path, `expected a ${describeXsd(xsd)}, got ${describeJson(json)}`);
}

function complexFromJson(d: ServiceDescriptor, declared: ComplexTypeDescriptor, json: unknown, path: string): unknown {
  if (declared.arrayItem !== undefined) return itemsFromJson(d, declared.arrayItem, json, path);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CodecError('CODEC_INVALID_VALUE', path, `expected an object, got ${describeJson(json)}`);
  const record = json as Record<string, unknown>;
  const type = isPolymorphic(declared) ? concreteType(d, declared, record, path) : declared;
  const out: Record<string, unknown> = isPolymorphic(declared) ? { $type: record.$type } : {};
  const known = new Set<string>(isPolymorphic(declared) ? ['$type'] : []);
  for (const field of type.fields) {
    known.add(field.prop);
    const value = record[field.prop];
    if (value !== undefined) out[field.prop] = fieldFromJson(d, field, value, `${path}/${field.name.local}`);
  }
  for (const attribute of type.attributes) {
    known.add(attribute.prop);
    const value = record[attribute.prop];
    if (value !== undefined)
      out[attribute.prop] = valueFromJson(d, attribute.value, value, false, `${path}/@${attribute.name.local}`);
  }
  if (type.text !== undefined) {
    known.add('value');
    if (record.value !== undefined) out.value = valueFromJson(d, type.text, record.value, false, `${path}/value`);
  }
  for (const prop of Object.keys(record)) {
    if (!known.has(prop))
      throw new CodecError(
        'CODEC_UNEXPECTED',
        `${path}/${prop}`,
        `not a member of this type (members: ${[...known].join(', ') || 'none'})`,
      );
  }
  return out;
}

function fieldFromJson(d: ServiceDescriptor, field: FieldDescriptor, json: unknown, path: string): unknown {
  if (field.wildcard === true)
    return (Array.isArray(json) ? json : [json]).map((item, i) => xmlFromJson(item, `${path}[${i + 1}]`));
  if (field.maxOccurs !== 1) return itemsFromJson(d, field, json, path);
  return valueFromJson(d, field.value, json, field.nillable, path);
}

function itemsFromJson(d: ServiceDescriptor, item: FieldDescriptor, json: unknown, path: string): unknown[] {
  if (!Array.isArray(json))
    throw new CodecError('CODEC_INVALID_VALUE', path, `expected an array, got ${describeJson(json)}`);
  return json.map((value, i) =>
    valueFromJson(d, item.value, value, item.nillable, `${path}/${item.name.local}[${i + 1}]`),
  );
}

function xmlFromJson(json: unknown, path: string): unknown {
  if (isXmlElement(json)) return json;
  if (typeof json !== 'string')
    throw new CodecError('CODEC_INVALID_VALUE', path, `expected XML text (one element), got ${describeJson(json)}`);
  try {
    return readXml(Buffer.from(json, 'utf8')).root;
  } catch (err) {
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      path,
      `not well-formed XML: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/**
 * A runtime value as JSON: `bigint` as a decimal string, bytes as base64, XML as its text.
 * The inverse of valueFromJson for every value the codecs produce.
 */
export function valueToJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (isXmlElement(value)) return writeElement(value, {}, '');
  if (Array.isArray(value)) return value.map(valueToJson);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = valueToJson(item);
    return out;
  }
  return value;
}

function describeXsd(xsd: string): string {
  return `value of xs:${xsd} (its JSON type, or its XML text in a string)`;
}

function describeJson(json: unknown): string {
  if (json === null) return 'null';
  if (Array.isArray(json)) return 'an array';
  if (typeof json === 'string')
    return `the string ${JSON.stringify(json.length > 40 ? `${json.slice(0, 40)}...` : json)}`;
  return typeof json === 'object' ? 'an object' : `${typeof json} ${String(json)}`;
}

/**
 * The input object of a method from JSON: the SOAP input wrapper's value when the service has
 * a SOAP binding (the same object on every binding), else the HTTP parameters by name.
 */
export function operationInputFromJson(d: ServiceDescriptor, method: string, json: unknown): unknown {
  const ops = d.bindings.flatMap((b) => b.operations.filter((o) => o.method === method));
  const soap = ops.find((o) => o.input.kind === 'element');
  if (soap !== undefined && soap.input.kind === 'element') {
    const element = d.elements[soap.input.element];
    if (element === undefined)
      throw new CodecError('CODEC_DESCRIPTOR', method, `the element ${soap.input.element} is not in the descriptor`);
    return valueFromJson(d, element.value, json, element.nillable, element.name.local);
  }
  const http = ops.find((o) => o.input.kind === 'params');
  if (http === undefined || http.input.kind !== 'params') return undefined;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CodecError('CODEC_INVALID_VALUE', method, `expected an object of parameters, got ${describeJson(json)}`);
  const record = json as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const param of http.input.params)
    if (record[param.name] !== undefined)
      out[param.name] = valueFromJson(d, param.value, record[param.name], false, `${method}/${param.name}`);
  for (const key of Object.keys(record)) {
    if (!http.input.params.some((p) => p.name === key))
      throw new CodecError(
        'CODEC_UNEXPECTED',
        `${method}/${key}`,
        `not a parameter (parameters: ${http.input.params.map((p) => p.name).join(', ')})`,
      );
  }
  return out;
}

/** The request's SOAP header blocks of a method from JSON, by header property. */
export function soapHeadersFromJson(d: ServiceDescriptor, method: string, json: unknown): Record<string, unknown> {
  const op = d.bindings.flatMap((b) => b.operations).find((o) => o.method === method && o.inputHeaders.length > 0);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new CodecError(
      'CODEC_INVALID_VALUE',
      'Header',
      `expected an object of header blocks, got ${describeJson(json)}`,
    );
  const out: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(json as Record<string, unknown>)) {
    const header = op?.inputHeaders.find((h) => h.prop === prop);
    if (header === undefined)
      throw new CodecError(
        'CODEC_UNEXPECTED',
        `Header/${prop}`,
        `${method} declares no such SOAP header (${op?.inputHeaders.map((h) => h.prop).join(', ') || 'it declares none'})`,
      );
    const element = d.elements[header.element];
    if (element === undefined)
      throw new CodecError(
        'CODEC_DESCRIPTOR',
        `Header/${prop}`,
        `the element ${header.element} is not in the descriptor`,
      );
    out[prop] = valueFromJson(d, element.value, value, element.nillable, `Header/${element.name.local}`);
  }
  return out;
}
