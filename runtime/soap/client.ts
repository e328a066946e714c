/** The client half of the SOAP bindings (both versions): build the request, read the response or fault. */
import type { OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { CodecError, TransportError } from '../errors.js';
import { decodeBody, decodeHeaders, encodeBody, encodeHeaders, isDeclaredHeader } from '../message.js';
import { parseContentType } from '../content-type.js';
import { xmlBodyInput } from '../xml/body-encoding.js';
import { XmlReadError } from '../xml/reader.js';
import { readXmlFast as readXml } from '../xml/fast-reader.js';
import type { XmlElement } from '../xml/types.js';
import type { WireRequest } from '../wire.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../namespaces.js';
import { soap11 } from '../soap-version/soap11.js';
import { soap12 } from '../soap-version/soap12.js';
import type { SoapVersion } from '../soap-version/version.js';
import { writeSecurityHeader } from '../wsse/header.js';
import { withDeclaredFault } from './declared-fault.js';
import type { UsernameTokenOptions } from '../wsse/types.js';

/**
 * The request for one call. `usernameToken`: a WS-Security UsernameToken header block (fresh
 * nonce and Created each time) before the operation's declared header blocks.
 */
export function buildSoapRequest(
  d: ServiceDescriptor,
  version: SoapVersion,
  path: string,
  op: OperationDescriptor,
  input: unknown,
  soapHeaders: object | undefined,
  extraHeaders: Record<string, string>,
  mustUnderstand?: readonly string[],
  usernameToken?: UsernameTokenOptions,
): WireRequest {
  const must =
    mustUnderstand === undefined || mustUnderstand.length === 0
      ? undefined
      : { props: mustUnderstand, attribute: version.mustUnderstandAttribute };
  // The security block goes first, where WSS4J puts it (SOAP itself gives header blocks no order).
  const headerXml =
    (usernameToken === undefined ? '' : writeSecurityHeader(usernameToken, version)) +
    encodeHeaders(d, op.inputHeaders, soapHeaders, must);
  const body =
    `${version.envelopeOpen}${headerXml === '' ? '' : `<soap:Header>${headerXml}</soap:Header>`}` +
    `<soap:Body>${encodeBody(d, op.input, input, op.name)}</soap:Body></soap:Envelope>`;
  return { method: 'POST', path, headers: { ...extraHeaders, ...version.requestHeaders(op.soapAction ?? '') }, body };
}

/** The operation's output, or throws SoapFaultError (a Fault) / TransportError (anything unusable). */
export function parseSoapResponse(
  d: ServiceDescriptor,
  version: SoapVersion,
  op: OperationDescriptor,
  status: number,
  contentType: string,
  body: Uint8Array,
): unknown {
  return readSoapResponse(d, version, op, status, contentType, body, false).output;
}

/**
 * Like parseSoapResponse; `withHeaders` also decodes the operation's declared output header
 * blocks (by property name). Either way a header block marked mustUnderstand (for this node)
 * that the operation does not declare fails the call: SOAP 1.1 section 4.2.3 and SOAP 1.2 part
 * 1 section 5.2.3 require the receiver of a message, a response too, to process such a block or
 * fail, and .NET's client throws "SOAP header X was not understood" there. Undeclared blocks
 * without the mark are ignored, as SOAP allows.
 */
export function readSoapResponse(
  d: ServiceDescriptor,
  version: SoapVersion,
  op: OperationDescriptor,
  status: number,
  contentType: string,
  body: Uint8Array,
  withHeaders: boolean,
): { output: unknown; soapHeaders: Record<string, unknown> } {
  const answersNothing = op.output.kind === 'empty' && op.outputHeaders.length === 0;
  // An operation that answers nothing (a one-way operation, no wsdl:output) gets 200 or 202 with
  // no body from a JAX-WS @Oneway or WCF IsOneWay service: WS-I BP R2714 forbids it an envelope,
  // and R1112 has a success without one come as 200 or 202.
  if (answersNothing && (status === 200 || status === 202) && body.length === 0)
    return { output: undefined, soapHeaders: {} };
  const root = responseRoot(status, contentType, body);
  // A fault may come in the other version's envelope (a 1.1 VersionMismatch answering 1.2).
  const envelopeVersion = root.ns === SOAP11_ENV_NS ? soap11 : root.ns === SOAP12_ENV_NS ? soap12 : undefined;
  if (envelopeVersion === undefined || root.local !== 'Envelope') {
    throw new TransportError(
      'BAD_RESPONSE',
      `The response (HTTP ${status}) is not a SOAP envelope: {${root.ns}}${root.local}`,
      { httpStatus: status },
    );
  }
  const { bodyChild, headerBlocks } = envelopeChildren(root, envelopeVersion.envNs);
  if (bodyChild !== undefined && bodyChild.local === 'Fault' && bodyChild.ns === envelopeVersion.envNs)
    throw withDeclaredFault(d, op, envelopeVersion.readFault(bodyChild, status));
  if (status !== 200 && !(status === 202 && answersNothing))
    throw new TransportError('BAD_RESPONSE', `Unexpected HTTP ${status} without a SOAP fault`, { httpStatus: status });
  if (envelopeVersion !== version)
    throw new TransportError(
      'BAD_RESPONSE',
      `Expected a SOAP ${version === soap11 ? '1.1' : '1.2'} envelope, got {${root.ns}}Envelope`,
      { httpStatus: status },
    );
  checkUnderstood(d, version, op, headerBlocks, status);
  try {
    const output = decodeBody(d, op.output, bodyChild);
    return { output, soapHeaders: withHeaders ? decodeHeaders(d, op.outputHeaders, headerBlocks) : {} };
  } catch (err) {
    if (err instanceof CodecError)
      throw new TransportError('BAD_RESPONSE', `The response does not match the contract: ${err.message}`, {
        httpStatus: status,
        cause: err,
      });
    throw err;
  }
}

/**
 * The response document's root, once its content type says XML and it reads as XML: UTF-8, or
 * UTF-16 as its BOM or charset says (some .NET and WCF services answer a UTF-16 request so).
 * Another charset leaves the bytes to be read as UTF-8, strictly, as before: an ASCII body
 * still reads, and any other fails as not UTF-8 rather than being misread.
 */
function responseRoot(status: number, contentType: string, body: Uint8Array): XmlElement {
  const { mediaType, charset } = parseContentType(contentType);
  if (!mediaType.endsWith('xml')) {
    throw new TransportError(
      'BAD_RESPONSE',
      `Expected a SOAP response, got HTTP ${status} with ${mediaType || 'no content type'}`,
      { httpStatus: status },
    );
  }
  try {
    return readXml(xmlBodyInput(body, charset), { charset }).root;
  } catch (err) {
    if (err instanceof XmlReadError)
      throw new TransportError('BAD_RESPONSE', `The response (HTTP ${status}) is not well-formed XML: ${err.message}`, {
        httpStatus: status,
        cause: err,
      });
    throw err;
  }
}

/** A response header block marked mustUnderstand that the operation does not declare fails the call. */
function checkUnderstood(
  d: ServiceDescriptor,
  version: SoapVersion,
  op: OperationDescriptor,
  headerBlocks: readonly XmlElement[],
  status: number,
): void {
  for (const block of headerBlocks) {
    if (version.mustUnderstand(block) && !isDeclaredHeader(d, op.outputHeaders, block)) {
      throw new TransportError(
        'BAD_RESPONSE',
        `The response carries the header block {${block.ns}}${block.local} marked mustUnderstand, which ${op.name} does not declare`,
        { httpStatus: status },
      );
    }
  }
}

/** The first Body child and the Header's blocks. */
function envelopeChildren(
  root: XmlElement,
  envNs: string,
): { bodyChild: XmlElement | undefined; headerBlocks: XmlElement[] } {
  const headerBlocks: XmlElement[] = [];
  let bodyChild: XmlElement | undefined;
  for (const c of root.children) {
    if (c.type !== 'element' || c.ns !== envNs) continue;
    if (c.local === 'Header') {
      for (const b of c.children) if (b.type === 'element') headerBlocks.push(b);
    } else if (c.local === 'Body') {
      for (const b of c.children) {
        if (b.type === 'element') {
          bodyChild = b;
          break;
        }
      }
      break;
    }
  }
  return { bodyChild, headerBlocks };
}
