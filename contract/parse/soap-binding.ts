/**
 * The SOAP 1.1 / SOAP 1.2 extensions of a binding operation: soap:operation, soap:body and
 * soap:header (resolved from message + part to the header element). `use="encoded"` is kept in
 * the model: the plan leaves such a binding out (with a warning naming it), as SOAP encoding
 * cannot be reproduced faithfully from a schema, while the WSDL's literal bindings still generate.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, qname, type Message, type QName, type SoapBodyUse, type SoapHeaderUse } from '../model/index.js';
import { WSDL_NS } from './namespaces.js';
import { at, attr, children, firstChild, requiredAttr, requiredQNameAttr, showQName, tagName } from './xml-access.js';

export interface SoapContext {
  readonly file: string;
  /** The binding's extension namespace (soap or soap12). */
  readonly ns: string;
  readonly binding: string;
  readonly operation: string;
  readonly messages: ReadonlyMap<string, Message>;
}

export interface SoapDirection {
  readonly body?: SoapBodyUse;
  readonly headers: SoapHeaderUse[];
}

export function readSoapOperationStyle(ctx: SoapContext, op: XmlElement, defaultStyle: 'document' | 'rpc') {
  const soapOp = firstChild(op, ctx.ns, 'operation');
  const style = soapOp === undefined ? undefined : attr(soapOp, 'style')?.trim();
  const required = soapOp === undefined ? undefined : attr(soapOp, 'soapActionRequired')?.trim();
  return {
    soapAction: soapOp === undefined ? '' : (attr(soapOp, 'soapAction') ?? ''),
    ...(required === undefined ? {} : { soapActionRequired: required === 'true' || required === '1' }),
    style: style === undefined ? defaultStyle : checkStyle(ctx.file, soapOp!, style),
  };
}

export function checkStyle(file: string, el: XmlElement, style: string): 'document' | 'rpc' {
  if (style === 'document' || style === 'rpc') return style;
  throw new GeneratorError(
    'WSDL_INVALID',
    `<${tagName(el)}> style="${style}" is neither document nor rpc`,
    at(file, el),
  );
}

/** soap:body and soap:header of one wsdl:input / wsdl:output; also checks wsdl:fault's soap:fault. */
export function readSoapDirection(ctx: SoapContext, direction: XmlElement | undefined): SoapDirection {
  if (direction === undefined) return { headers: [] };
  const bodyEl = firstChild(direction, ctx.ns, 'body');
  const headers = children(direction, ctx.ns, 'header').map((h) => readHeader(ctx, h));
  return { ...(bodyEl === undefined ? {} : { body: readBody(ctx, bodyEl) }), headers };
}

export function checkSoapFaults(ctx: SoapContext, op: XmlElement): void {
  for (const fault of children(op, WSDL_NS, 'fault')) {
    const soapFault = firstChild(fault, ctx.ns, 'fault');
    if (soapFault !== undefined) readUse(ctx, soapFault);
  }
}

function readBody(ctx: SoapContext, el: XmlElement): SoapBodyUse {
  const use = readUse(ctx, el);
  const parts = attr(el, 'parts');
  const namespace = attr(el, 'namespace');
  return {
    use,
    ...(parts === undefined ? {} : { parts: parts.split(/\s+/).filter((p) => p !== '') }),
    ...(namespace === undefined ? {} : { namespace }),
  };
}

function readHeader(ctx: SoapContext, el: XmlElement): SoapHeaderUse {
  const use = readUse(ctx, el);
  const messageName = requiredQNameAttr(ctx.file, el, 'message');
  const partName = requiredAttr(ctx.file, el, 'part');
  const message = ctx.messages.get(clark(messageName));
  // Not a refusal of the file: only the operations that use this header are left out, with the
  // reason (plan/binding-carriage.ts; a message the parser left out gives its own reason there).
  const stand = { message: messageName, part: partName, element: qname(messageName.ns, partName), use };
  if (message === undefined)
    return { ...stand, unresolved: `<${tagName(el)}> message ${showQName(messageName)} is not declared` };
  const part = message.parts.find((p) => p.name === partName);
  if (part === undefined)
    return { ...stand, unresolved: `<${tagName(el)}> message ${showQName(messageName)} has no part "${partName}"` };
  if (part.element === undefined) {
    // The block's element is then the part's name in the message's namespace (how rpc-style
    // stacks write it); the plan decides whether a binding can carry that.
    return { message: messageName, part: partName, element: qname(messageName.ns, partName), use, byType: true };
  }
  const element: QName = part.element;
  return { message: messageName, part: partName, element, use };
}

function readUse(ctx: SoapContext, el: XmlElement): 'literal' | 'encoded' {
  const use = attr(el, 'use')?.trim() ?? 'literal';
  if (use === 'literal' || use === 'encoded') return use;
  const construct = `<${tagName(el)} use="${use}">`;
  throw new GeneratorError(
    'WSDL_INVALID',
    `binding ${ctx.binding} operation "${ctx.operation}": ${construct} is neither literal nor encoded`,
    at(ctx.file, el),
  );
}
