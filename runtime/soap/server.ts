/**
 * The server half of the SOAP bindings (both versions): route a request envelope to its
 * operation, decode it, and write responses and faults. Routing tables and the response
 * envelope's fixed parts are computed once per descriptor.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { BindingDescriptor, NameDescriptor, OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { decodeBody, decodeHeaders, elementOf, encodeBody, encodeHeaders, isDeclaredHeader } from '../message.js';
import { ShapeCache, type ShapeMatch } from '../xml/shape-cache.js';
import type { XmlDocument, XmlElement, XmlReadLimits } from '../xml/types.js';
import { shapeDecoderFor, type ShapeDecoder } from './shape-decoder.js';
import type { ContentType } from '../content-type.js';
import { soap11, SOAP11_ENV_NS } from './soap11.js';
import { soap12, SOAP12_ENV_NS } from './soap12.js';
import type { FaultSpec, SoapVersion } from './version.js';
import { isSecurityHeader } from '../wsse/read.js';

export interface SoapEndpoint {
  readonly version: SoapVersion;
  readonly binding: BindingDescriptor;
  /** Operations by soapAction (several when a WSDL gives the same action to several). */
  readonly byAction: ReadonlyMap<string, readonly OperationDescriptor[]>;
  /** Operations by their Body element: namespace URI -> local name -> operation. */
  readonly byElement: ReadonlyMap<string, ReadonlyMap<string, OperationDescriptor>>;
}

export function compileSoapEndpoint(d: ServiceDescriptor, binding: BindingDescriptor): SoapEndpoint {
  const byAction = new Map<string, OperationDescriptor[]>();
  const byElement = new Map<string, Map<string, OperationDescriptor>>();
  for (const op of binding.operations) {
    if (op.soapAction !== undefined && op.soapAction !== '')
      byAction.set(op.soapAction, [...(byAction.get(op.soapAction) ?? []), op]);
    if (op.input.kind === 'element') {
      const name = elementOf(d, op.input.element, op.name).name;
      let byLocal = byElement.get(name.ns);
      if (byLocal === undefined) byElement.set(name.ns, (byLocal = new Map()));
      byLocal.set(name.local, op);
    }
  }
  return { version: binding.protocol === 'soap12' ? soap12 : soap11, binding, byAction, byElement };
}

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

/**
 * Reads, routes and decodes SOAP requests for one server: envelopes go through a shape cache
 * (xml/shape-cache.ts) and, for shapes that keep coming, a shape decoder (shape-decoder.ts) that
 * gives the generic path's result from the texts alone.
 */
export class SoapRequestDecoder {
  /** Requests answered by a decode plan (for tests and diagnostics). */
  shapeDecodedReads = 0;
  private readonly shapes: ShapeCache;
  /** Per shape: its plan, or null when the shape is outside the plain case. */
  private readonly plans = new WeakMap<ShapeMatch, ShapeDecoder<SoapEndpoint> | null>();

  /**
   * `understandsWsSecurity`: the server verifies WS-Security headers, so a `wsse:Security`
   * block marked mustUnderstand is understood (no MustUnderstand fault) and is handed over in
   * `securityHeaders`; otherwise it is any other header block.
   */
  constructor(
    private readonly d: ServiceDescriptor,
    limits: XmlReadLimits | undefined,
    private readonly understandsWsSecurity = false,
  ) {
    this.shapes = new ShapeCache(limits === undefined ? {} : { limits });
  }

  /**
   * `fallback` is the version the Content-Type suggests: it is used for faults when the
   * envelope cannot tell (malformed XML, unknown version). Throws XmlReadError for a document
   * that is not well-formed (or over a limit), as readXml does.
   */
  decode(
    endpoints: SoapEndpoints,
    fallback: SoapVersion,
    headers: IncomingHttpHeaders,
    contentType: ContentType,
    body: Uint8Array,
  ): SoapDecoded {
    const found = this.shapes.lookup(body);
    const understands = this.understandsWsSecurity;
    if ('root' in found)
      return decodeSoapDocument(this.d, endpoints, fallback, headers, contentType, found, understands);
    const plan = this.plans.get(found);
    if (plan != null && plan.endpoints === endpoints) {
      const planned = plan.run(found.texts, headers, contentType, routeOperation);
      if (planned !== undefined) {
        found.release();
        this.shapeDecodedReads++;
        return planned;
      }
    }
    const doc = found.document(); // (also when the plan declined: the generic path says why)
    const decoded = decodeSoapDocument(this.d, endpoints, fallback, headers, contentType, doc, understands);
    if (plan === undefined && decoded.ok)
      this.plans.set(found, shapeDecoderFor(this.d, endpoints, decoded.endpoint, decoded.op, doc) ?? null);
    return decoded;
  }

  /**
   * Like decode, but the Body and declared headers are decoded only when `decodeInput` is
   * called (it throws what decode throws): a server that verifies WS-Security checks the token
   * first, so an unauthenticated caller costs no Body decode and gets no codec fault. Always
   * the generic path: a decode plan decodes the Body as it routes.
   */
  route(
    endpoints: SoapEndpoints,
    fallback: SoapVersion,
    headers: IncomingHttpHeaders,
    contentType: ContentType,
    body: Uint8Array,
  ): SoapRouted {
    const found = this.shapes.lookup(body);
    const doc = 'root' in found ? found : found.document();
    return routeSoapDocument(this.d, endpoints, fallback, headers, contentType, doc, this.understandsWsSecurity);
  }
}

export interface SoapEndpoints {
  readonly soap11?: SoapEndpoint;
  readonly soap12?: SoapEndpoint;
}

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
  const notUnderstood: NameDescriptor[] = [];
  const securityHeaders: XmlElement[] = [];
  for (const block of parts.headerBlocks) {
    if (understandsWsSecurity && isSecurityHeader(block)) securityHeaders.push(block);
    else if (version.mustUnderstand(block) && !isDeclaredHeader(d, op.inputHeaders, block))
      notUnderstood.push({ ns: block.ns, local: block.local });
  }
  if (notUnderstood.length > 0) {
    const names = notUnderstood.map((n) => `{${n.ns}}${n.local}`).join(', ');
    return {
      ok: false,
      version,
      fault: { kind: 'mustUnderstand', message: `Header not understood: ${names}.`, notUnderstood },
    };
  }
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
function routeOperation(
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

/**
 * The complete success response document for an operation's output, with the handler's
 * response header blocks (declared output headers only, in the descriptor's order) in a
 * Header before the Body, as ASMX writes them.
 */
/**
 * The response envelope. `echoMustUnderstand`: request header blocks that carried
 * mustUnderstand; a response block of the same property (an in-out header) carries it back, as
 * ASMX writes an InOut SoapHeader object with the MustUnderstand it was read with — as "1" in
 * both SOAP versions, which is what ASMX writes (SOAP 1.2 takes "1" as true).
 */
export function encodeSoapResponse(
  d: ServiceDescriptor,
  version: SoapVersion,
  op: OperationDescriptor,
  output: unknown,
  soapHeaders?: object,
  echoMustUnderstand?: readonly string[],
): string {
  const echoed =
    soapHeaders === undefined || echoMustUnderstand === undefined
      ? []
      : echoMustUnderstand.filter((p) => (soapHeaders as Record<string, unknown>)[p] !== undefined);
  const must = echoed.length > 0 ? { props: echoed, attribute: ' soap:mustUnderstand="1"' } : undefined;
  const headers = soapHeaders === undefined ? '' : encodeHeaders(d, op.outputHeaders, soapHeaders, must);
  return `${version.envelopeOpen}${headers === '' ? '' : `<soap:Header>${headers}</soap:Header>`}<soap:Body>${encodeBody(d, op.output, output, op.name)}</soap:Body></soap:Envelope>`;
}
