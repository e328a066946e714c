/**
 * Operation messages: the input or output value of an operation <-> the element that carries
 * it (the SOAP Body child, a SOAP header block). Shared by the SOAP bindings on both sides.
 */
import type { BodyDescriptor, ElementDescriptor, HeaderDescriptor, ServiceDescriptor } from './descriptor.js';
import { CodecError } from './errors.js';
import { decodeElement, encodeElement, encodeElementWith } from './codec/index.js';
import { plainWriterFor, UNCOUNTED, type PlainWriter, type Written } from './codec/plain-writer.js';
import type { XmlElement } from './xml/types.js';

export function elementOf(d: ServiceDescriptor, key: string, path: string): ElementDescriptor {
  const element = d.elements[key];
  if (element === undefined)
    throw new CodecError('CODEC_DESCRIPTOR', path, `the element ${key} is not in the descriptor`);
  return element;
}

/**
 * Encodes a document/literal body value as its element ('' for an empty message), for a SOAP
 * envelope (which declares the xsi prefix).
 */
export function encodeBody(d: ServiceDescriptor, body: BodyDescriptor, value: unknown, path: string): string {
  return writeBody(d, body, value, path).text;
}

const EMPTY_BODY: Written = { text: '', bytes: 0 };

/** encodeBody, with the UTF-8 bytes counted where the plain writer wrote the element. */
export function writeBody(d: ServiceDescriptor, body: BodyDescriptor, value: unknown, path: string): Written {
  if (body.kind === 'empty') return EMPTY_BODY;
  if (body.kind !== 'element')
    throw new CodecError('CODEC_DESCRIPTOR', path, `a SOAP body cannot be of kind ${body.kind}`);
  let plain = plainWriters.get(body);
  if (plain === undefined) {
    const element = d.elements[body.element];
    plain = (element === undefined ? undefined : plainWriterFor(d, element)) ?? null;
    plainWriters.set(body, plain);
  }
  const written = plain?.(value);
  if (written !== undefined) return written;
  const element = elementOf(d, body.element, path);
  const text = encodeElement(d, element.name, element.value, value, element.nillable, '', element.name.local, true);
  return { text, bytes: UNCOUNTED };
}

/** Per body descriptor: the straight-line writer of its element, or null where it has none. */
const plainWriters = new WeakMap<BodyDescriptor, PlainWriter | null>();

/** Decodes a SOAP Body child against the expected message; a different element is an error. */
export function decodeBody(d: ServiceDescriptor, body: BodyDescriptor, el: XmlElement | undefined): unknown {
  if (body.kind === 'empty') return undefined;
  if (body.kind !== 'element')
    throw new CodecError('CODEC_DESCRIPTOR', '', `a SOAP body cannot be of kind ${body.kind}`);
  const element = elementOf(d, body.element, '');
  if (el === undefined)
    throw new CodecError(
      'CODEC_MISSING',
      'Body',
      `the Body holds no element, expected {${element.name.ns}}${element.name.local}`,
    );
  if (el.local !== element.name.local || el.ns !== element.name.ns) {
    throw new CodecError(
      'CODEC_UNEXPECTED',
      `Body/${el.local}`,
      `unexpected element {${el.ns}}${el.local}, expected {${element.name.ns}}${element.name.local}`,
    );
  }
  return decodeElement(d, element.value, el, element.nillable, element.name.local);
}

/** Header blocks to mark mustUnderstand, and the attribute that marks one in this SOAP version. */
export interface MustUnderstand {
  readonly props: readonly string[];
  /** ` soap:mustUnderstand="1"` (1.1) or ` soap:mustUnderstand="true"` (1.2). */
  readonly attribute: string;
}

/**
 * Encodes the header blocks given by property name, in the descriptor's order, for a SOAP
 * envelope. An unknown property is an error, and so is a mustUnderstand name that is not a
 * given header (the mark would otherwise be lost without a word).
 */
export function encodeHeaders(
  d: ServiceDescriptor,
  headers: readonly HeaderDescriptor[],
  values: object | undefined,
  mustUnderstand?: MustUnderstand,
): string {
  const must = mustUnderstand?.props ?? [];
  if (values === undefined) {
    if (must.length !== 0)
      throw new CodecError(
        'CODEC_MISSING',
        `Header/${must[0]!}`,
        'marked mustUnderstand but no SOAP headers are given',
      );
    return '';
  }
  const record = values as Record<string, unknown>;
  let out = '';
  for (const header of headers) {
    const value = record[header.prop];
    if (value === undefined) continue;
    const element = elementOf(d, header.element, header.prop);
    const attrs = must.length !== 0 && must.includes(header.prop) ? mustUnderstand!.attribute : '';
    out += encodeElementWith(
      d,
      element.name,
      element.value,
      value,
      element.nillable,
      '',
      `Header/${element.name.local}`,
      true,
      attrs,
    );
  }
  for (const prop of Object.keys(record)) {
    if (!headers.some((h) => h.prop === prop))
      throw new CodecError('CODEC_UNEXPECTED', `Header/${prop}`, 'this operation declares no such SOAP header');
  }
  for (const prop of must) {
    if (record[prop] === undefined)
      throw new CodecError('CODEC_MISSING', `Header/${prop}`, 'marked mustUnderstand but not given');
  }
  return out;
}

/** Decodes the declared header blocks present in `blocks` into an object keyed by property. */
export function decodeHeaders(
  d: ServiceDescriptor,
  headers: readonly HeaderDescriptor[],
  blocks: readonly XmlElement[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (headers.length === 0 || blocks.length === 0) return out;
  for (const header of headers) {
    const element = elementOf(d, header.element, header.prop);
    const block = blocks.find((b) => b.local === element.name.local && b.ns === element.name.ns);
    if (block !== undefined)
      out[header.prop] = decodeElement(d, element.value, block, element.nillable, `Header/${element.name.local}`);
  }
  return out;
}

/** Whether a header block is one of the operation's declared headers. */
export function isDeclaredHeader(
  d: ServiceDescriptor,
  headers: readonly HeaderDescriptor[],
  block: XmlElement,
): boolean {
  for (const header of headers) {
    const element = d.elements[header.element];
    if (element !== undefined && element.name.local === block.local && element.name.ns === block.ns) return true;
  }
  return false;
}
