/**
 * The wire runtime's public API: what generated code, the SMS service and the conformance
 * runner import (docs/runtime.md).
 */
export * from './descriptor.js';
export { ServiceClient, type ClientOptions, type CallOptions, type AnyCallOptions, type CallResult } from './client.js';
export {
  createRequestListener,
  LISTENER_OPTIONS,
  type RequestContext,
  type OperationHandler,
  type ServerOptions,
  type Logger,
  type SmskitRequestListener,
} from './server.js';
export type { HelpPagesMode } from './server/help/mode.js';
export type { PasswordType, UsernameTokenOptions, VerifiedIdentity, WsSecurityOptions } from './wsse/types.js';
export { listen, type ListenOptions, type Listening } from './listen.js';
export type {
  ClientTlsOptions,
  HttpAuth,
  NetworkOptions,
  Pem,
  ProxyOption,
  ServerTlsOptions,
} from './network/index.js';
export {
  ServiceError,
  DeclaredFault,
  type ReceivedFault,
  SoapFaultError,
  TransportError,
  CodecError,
  type TransportErrorCode,
  type CodecErrorCode,
} from './errors.js';
export type { XmlElement, XmlNode, XmlText, XmlAttribute } from './xml/types.js';

// Lower-level pieces for the conformance runner and tests: one truth about the wire.
export type { WireRequest } from './wire.js';
export { addressPath } from './wire.js';
export { encodeElement, decodeElement, primitiveCodec } from './codec/index.js';
export { valueFromJson, valueToJson, operationInputFromJson, soapHeadersFromJson } from './codec/json.js';
export { escapeText, escapeAttr } from './escape/xml.js';
export { buildSoapRequest, parseSoapResponse, readSoapResponse } from './soap/client.js';
export { soap11 } from './soap-version/soap11.js';
export { soap12 } from './soap-version/soap12.js';
export { SOAP11_ENV_NS, SOAP12_ENV_NS } from './namespaces.js';
export type { SoapVersion, FaultSpec, FaultKind } from './soap-version/version.js';
export {
  compileHttpOperation,
  compileHttpBinding,
  decodeHttpResponse,
  type HttpOperation,
  type UnusableHttpOperation,
} from './http/binding.js';
export { encodeParams } from './http/params.js';
export { parseContentType, type ContentType } from './content-type.js';
export { rewriteWsdlAddresses } from './server/wsdl.js';
