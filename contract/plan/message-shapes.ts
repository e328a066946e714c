/**
 * The messages of one binding operation as the generated code carries them: the SOAP body
 * element of each direction, the HTTP parameters' values and the HTTP result part. Shared by
 * the service plan, the carriage check and the descriptor.
 */
import {
  clark,
  type Binding,
  type BindingOperation,
  type MessagePart,
  type ModelWarning,
  type Protocol,
  type QName,
  type SoapHeaderUse,
  type WsdlModel,
} from '../model/index.js';
import { refuse } from '../errors.js';
import { throwIfOmitted } from './omitted.js';
import type { SchemaPlan } from './schema.js';
import { resolveValue, type PlannedValue } from './values.js';

export const SOAP_PROTOCOLS: ReadonlySet<Protocol> = new Set(['soap11', 'soap12']);

export interface SyntheticField {
  readonly prop: string;
  readonly value: PlannedValue;
  readonly optional: boolean;
}

export type MethodShape =
  | { readonly kind: 'element'; readonly element: string }
  | {
      readonly kind: 'synthetic';
      readonly tsName: string;
      readonly fields: readonly SyntheticField[];
      /** Set for an rpc/literal wrapper (the fields are its parts); else HTTP parameters / result. */
      readonly rpc?: QName;
    }
  /**
   * document style with one part declared by `type` (a WS-I deviation, R2204, some stacks emit):
   * the body element is the part's name without namespace, holding a value of that type.
   */
  | { readonly kind: 'part'; readonly element: QName; readonly value: PlannedValue }
  | { readonly kind: 'empty' };

/** document style, one body part declared by `type`: the element and the part (see MethodShape 'part'). */
export interface TypedPartShape {
  readonly kind: 'typed-part';
  readonly element: QName;
  readonly part: MessagePart;
}

/**
 * An rpc/literal body (WSDL 1.1 §3.5, WS-I BP R2729/R2735): a wrapper element named after the
 * operation (`<op>Response` for the output) in the soap:body namespace, holding one accessor
 * per part — the part's name without namespace for a `type` part, the element for an `element` part.
 */
export interface RpcShape {
  readonly kind: 'rpc';
  readonly wrapper: QName;
  readonly parts: readonly { readonly part: MessagePart; readonly accessor: QName }[];
}

/** The body of a SOAP operation's input or output: one document/literal element, or an rpc/literal wrapper. */
export function soapShape(
  model: WsdlModel,
  binding: Binding,
  op: BindingOperation,
  direction: 'input' | 'output',
): MethodShape | RpcShape | TypedPartShape {
  const style = op.style ?? binding.style ?? 'document';
  const where = `operation ${op.name} of binding ${binding.name.local}`;
  const body = direction === 'input' ? op.inputBody : op.outputBody;
  if (body?.use === 'encoded' || [...op.inputHeaders, ...op.outputHeaders].some((h) => h.use === 'encoded'))
    refuse(
      'UNSUPPORTED_CONSTRUCT',
      `use="encoded" (${style}/encoded, ${where}) is not supported; only literal messages can be modelled faithfully`,
      op.source,
    );
  const messageName = direction === 'input' ? op.portTypeOperation.input : op.portTypeOperation.output;
  if (messageName === undefined) return { kind: 'empty' };
  const message = findMessage(model, messageName, op);
  const named = body?.parts ?? [];
  const unknown = named.find((name) => !message.parts.some((p) => p.name === name));
  if (unknown !== undefined)
    refuse(
      'MISSING_REFERENCE',
      `<soap:body parts="${named.join(' ')}"> names "${unknown}", which message ${message.name.local} has no part of (${where}, ${direction})`,
      op.source,
    );
  const parts = bodyParts(op, direction, messageName, message.parts);
  if (style === 'rpc') {
    const ns = body?.namespace ?? model.targetNamespace;
    return {
      kind: 'rpc',
      wrapper: { ns, local: direction === 'input' ? op.name : `${op.name}Response` },
      parts: parts.map((part) => {
        if (part.element !== undefined && model.schema.elements[clark(part.element)] === undefined)
          refuse(
            'MISSING_REFERENCE',
            `element ${clark(part.element)} (part ${part.name}) is not declared`,
            message.source,
          );
        return { part, accessor: part.element ?? { ns: '', local: part.name } };
      }),
    };
  }
  if (parts.length === 0) return { kind: 'empty' };
  if (parts.length > 1)
    refuse(
      'UNSUPPORTED_CONSTRUCT',
      `message ${message.name.local} has ${parts.length} body parts (${where}); document/literal needs one`,
      message.source,
    );
  const part = parts[0]!;
  if (part.element === undefined) return { kind: 'typed-part', element: { ns: '', local: part.name }, part };
  const element = clark(part.element);
  if (model.schema.elements[element] === undefined) {
    throwIfOmitted(model, `element:${element}`);
    refuse('MISSING_REFERENCE', `element ${element} (message ${message.name.local}) is not declared`, message.source);
  }
  return { kind: 'element', element };
}

/**
 * The parts a soap:body carries: those its `parts` attribute names; without one, every part of
 * the message except those a soap:header of the same direction binds. WS-I BP R2210 wants
 * `parts` whenever the message has more than one part; zeep and .NET read the header-bound
 * parts out of the body when it is missing, and so does this (with a warning, headerPartsWarning).
 */
export function bodyParts(
  op: BindingOperation,
  direction: 'input' | 'output',
  messageName: QName,
  parts: readonly MessagePart[],
): MessagePart[] {
  const body = direction === 'input' ? op.inputBody : op.outputBody;
  if (body?.parts !== undefined) return parts.filter((p) => body.parts!.includes(p.name));
  const inHeaders = headerBoundParts(op, direction, messageName);
  return parts.filter((p) => !inHeaders.has(p.name));
}

function headerBoundParts(op: BindingOperation, direction: 'input' | 'output', messageName: QName): Set<string> {
  const headers = direction === 'input' ? op.inputHeaders : op.outputHeaders;
  return new Set(headers.filter((h) => clark(h.message) === clark(messageName)).map((h) => h.part));
}

/** The warning for a body without `parts` whose message also holds header-bound parts (R2210). */
export function headerPartsWarning(
  model: WsdlModel,
  binding: Binding,
  op: BindingOperation,
  direction: 'input' | 'output',
): ModelWarning | undefined {
  const messageName = direction === 'input' ? op.portTypeOperation.input : op.portTypeOperation.output;
  const body = direction === 'input' ? op.inputBody : op.outputBody;
  if (messageName === undefined || body === undefined || body.parts !== undefined) return undefined;
  const inHeaders = headerBoundParts(op, direction, messageName);
  if (inHeaders.size === 0) return undefined;
  const message = findMessage(model, messageName, op);
  const inBody = message.parts.filter((p) => !inHeaders.has(p.name)).map((p) => p.name);
  return {
    code: 'HEADER_PARTS_IN_BODY_MESSAGE',
    message:
      `operation ${op.name} of binding ${binding.name.local}: the ${direction} message ${message.name.local} has ` +
      `${message.parts.length} parts, of which ${[...inHeaders].join(' and ')} bound as soap:header, and its soap:body ` +
      `names none (WS-I BP R2210 wants parts="…" then); read as zeep and .NET do: the body is ${inBody.join(', ') || 'empty'}, the part${inBody.length === 1 ? '' : 's'} no header binds`,
    source: op.source,
  };
}

export function findMessage(model: WsdlModel, name: QName, op: BindingOperation) {
  const message = model.messages.find((m) => clark(m.name) === clark(name));
  if (message === undefined) {
    throwIfOmitted(model, `message:${clark(name)}`);
    refuse('MISSING_REFERENCE', `message ${clark(name)} (operation ${op.name}) is not declared`, op.source);
  }
  return message;
}

export function partValue(schema: SchemaPlan, part: MessagePart, op: BindingOperation): PlannedValue {
  if (part.element !== undefined) {
    const element = schema.elements.get(clark(part.element));
    if (element === undefined)
      refuse('MISSING_REFERENCE', `element ${clark(part.element)} (part ${part.name}) is not declared`, op.source);
    return element.value;
  }
  if (part.type !== undefined) return resolveValue(part.type, schema.lookup, op.source);
  return refuse('UNSUPPORTED_CONSTRUCT', `part ${part.name} has neither element nor type`, op.source);
}

/** The message part an HTTP operation answers with (`mime:mimeXml part=...`). */
export function httpResultPart(model: WsdlModel, op: BindingOperation, outputName: QName) {
  const out = op.httpOutput;
  if (out === undefined || out.kind !== 'mimeXml') {
    refuse(
      'UNSUPPORTED_CONSTRUCT',
      `HTTP operation ${op.name} answers ${out === undefined ? 'nothing declared' : out.kind === 'mimeContent' ? `mime:content ${out.type}` : out.what}; only mime:mimeXml is supported`,
      op.source,
    );
  }
  const message = findMessage(model, outputName, op);
  const part = out.part !== undefined ? message.parts.find((p) => p.name === out.part) : message.parts[0];
  if (part === undefined)
    refuse(
      'MISSING_REFERENCE',
      `part ${out.part ?? '(first)'} of message ${message.name.local} is missing`,
      message.source,
    );
  return part;
}

/** An HTTP operation whose output message has no parts answers nothing (a void method). */
export function httpOutputIsEmpty(model: WsdlModel, op: BindingOperation, outputName: QName): boolean {
  return findMessage(model, outputName, op).parts.length === 0;
}

/** A SOAP header block as the generated code names it: its element and its property. */
export interface HeaderProp {
  /** Clark key of the header element. */
  readonly element: string;
  /** Property on the operation's header object: the element's local name, numbered on a clash. */
  readonly prop: string;
}

export function headerProps(headers: readonly SoapHeaderUse[]): HeaderProp[] {
  const used = new Set<string>();
  return headers.map((h) => {
    let prop = h.element.local;
    for (let n = 2; used.has(prop); n++) prop = `${h.element.local}_${n}`;
    used.add(prop);
    return { element: clark(h.element), prop };
  });
}
