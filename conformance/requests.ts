/**
 * Request bodies and headers for the cases. Positive SOAP requests are built by the runtime's
 * public `buildSoapRequest` (the operation element by the descriptor codec, headers by the
 * version objects): the same bytes the generated client sends, so there is one truth about a
 * correct message. GET/POST requests are named string parameters in descriptor order,
 * URL-encoded exactly as the runtime's `encodeParams` does for strings; they are built here
 * because the runtime's HTTP compile step is internal (its signature changes with the client),
 * and because the negative cases need orders and omissions the runtime never produces.
 * Negative requests are derived from a positive one by a single, named alteration.
 */
import type { Protocol, ServiceDescriptor } from '../runtime/descriptor.js';
import { buildSoapRequest, soap11, soap12 } from '../runtime/index.js';
import type { OperationPlan } from './contract.js';
import type { RequestSpec } from './types.js';

/** Parameter values by wire name, in the order they are to be sent. */
export type ParamValues = ReadonlyArray<readonly [name: string, value: string]>;

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const BODY_START = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>/;

export function soapVersionOf(protocol: Protocol): '1.1' | '1.2' {
  return protocol === 'soap11' ? '1.1' : '1.2';
}

/** A SOAP envelope around a Body child, with an optional Header; prefix `soap` (our choice). */
export function soapEnvelope(envNs: string, bodyChild: string, header = ''): string {
  const head = header === '' ? '' : `<soap:Header>${header}</soap:Header>`;
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${envNs}">${head}<soap:Body>${bodyChild}</soap:Body></soap:Envelope>`;
}

/** The runtime's input object (by property) for parameter values given by wire name. */
function inputObject(plan: OperationPlan, values: ParamValues): Record<string, string> {
  const byName = new Map(values);
  const input: Record<string, string> = {};
  for (const p of plan.params) {
    const value = byName.get(p.name);
    if (value !== undefined) input[p.prop] = value;
  }
  return input;
}

/** The operation element (Body child) for the values: cut from the runtime's own request. */
export function soapBodyChild(d: ServiceDescriptor, plan: OperationPlan, basePath: string, values: ParamValues): string {
  const body = bodyString(positiveRequest(d, plan, basePath, values));
  const start = BODY_START.exec(body);
  const end = body.search(/<\/(?:[\w.-]+:)?Body>\s*<\/(?:[\w.-]+:)?Envelope>\s*$/);
  if (start === null || end < 0) throw new Error(`unexpected SOAP request layout from the runtime: ${body.slice(0, 120)}`);
  return body.slice(start.index + start[0].length, end);
}

/** A correct request of the operation on its binding, with the values given. */
export function positiveRequest(d: ServiceDescriptor, plan: OperationPlan, basePath: string, values: ParamValues): RequestSpec {
  if (plan.protocol === 'soap11' || plan.protocol === 'soap12') {
    const version = plan.protocol === 'soap11' ? soap11 : soap12;
    const built = buildSoapRequest(d, version, basePath, plan.operation, inputObject(plan, values), undefined, {});
    return { method: built.method, path: built.path, headers: built.headers, body: built.body ?? '' };
  }
  return httpRequestWithParams(plan, basePath, values);
}

/**
 * A GET/POST request whose parameters are sent exactly as listed (in this order, with these
 * omissions): the runtime builders always write descriptor order, which these cases must not.
 */
export function httpRequestWithParams(plan: OperationPlan, basePath: string, values: ParamValues): RequestSpec {
  const search = new URLSearchParams();
  for (const [name, value] of values) search.append(name, value);
  const path = `${basePath}${plan.operation.httpPath ?? `/${plan.operation.name}`}`;
  if (plan.protocol === 'http-get') return { method: 'GET', path: `${path}?${search.toString()}`, headers: {} };
  return { method: 'POST', path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: search.toString() };
}

/** The body as a string (negative cases alter text). */
export function bodyString(request: RequestSpec): string {
  const body = request.body;
  if (body === undefined) return '';
  return typeof body === 'string' ? body : new TextDecoder().decode(body);
}

// -- Alterations for the negative SOAP cases -----------------------------------------------

/** Cuts the document before its last end tag: unclosed elements, not well-formed. */
export function truncateDocument(body: string): string {
  return body.slice(0, body.lastIndexOf('</'));
}

/** Adds an internal DTD subset declaring an entity before the root element. */
export function withDoctype(body: string): string {
  const declaration = /^<\?xml[^>]*\?>/.exec(body)?.[0] ?? '';
  return `${declaration}<!DOCTYPE Envelope [<!ENTITY conformance "entity expanded">]>${body.slice(declaration.length)}`;
}

/** A namespace no SOAP version uses, for the VersionMismatch cases. */
export const UNKNOWN_ENVELOPE_NS = 'urn:smskit:conformance:unknown-envelope';
export const UNKNOWN_HEADER_NS = 'urn:smskit:conformance:unknown-header';
export const UNKNOWN_SOAP_ACTION = 'urn:smskit:conformance:unknown-action';

/** A header block nobody understands, marked mustUnderstand in the version's own spelling. */
export function mustUnderstandHeader(version: '1.1' | '1.2'): string {
  const flag = version === '1.1' ? '1' : 'true';
  return `<c:NotUnderstoodByAnyone xmlns:c="${UNKNOWN_HEADER_NS}" soap:mustUnderstand="${flag}">conformance</c:NotUnderstoodByAnyone>`;
}

/**
 * Pads a SOAP body with an XML comment inside the Body until it is over `bytes`. As bytes: the
 * padding is a memset and one copy, not a multi-megabyte string to build and encode (that was
 * ~30 ms of every run).
 */
export function padToSize(body: string, bytes: number): Uint8Array {
  const missing = Math.max(0, bytes - Buffer.byteLength(body)) + 1024;
  const match = BODY_START.exec(body);
  if (match === null) throw new Error('padToSize: the body has no Body start tag');
  const split = match.index + match[0].length;
  return Buffer.concat([Buffer.from(`${body.slice(0, split)}<!--`), Buffer.alloc(missing, 'x'), Buffer.from(`-->${body.slice(split)}`)]);
}
