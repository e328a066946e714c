/**
 * A straight-line writer for the commonest message element: a sequence of single, simple-typed
 * fields in the element's own namespace (SMSSend and SMSSendResponse are such; so are most
 * ASMX and WCF request and response wrappers). It is made once per element from the
 * descriptor, and writes a value with the tags already built, where the generic encoder
 * (encode.ts) works out the element's type, layout and tags again for every value.
 *
 * It writes exactly what `encodeElement` writes for the message's top element, or gives
 * undefined for any value outside the plain case (a null, a missing required field, an unknown
 * property, a value its codec refuses): the caller then takes the generic path, which writes
 * that value or reports its error in its own words. test/runtime/plain-writer.test.ts checks the
 * two against each other.
 *
 * Why: the response encoding was a fifth of the generated server's JavaScript per SOAP request
 * (bench/README.md). Each writer also counts the UTF-8 bytes it writes: the server's
 * Content-Length then needs no `Buffer.byteLength` of the whole answer, which first copies the
 * concatenated text into one flat string (a sixth of a SOAP request's JavaScript).
 */
import { Buffer } from 'node:buffer';
import type { ElementDescriptor, ServiceDescriptor } from '../descriptor.js';
import { escapeAttr, escapeText } from '../escape/xml.js';
import { layoutOf } from './field-layout.js';
import { isPolymorphic } from './polymorphism.js';
import { encodeLexical, resolveValue, type PrimitiveValue } from './shared.js';

/** Written markup and its length in UTF-8 bytes (UNCOUNTED where nobody counted them). */
export interface Written {
  readonly text: string;
  readonly bytes: number;
}

export const UNCOUNTED = -1;

/** The element written for `value`, or undefined when the value is outside the plain case. */
export type PlainWriter = (value: unknown) => Written | undefined;

interface PlainField {
  readonly prop: string;
  readonly optional: boolean;
  readonly value: PrimitiveValue;
  readonly openTag: string;
  readonly close: string;
  /** UTF-8 bytes of the two tags. */
  readonly tagBytes: number;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 length of a short text: its length when it is ASCII, as it nearly always is. */
function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? Buffer.byteLength(text) : text.length;
}

/**
 * The writer for the top element of a message (`encodeElement` with no default namespace in
 * scope), or undefined when the element's type is not a plain sequence.
 */
export function plainWriterFor(d: ServiceDescriptor, element: ElementDescriptor): PlainWriter | undefined {
  const plain = plainType(d, element);
  if (plain === undefined) return undefined;
  const start = topStart(element);
  if (start === undefined) return undefined;
  const { fields, members } = plain;
  const open = `${start}>`;
  const close = `</${element.name.local}>`;
  const emptyText = `${start}/>`;
  const empty: Written = { text: emptyText, bytes: Buffer.byteLength(emptyText) };
  const wrapBytes = Buffer.byteLength(open + close);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array)
      return undefined;
    const record = value as Record<string, unknown>;
    for (const key in record) if (!members.has(key)) return undefined;
    let content = '';
    let bytes = wrapBytes;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      const given = record[field.prop];
      if (given === undefined) {
        if (field.optional) continue;
        return undefined;
      }
      const text = given === null ? undefined : plainText(field.value, given);
      if (text === undefined) return undefined;
      content += field.openTag + text + field.close;
      bytes += field.tagBytes + utf8Length(text);
    }
    return content === '' ? empty : { text: open + content + close, bytes };
  };
}

/**
 * The writer for a top element of a simple type (`<string xmlns="…">text</string>`, the HTTP
 * GET/POST answer of an operation with one simple result), or undefined for any other element.
 * Like the plain writer it gives undefined for a value it does not write (null, undefined, one
 * its codec refuses), which the generic path then writes or reports.
 */
export function simpleWriterFor(d: ServiceDescriptor, element: ElementDescriptor): PlainWriter | undefined {
  let value: PrimitiveValue;
  try {
    const resolved = resolveValue(d, element.value, element.name.local);
    if (resolved.kind !== 'primitive' || resolved.codec === undefined) return undefined;
    value = resolved;
  } catch {
    return undefined; // a descriptor error: the generic path reports it where the element is met
  }
  const start = topStart(element);
  if (start === undefined) return undefined;
  const open = `${start}>`;
  const close = `</${element.name.local}>`;
  const wrapBytes = Buffer.byteLength(open + close);
  return (given) => {
    const text = given === undefined || given === null ? undefined : plainText(value, given);
    return text === undefined ? undefined : { text: open + text + close, bytes: wrapBytes + utf8Length(text) };
  };
}

/**
 * The top element's start tag, without its `>`: no default namespace is in scope at the top, so
 * only a namespaced element declares one. Undefined for a namespace XML cannot carry, which the
 * generic path reports where it is written.
 */
function topStart(element: ElementDescriptor): string | undefined {
  const { ns, local } = element.name;
  try {
    return ns === '' ? `<${local}` : `<${local} xmlns="${escapeAttr(ns, '')}"`;
  } catch {
    return undefined;
  }
}

/** A simple value's escaped text, or undefined when its codec refuses it. */
function plainText(value: PrimitiveValue, given: unknown): string | undefined {
  try {
    return escapeText(encodeLexical(value, given, ''), '');
  } catch {
    return undefined;
  }
}

/**
 * The element's fields and the properties its values may have, when its type is a plain
 * sequence (see the module comment); else undefined.
 */
function plainType(
  d: ServiceDescriptor,
  element: ElementDescriptor,
): { fields: PlainField[]; members: ReadonlySet<string> } | undefined {
  try {
    const resolved = resolveValue(d, element.value, element.name.local);
    if (resolved.kind !== 'complex') return undefined;
    const type = resolved.type;
    if (type.arrayItem !== undefined || type.text !== undefined || type.attributes.length !== 0 || isPolymorphic(type))
      return undefined;
    const layout = layoutOf(type);
    const fields: PlainField[] = [];
    for (const slot of layout.fields) {
      const field = slot.field;
      if (field.wildcard === true || field.inChoice === true || field.maxOccurs !== 1) return undefined;
      if (slot.ns !== element.name.ns) return undefined;
      const value = resolveValue(d, field.value, field.prop);
      if (value.kind !== 'primitive' || value.codec === undefined) return undefined;
      fields.push({
        prop: field.prop,
        optional: field.minOccurs === 0,
        value,
        openTag: slot.openTag,
        close: slot.close,
        tagBytes: Buffer.byteLength(slot.openTag + slot.close),
      });
    }
    return { fields, members: layout.members };
  } catch {
    return undefined; // a descriptor error: the generic path reports it where the element is met
  }
}
