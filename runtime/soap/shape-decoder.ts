/**
 * Shape decoders: decoding requests of a known envelope shape (xml/shape-cache.ts). When requests of one shape keep
 * arriving, the generic path (build the tree, find Header and Body, route, decode the Body
 * child field by field) gives every time the same structure with other texts. A shape decoder records,
 * from one such decode, which text of the shape feeds which field and through which XSD codec,
 * and then decodes the next requests of that shape from their texts alone, without building
 * the tree.
 *
 * A shape decoder is made only for the plain case: no Header, a Body child without attributes whose
 * type is a sequence of single, simple-typed, attribute-less elements (SMSSend is one). Per
 * request it re-checks what the texts could change — whitespace where only whitespace is
 * allowed, the SOAP action (routing), each value through its codec — and on anything unusual
 * (a different operation, an invalid value, a codec error) it declines, and the request takes
 * the generic path, which answers exactly as it would have. test/runtime/shape-decoder.test.ts
 * checks differentially that a shape decoder's result equals the generic path's.
 *
 * Why: with the shape cache, decoding was the largest part left of the SOAP work per request
 * under load (bench/README.md).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type {
  ComplexTypeDescriptor,
  FieldDescriptor,
  NameDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
} from '../descriptor.js';
import { resolveValue } from '../codec/index.js';
import { decodeLexical, type PrimitiveValue } from '../codec/shared.js';
import type { ContentType } from '../content-type.js';
import { elementOf } from '../message.js';
import type { XmlDocument, XmlElement } from '../xml/types.js';
import type { SoapVersion } from '../soap-version/version.js';

/** Where a field's text is: a text slot of the shape, or none (an empty element). */
interface FieldStep {
  readonly prop: string;
  readonly slot: number;
  readonly value: PrimitiveValue;
  readonly path: string;
}

/** What routing needs of a SOAP endpoint (endpoint.ts's SoapEndpoint). */
export interface ShapeEndpoint {
  readonly version: SoapVersion;
}

export interface ShapeDecoded<E extends ShapeEndpoint> {
  readonly ok: true;
  readonly version: SoapVersion;
  readonly endpoint: E;
  readonly op: OperationDescriptor;
  readonly input: unknown;
  readonly soapHeaders: Record<string, unknown>;
}

export class ShapeDecoder<E extends ShapeEndpoint> {
  constructor(
    /** The endpoints of the request path the shape decoder was made on (they never cross paths). */
    readonly endpoints: object,
    private readonly endpoint: E,
    private readonly op: OperationDescriptor,
    private readonly bodyName: NameDescriptor,
    /** Slots in the Envelope and Body: text there must trim to nothing. */
    private readonly trimSlots: readonly number[],
    /** Slots between the fields: XML whitespace only (element-only content). */
    private readonly whitespaceSlots: readonly number[],
    private readonly fields: readonly FieldStep[],
  ) {}

  /**
   * The last action routed to this shape decoder's operation: a client sends the same one with
   * every request, so routing (two map lookups keyed by a fresh string) is done once per
   * action that changes, not per request. Routing depends only on the action and the Body
   * element, and the element is fixed by the shape.
   */
  private routedAction: string | undefined = undefined;
  private routed = false;

  /**
   * The decoded request, exactly as the generic path would give it; undefined when the shape decoder
   * declines (then the caller takes the generic path).
   */
  run(
    texts: readonly string[],
    headers: IncomingHttpHeaders,
    contentType: ContentType,
    route: (endpoint: E, action: string | undefined, body: NameDescriptor) => OperationDescriptor | string,
  ): ShapeDecoded<E> | undefined {
    for (const slot of this.trimSlots) if (texts[slot]!.trim() !== '') return undefined;
    for (const slot of this.whitespaceSlots) if (!isXmlWhitespace(texts[slot]!)) return undefined;
    const version = this.endpoint.version;
    const action = version.requestAction(headers, contentType);
    if (!this.routed || action !== this.routedAction) {
      if (route(this.endpoint, action, this.bodyName) !== this.op) return undefined;
      this.routedAction = action;
      this.routed = true;
    }
    const input: Record<string, unknown> = {};
    try {
      for (const f of this.fields) input[f.prop] = decodeLexical(f.value, f.slot < 0 ? '' : texts[f.slot]!, f.path);
    } catch {
      return undefined; // the generic path reports it, with its own message
    }
    return { ok: true, version, endpoint: this.endpoint, op: this.op, input, soapHeaders: {} };
  }
}

/**
 * A shape decoder for the shape of `doc`, from one successful generic decode of it (`endpoint`, `op`);
 * undefined when the shape is outside the plain case.
 */
export function shapeDecoderFor<E extends ShapeEndpoint>(
  d: ServiceDescriptor,
  endpoints: object,
  endpoint: E,
  op: OperationDescriptor,
  doc: XmlDocument,
): ShapeDecoder<E> | undefined {
  if (op.input.kind !== 'element') return undefined;
  const element = elementOf(d, op.input.element, op.name);
  const resolved = resolveValue(d, element.value, element.name.local);
  if (resolved.kind !== 'complex' || !isPlainSequence(resolved.type)) return undefined;
  const type = resolved.type;
  // Slots are numbered in document order, so each level is walked where it stands.
  let next = 0;
  const trimSlots: number[] = [];
  const whitespaceSlots: number[] = [];
  const fields: FieldStep[] = [];
  const envNs = endpoint.version.envNs;
  let bodies = 0;
  let operations = 0;
  for (const c of doc.root.children) {
    if (c.type === 'text') {
      trimSlots.push(next++);
      continue;
    }
    // Only a Body: a Header (blocks to check and decode) or trailing elements take the generic path.
    if (c.ns !== envNs || c.local !== 'Body' || c.attributes.length !== 0 || ++bodies > 1) return undefined;
    for (const b of c.children) {
      if (b.type === 'text') {
        trimSlots.push(next++);
        continue;
      }
      if (++operations > 1 || b.attributes.length !== 0 || b.ns !== element.name.ns || b.local !== element.name.local)
        return undefined;
      for (const f of b.children) {
        if (f.type === 'text') {
          whitespaceSlots.push(next++);
          continue;
        }
        const field = type.fields.find((candidate) => candidate.name.local === f.local && candidate.name.ns === f.ns);
        const step = field === undefined ? undefined : fieldStep(d, field, f, next, element.name.local);
        if (step === undefined) return undefined;
        if (step.slot >= 0) next++;
        fields.push(step);
      }
    }
  }
  if (operations !== 1) return undefined;
  return new ShapeDecoder(endpoints, endpoint, op, element.name, trimSlots, whitespaceSlots, fields);
}

/** A sequence of fields only: no attributes, text content, array or wildcard. */
function isPlainSequence(type: ComplexTypeDescriptor): boolean {
  return (
    type.arrayItem === undefined &&
    type.text === undefined &&
    type.attributes.length === 0 &&
    type.fields.every((f) => f.wildcard !== true)
  );
}

/** How a field element is decoded, its text at slot `slot` (if it has one). */
function fieldStep(
  d: ServiceDescriptor,
  field: FieldDescriptor,
  el: XmlElement,
  slot: number,
  parent: string,
): FieldStep | undefined {
  if (field.maxOccurs !== 1 || el.attributes.length !== 0) return undefined;
  const resolved = resolveValue(d, field.value, field.prop);
  if (resolved.kind !== 'primitive') return undefined;
  const hasText = el.children.length === 1 && el.children[0]!.type === 'text';
  if (!hasText && el.children.length !== 0) return undefined;
  return { prop: field.prop, slot: hasText ? slot : -1, value: resolved, path: `${parent}/${el.local}` };
}

function isXmlWhitespace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}
