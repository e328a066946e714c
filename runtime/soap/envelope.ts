/**
 * A read SOAP request envelope, routed to its operation and decoded: the version from the
 * envelope's namespace, Header blocks and the one Body child, the operation by action or Body
 * element, mustUnderstand checked, then the Body and the declared headers decoded.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { NameDescriptor, OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { decodeBody, decodeHeaders, isDeclaredHeader } from '../message.js';
import type { ContentType } from '../content-type.js';
import type { XmlDocument, XmlElement } from '../xml/types.js';
import { isSecurityHeader } from '../wsse/read.js';
import type { SoapEndpoint, SoapEndpoints } from './endpoint.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../namespaces.js';
import { type FaultSpec, mustUnderstandValue, type SoapVersion } from '../soap-version/version.js';

export type SoapDecoded =
  | {
      readonly ok: true;
      readonly version: SoapVersion;
      readonly endpoint: SoapEndpoint;
      readonly op: OperationDescriptor;
      readonly input: unknown;
      readonly soapHeaders: Record<string, unknown>;
      /** Properties of the request's header blocks that carried mustUnderstand (echoed on InOut headers). */
      readonly mustUnderstand?: readonly string[];
      /**
       * The request's `wsse:Security` header blocks (any actor/role), when the decoder was made
       * to understand them; absent when there are none.
       */
      readonly securityHeaders?: readonly XmlElement[];
    }
  | { readonly ok: false; readonly version: SoapVersion; readonly fault: FaultSpec };

/** A routed request whose header blocks were checked; `decodeInput` decodes its Body and declared headers. */
export type SoapRouted =
  | {
      readonly ok: true;
      readonly version: SoapVersion;
      readonly endpoint: SoapEndpoint;
      readonly op: OperationDescriptor;
      readonly securityHeaders?: readonly XmlElement[];
      /** Throws CodecError for a Body or header that does not decode. */
      readonly decodeInput: () => Extract<SoapDecoded, { ok: true }>;
    }
  | Extract<SoapDecoded, { ok: false }>;

const clientFault = (version: SoapVersion, message: string): Extract<SoapDecoded, { ok: false }> => ({
  ok: false,
  version,
  fault: { kind: 'client', message },
});

/** Routes and decodes a read SOAP request envelope (see SoapRequestDecoder.decode). */
export function decodeSoapDocument(
  d: ServiceDescriptor,
  endpoints: SoapEndpoints,
  fallback: SoapVersion,
  headers: IncomingHttpHeaders,
  contentType: ContentType,
  doc: XmlDocument,
  understandsWsSecurity = false,
): SoapDecoded {
  const routed = routeSoapDocument(d, endpoints, fallback, headers, contentType, doc, understandsWsSecurity);
  return routed.ok ? routed.decodeInput() : routed;
}

/** Routes a read SOAP request envelope and checks its header blocks; the Body is decoded on demand. */
export function routeSoapDocument(
  d: ServiceDescriptor,
  endpoints: SoapEndpoints,
  fallback: SoapVersion,
  headers: IncomingHttpHeaders,
  contentType: ContentType,
  doc: XmlDocument,
  understandsWsSecurity = false,
): SoapRouted {
  const root = doc.root;
  const endpoint =
    root.ns === SOAP11_ENV_NS ? endpoints.soap11 : root.ns === SOAP12_ENV_NS ? endpoints.soap12 : undefined;
  if (endpoint === undefined || root.local !== 'Envelope') {
    if (endpoint !== undefined)
      return clientFault(endpoint.version, `The root element must be Envelope, not ${root.local}.`);
    return {
      ok: false,
      version: fallback,
      fault: { kind: 'versionMismatch', message: `Unsupported SOAP envelope {${root.ns}}${root.local}.` },
    };
  }
  const version = endpoint.version;
  const parts = envelopeParts(root, version);
  if (typeof parts === 'string') return clientFault(version, parts);
  const op = routeOperation(endpoint, version.requestAction(headers, contentType), parts.bodyChild);
  if (typeof op === 'string') return clientFault(version, op);
  const securityHeaders: XmlElement[] = [];
  const notUnderstood = sortHeaderBlocks(d, op, version, parts.headerBlocks, understandsWsSecurity, securityHeaders);
  if (notUnderstood !== undefined) return notUnderstood;
  return {
    ok: true,
    version,
    endpoint,
    op,
    ...(securityHeaders.length > 0 ? { securityHeaders } : {}),
    decodeInput: () => {
      const input = decodeBody(d, op.input, parts.bodyChild);
      const soapHeaders = decodeHeaders(d, op.inputHeaders, parts.headerBlocks);
      const mustUnderstand = markedHeaders(d, op, parts.headerBlocks, version);
      return {
        ok: true,
        version,
        endpoint,
        op,
        input,
        soapHeaders,
        ...(mustUnderstand.length > 0 ? { mustUnderstand } : {}),
        ...(securityHeaders.length > 0 ? { securityHeaders } : {}),
      };
    },
  };
}

/**
 * Puts the `wsse:Security` blocks (when the server verifies them) into `securityHeaders`; the
 * MustUnderstand fault for blocks marked mustUnderstand that the operation does not declare.
 */
function sortHeaderBlocks(
  d: ServiceDescriptor,
  op: OperationDescriptor,
  version: SoapVersion,
  blocks: readonly XmlElement[],
  understandsWsSecurity: boolean,
  securityHeaders: XmlElement[],
): Extract<SoapDecoded, { ok: false }> | undefined {
  const notUnderstood: NameDescriptor[] = [];
  for (const block of blocks) {
    const problem = headerBlockProblem(version, block);
    if (problem !== undefined) return { ok: false, version, fault: { kind: 'client', message: problem } };
    if (understandsWsSecurity && isSecurityHeader(block)) securityHeaders.push(block);
    else if (version.mustUnderstand(block) && !isDeclaredHeader(d, op.inputHeaders, block))
      notUnderstood.push({ ns: block.ns, local: block.local });
  }
  if (notUnderstood.length === 0) return undefined;
  const names = notUnderstood.map((n) => `{${n.ns}}${n.local}`).join(', ');
  return {
    ok: false,
    version,
    fault: { kind: 'mustUnderstand', message: `Header not understood: ${names}.`, notUnderstood },
  };
}

/**
 * A header block the receiver cannot honour as sent: a mustUnderstand value that is no boolean
 * (SOAP 1.1 §4.2.3 allows "0" and "1", SOAP 1.2 Part 1 §5.2.3 an xs:boolean; read as false, a
 * block its sender meant to be mandatory would be ignored), or a mandatory block without a
 * namespace (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2.1: a header block MUST be namespace-qualified,
 * and a NotUnderstood block could not even name it).
 */
function headerBlockProblem(version: SoapVersion, block: XmlElement): string | undefined {
  const value = block.attributes.find((a) => a.ns === version.envNs && a.local === 'mustUnderstand')?.value;
  if (value !== undefined && mustUnderstandValue(value) === undefined)
    return `Header block ${block.local}: mustUnderstand="${value}" is not a boolean (use "1" or "0").`;
  if (block.ns === '' && version.mustUnderstand(block))
    return `Header block ${block.local} is marked mustUnderstand but has no namespace; a SOAP header block must be namespace-qualified.`;
  return undefined;
}

/** The declared request header blocks marked mustUnderstand, by property. */
function markedHeaders(
  d: ServiceDescriptor,
  op: OperationDescriptor,
  blocks: readonly XmlElement[],
  version: SoapVersion,
): string[] {
  const marked: string[] = [];
  if (blocks.length === 0) return marked;
  for (const header of op.inputHeaders) {
    const name = d.elements[header.element]?.name;
    if (
      name !== undefined &&
      blocks.some((b) => b.local === name.local && b.ns === name.ns && version.mustUnderstand(b))
    )
      marked.push(header.prop);
  }
  return marked;
}

/** Header blocks and the single Body child, or a message saying what is wrong. */
function envelopeParts(
  root: XmlElement,
  version: SoapVersion,
): { headerBlocks: XmlElement[]; bodyChild: XmlElement | undefined } | string {
  let header: XmlElement | undefined;
  let body: XmlElement | undefined;
  for (const c of root.children) {
    if (c.type === 'text') {
      if (c.text.trim() !== '') return 'Text is not allowed directly inside the Envelope.';
      continue;
    }
    if (c.ns === version.envNs && c.local === 'Header' && header === undefined && body === undefined) header = c;
    else if (c.ns === version.envNs && c.local === 'Body' && body === undefined) body = c;
    else if (version.protocol === 'soap11' && body !== undefined && c.ns !== version.envNs)
      continue; // 1.1 allows trailing elements
    else return `Unexpected element ${c.local} in the Envelope.`;
  }
  if (body === undefined) return 'The Envelope has no Body.';
  const headerBlocks: XmlElement[] = [];
  if (header !== undefined) for (const c of header.children) if (c.type === 'element') headerBlocks.push(c);
  let bodyChild: XmlElement | undefined;
  for (const c of body.children) {
    if (c.type === 'text') {
      if (c.text.trim() !== '') return 'Text is not allowed directly inside the Body.';
    } else if (bodyChild !== undefined) return 'The Body must hold exactly one element.';
    else bodyChild = c;
  }
  return { headerBlocks, bodyChild };
}

/** SOAPAction / action parameter first; the Body element when there is none or it is ambiguous. */
export function routeOperation(
  endpoint: SoapEndpoint,
  action: string | undefined,
  bodyChild: NameDescriptor | undefined,
): OperationDescriptor | string {
  const byBody = bodyChild === undefined ? undefined : endpoint.byElement.get(bodyChild.ns)?.get(bodyChild.local);
  if (action !== undefined) {
    const candidates = endpoint.byAction.get(action);
    if (candidates === undefined) {
      const header = endpoint.version.protocol === 'soap11' ? 'HTTP Header SOAPAction' : 'action parameter';
      return `Server did not recognize the value of ${header}: ${action.length > 200 ? `${action.slice(0, 200)}...` : action}.`;
    }
    if (candidates.length === 1) return candidates[0]!;
    if (byBody !== undefined && candidates.includes(byBody)) return byBody;
    return `The action ${action} is shared by several operations and the Body element does not select one.`;
  }
  if (byBody !== undefined) return byBody;
  if (bodyChild === undefined) return 'The Body holds no element and the request names no action.';
  return `Server did not recognize the request element {${bodyChild.ns}}${bodyChild.local}.`;
}
