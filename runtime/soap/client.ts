/** The client half of the SOAP bindings (both versions): build the request, read the response or fault. */
import type { OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { CodecError, TransportError } from '../errors.js';
import { decodeBody, encodeBody, encodeHeaders } from '../message.js';
import { XmlReadError } from '../xml/reader.js';
import { readXmlFast as readXml } from '../xml/fast-reader.js';
import type { XmlElement } from '../xml/types.js';
import type { WireRequest } from '../wire.js';
import { soap11, SOAP11_ENV_NS } from '../soap11.js';
import { soap12, SOAP12_ENV_NS } from '../soap12.js';
import type { SoapVersion } from './version.js';

export function buildSoapRequest(
  d: ServiceDescriptor,
  version: SoapVersion,
  path: string,
  op: OperationDescriptor,
  input: unknown,
  soapHeaders: Record<string, unknown> | undefined,
  extraHeaders: Record<string, string>,
): WireRequest {
  const headerXml = encodeHeaders(d, op.inputHeaders, soapHeaders);
  const body =
    `${version.envelopeOpen}${headerXml === '' ? '' : `<soap:Header>${headerXml}</soap:Header>`}` +
    `<soap:Body>${encodeBody(d, op.input, input, op.name)}</soap:Body></soap:Envelope>`;
  return { method: 'POST', path, headers: { ...extraHeaders, ...version.requestHeaders(op.soapAction ?? '') }, body };
}

/** The operation's output, or throws SoapFaultError (a Fault) / TransportError (anything unusable). */
export function parseSoapResponse(d: ServiceDescriptor, version: SoapVersion, op: OperationDescriptor, status: number, contentType: string, body: Uint8Array): unknown {
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (!mediaType.endsWith('xml')) {
    throw new TransportError('BAD_RESPONSE', `Expected a SOAP response, got HTTP ${status} with ${mediaType || 'no content type'}`, { httpStatus: status });
  }
  let root: XmlElement;
  try {
    root = readXml(body).root;
  } catch (err) {
    if (err instanceof XmlReadError) throw new TransportError('BAD_RESPONSE', `The response (HTTP ${status}) is not well-formed XML: ${err.message}`, { httpStatus: status, cause: err });
    throw err;
  }
  // A fault may come in the other version's envelope (a 1.1 VersionMismatch answering 1.2).
  const envelopeVersion = root.ns === SOAP11_ENV_NS ? soap11 : root.ns === SOAP12_ENV_NS ? soap12 : undefined;
  if (envelopeVersion === undefined || root.local !== 'Envelope') {
    throw new TransportError('BAD_RESPONSE', `The response (HTTP ${status}) is not a SOAP envelope: {${root.ns}}${root.local}`, { httpStatus: status });
  }
  const bodyChild = firstBodyChild(root, envelopeVersion.envNs);
  if (bodyChild !== undefined && bodyChild.local === 'Fault' && bodyChild.ns === envelopeVersion.envNs) throw envelopeVersion.readFault(bodyChild, status);
  if (status !== 200) throw new TransportError('BAD_RESPONSE', `Unexpected HTTP ${status} without a SOAP fault`, { httpStatus: status });
  if (envelopeVersion !== version) throw new TransportError('BAD_RESPONSE', `Expected a SOAP ${version === soap11 ? '1.1' : '1.2'} envelope, got {${root.ns}}Envelope`, { httpStatus: status });
  try {
    return decodeBody(d, op.output, bodyChild);
  } catch (err) {
    if (err instanceof CodecError) throw new TransportError('BAD_RESPONSE', `The response does not match the contract: ${err.message}`, { httpStatus: status, cause: err });
    throw err;
  }
}

function firstBodyChild(root: XmlElement, envNs: string): XmlElement | undefined {
  for (const c of root.children) {
    if (c.type === 'element' && c.local === 'Body' && c.ns === envNs) {
      for (const b of c.children) if (b.type === 'element') return b;
      return undefined;
    }
  }
  return undefined;
}
