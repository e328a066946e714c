/**
 * Request bodies and headers for the cases. Positive requests are built by the runtime: SOAP by
 * its public `buildSoapRequest` (the operation element and the header blocks by the descriptor
 * codec), HTTP GET/POST by its `encodeParams` (arrays as repeated parameters, bytes and chars in
 * ASMX's forms): the same bytes the generated client sends, so there is one truth about a
 * correct message. Negative requests are derived from a positive one by a single, named
 * alteration: a parameter left out, the parameters reordered, one value replaced by text its
 * type does not allow, an envelope cut short.
 */
import type { Protocol, ServiceDescriptor } from '../../runtime/descriptor.js';
import { buildSoapRequest, encodeParams, soap11, soap12 } from '../../runtime/index.js';
import { XSD_NS, XSI_NS } from '../../runtime/namespaces.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement, XmlNode } from '../../runtime/xml/types.js';
import { writeElement } from '../../runtime/xml/writer.js';
import type { OperationContract } from './operation-contract.js';
import type { BuiltInput } from './operation-input.js';
import type { RequestSpec } from '../types.js';

/** Parameter values by wire name, in the order they are to be sent (an array's items repeat the name). */
export type ParamValues = ReadonlyArray<readonly [name: string, value: string]>;

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const BODY_START = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>/;

export function soapVersionOf(protocol: Protocol): '1.1' | '1.2' {
  return protocol === 'soap11' ? '1.1' : '1.2';
}

/**
 * A SOAP envelope around a Body child, with an optional Header; prefix `soap` (our choice), and
 * xsi/xsd declared as the runtime declares them (a Body child cut from its request may use them).
 */
export function soapEnvelope(envNs: string, bodyChild: string, header = ''): string {
  const head = header === '' ? '' : `<soap:Header>${header}</soap:Header>`;
  return `${XML_DECLARATION}<soap:Envelope xmlns:soap="${envNs}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}">${head}<soap:Body>${bodyChild}</soap:Body></soap:Envelope>`;
}

/** The operation element (Body child) of a SOAP request, cut from its body. */
export function bodyChildOf(request: RequestSpec): string {
  const body = bodyString(request);
  const start = BODY_START.exec(body);
  const end = body.search(/<\/(?:[\w.-]+:)?Body>\s*<\/(?:[\w.-]+:)?Envelope>\s*$/);
  if (start === null || end < 0)
    throw new Error(`unexpected SOAP request layout from the runtime: ${body.slice(0, 120)}`);
  return body.slice(start.index + start[0].length, end);
}

/** The header blocks (Header content) of a SOAP request, '' when it has none. */
export function headerBlocksOf(request: RequestSpec): string {
  const body = bodyString(request);
  const match = /<(?:[\w.-]+:)?Header>([\s\S]*?)<\/(?:[\w.-]+:)?Header>/.exec(body);
  return match?.[1] ?? '';
}

/**
 * A correct request of the operation on its binding. `mustUnderstand`: header properties to
 * send marked mustUnderstand (the server declares them, so it must process them).
 */
export function positiveRequest(
  d: ServiceDescriptor,
  contract: OperationContract,
  basePath: string,
  built: BuiltInput,
  mustUnderstand?: readonly string[],
): RequestSpec {
  if (contract.protocol === 'soap11' || contract.protocol === 'soap12') {
    const version = contract.protocol === 'soap11' ? soap11 : soap12;
    const headers = Object.keys(built.soapHeaders).length === 0 ? undefined : built.soapHeaders;
    // A service at the root of its host (spyne, PHP's built-in server) has the empty base path.
    const path = basePath === '' ? '/' : basePath;
    const wire = buildSoapRequest(d, version, path, contract.operation, built.input, headers, {}, mustUnderstand);
    return { method: wire.method, path: wire.path, headers: wire.headers, body: wire.body ?? '' };
  }
  return httpRequestWithParams(contract, basePath, httpParams(contract, built));
}

/** The GET/POST parameters of an input, as the runtime writes them (descriptor order). */
export function httpParams(contract: OperationContract, built: BuiltInput): ParamValues {
  if (contract.http === undefined)
    throw new Error(`httpParams: ${contract.operation.name} on ${contract.protocol} has no compiled HTTP operation`);
  return [...new URLSearchParams(encodeParams(contract.http, built.input)).entries()];
}

/**
 * A GET/POST request whose parameters are sent exactly as listed (in this order, with these
 * omissions): the runtime builders always write descriptor order, which these cases must not.
 */
export function httpRequestWithParams(contract: OperationContract, basePath: string, values: ParamValues): RequestSpec {
  const search = new URLSearchParams();
  for (const [name, value] of values) search.append(name, value);
  const path = `${basePath}${contract.operation.httpPath ?? `/${contract.operation.name}`}`;
  if (contract.protocol === 'http-get')
    return { method: 'GET', path: search.size === 0 ? path : `${path}?${search.toString()}`, headers: {} };
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: search.toString(),
  };
}

/** The parameters with each name's values moved as a group, names in reverse order (items keep theirs). */
export function reverseParams(values: ParamValues): ParamValues {
  const names = [...new Set(values.map(([name]) => name))].reverse();
  return names.flatMap((name) => values.filter(([n]) => n === name));
}

/** One element of a SOAP request body, by the local names from the Body child down (first match at each step). */
export type WirePath = readonly string[];

/**
 * The request with the element at `path` (under the Body child) given `text` instead of its
 * content, or removed (`text` undefined). Re-serialised from the reader's tree: namespaces stay
 * correct whatever prefixes the runtime chose. Undefined when the path is not in the body.
 */
export function alterSoapValue(
  request: RequestSpec,
  path: WirePath,
  text: string | undefined,
): RequestSpec | undefined {
  const body = bodyString(request);
  const start = BODY_START.exec(body);
  if (start === null) return undefined;
  const root = readXml(body).root;
  const changed = alterAt(root, ['Body', ...path], text);
  if (changed === undefined) return undefined;
  return { ...request, body: `${XML_DECLARATION}${writeElement(changed, {}, 'Envelope')}` };
}

function alterAt(el: XmlElement, path: readonly string[], text: string | undefined): XmlElement | undefined {
  const [head, ...rest] = path;
  const index = el.children.findIndex((c) => c.type === 'element' && c.local === head);
  if (index < 0) return undefined;
  const target = el.children[index] as XmlElement;
  let replacement: XmlNode | undefined;
  if (rest.length > 0) {
    replacement = alterAt(target, rest, text);
    if (replacement === undefined) return undefined;
  } else if (text !== undefined) {
    // The value only: attributes other than xsi:nil stay (an xsi:type keeps the type known).
    replacement = {
      ...target,
      attributes: target.attributes.filter((a) => a.local !== 'nil'),
      children: [{ type: 'text', text }],
    };
  }
  const children = [...el.children];
  if (replacement === undefined) children.splice(index, 1);
  else children[index] = replacement;
  return { ...el, children };
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
const UNKNOWN_HEADER_NS = 'urn:smskit:conformance:unknown-header';
export const UNKNOWN_SOAP_ACTION = 'urn:smskit:conformance:unknown-action';

/** A header block nobody understands, marked mustUnderstand in the version's own spelling. */
export function mustUnderstandHeader(version: '1.1' | '1.2'): string {
  const flag = version === '1.1' ? '1' : 'true';
  return `<c:NotUnderstoodByAnyone xmlns:c="${UNKNOWN_HEADER_NS}" soap:mustUnderstand="${flag}">conformance</c:NotUnderstoodByAnyone>`;
}

/**
 * Pads a SOAP body with an XML comment inside the Body until it is over `bytes`. As bytes, written
 * once into one buffer: the padding is a memset, not a multi-megabyte string to build and encode,
 * nor a filled buffer copied again by a concat (each of those was ~30 ms of every catalogue).
 */
export function padToSize(body: string, bytes: number): Uint8Array {
  const missing = Math.max(0, bytes - Buffer.byteLength(body)) + 1024;
  const match = BODY_START.exec(body);
  if (match === null) throw new Error('padToSize: the body has no Body start tag');
  const split = match.index + match[0].length;
  const head = Buffer.from(`${body.slice(0, split)}<!--`);
  const tail = Buffer.from(`-->${body.slice(split)}`);
  const padded = Buffer.allocUnsafe(head.length + missing + tail.length);
  head.copy(padded, 0);
  padded.fill('x', head.length, head.length + missing);
  tail.copy(padded, head.length + missing);
  return padded;
}
