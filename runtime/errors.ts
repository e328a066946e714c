/**
 * The runtime's error types, one per concern, each with a stable `code` (`DeclaredFault` has
 * its wsdl:fault's name instead).
 *
 * - `CodecError`: a value cannot be encoded or decoded by the descriptor (names the element path).
 * - `ServiceError`: thrown by a handler to refuse a request; becomes a Client/Sender fault.
 * - `DeclaredFault`: thrown by a handler to send a fault the operation declares, its detail typed.
 * - `SoapFaultError`: client side, the peer answered with a fault (or a GET/POST error text).
 * - `TransportError`: client side, no usable HTTP answer (refused, DNS, timeout, TLS, reset...).
 */
import type { Protocol } from './descriptor.js';
import type { XmlElement } from './xml/types.js';

export type CodecErrorCode =
  | 'CODEC_INVALID_VALUE' // a value of the wrong type or outside its lexical/value space
  | 'CODEC_ILLEGAL_CHAR' // a character XML 1.0 cannot carry
  | 'CODEC_MISSING' // a required element/attribute/parameter is absent
  | 'CODEC_UNEXPECTED' // an element, text or attribute the descriptor does not declare
  | 'CODEC_NIL' // xsi:nil on a non-nillable element, or null for a non-nillable field
  | 'CODEC_UNSUPPORTED' // the binding cannot carry it (a complex parameter or SOAP headers on HTTP GET/POST)
  | 'CODEC_DESCRIPTOR'; // the descriptor itself is inconsistent (a bug in generated code)

export class CodecError extends Error {
  override readonly name = 'CodecError';
  /** Element path such as `SMSSend/smsto` or `SMSSend/items/item[2]`. */
  readonly path: string;
  constructor(
    readonly code: CodecErrorCode,
    path: string,
    detail: string,
  ) {
    super(path === '' ? detail : `${path}: ${detail}`);
    this.path = path;
  }
}

const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

/**
 * A refusal a handler means to show the caller (bad credentials, invalid number...). The
 * server turns it into a Client (1.1) / Sender (1.2) fault with `message` as the fault string
 * and `code` (plus `detail` entries) as elements of the fault detail; on HTTP GET/POST it is a
 * 500 text/plain line. Anything else a handler throws is hidden behind a generic Server fault.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: string;
  readonly detail: Readonly<Record<string, string>> | undefined;
  constructor(code: string, message: string, detail?: Record<string, string>) {
    super(message);
    this.code = code;
    if (detail !== undefined) {
      // Detail keys become element names on the wire: refuse what cannot be one, here, where
      // the handler author sees it (the server would otherwise have to drop it silently).
      for (const key of Object.keys(detail)) {
        if (!NCNAME.test(key) || key === 'code')
          throw new TypeError(
            `ServiceError detail key "${key}" is not a valid element name (or is the reserved "code")`,
          );
      }
      this.detail = { ...detail };
    } else {
      this.detail = undefined;
    }
  }
}

/**
 * A fault the operation declares (a wsdl:fault whose detail is one element, `faults` in its
 * descriptor), thrown by a handler to send it: the server writes `detail` as that element inside
 * the fault's detail, with `message` (default: the fault's name) as the fault string, as a
 * Client/Sender fault unless `faultCode` says 'server' (JAX-WS sends its declared faults as Server
 * faults, WCF as Sender ones). A name the operation does not declare, or a value its element
 * cannot carry, is logged and answered as a generic Server fault. On HTTP GET/POST, which have
 * no fault detail, it is a 500 text/plain line, as a ServiceError.
 */
export class DeclaredFault<Name extends string = string, Detail = unknown> extends Error {
  override readonly name = 'DeclaredFault';
  readonly faultName: Name;
  readonly detail: Detail;
  /** The fault's family: its faultcode (SOAP 1.1) or Code (SOAP 1.2). */
  readonly faultCode: 'client' | 'server';
  constructor(faultName: Name, detail: Detail, options: { message?: string; faultCode?: 'client' | 'server' } = {}) {
    super(options.message ?? faultName);
    this.faultName = faultName;
    this.detail = detail;
    this.faultCode = options.faultCode ?? 'client';
  }
}

/** A declared fault as a client reads it: the wsdl:fault's name and its detail element's value. */
export interface ReceivedFault<Name extends string = string, Detail = unknown> {
  readonly name: Name;
  readonly value: Detail;
}

/** A fault answered by the peer. For HTTP GET/POST error texts `code` is 'HTTP'. */
export class SoapFaultError<Declared extends ReceivedFault = ReceivedFault> extends Error {
  override readonly name = 'SoapFaultError';
  /**
   * Local name of the fault code: 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand'
   * (SOAP 1.1), 'Sender' | 'Receiver' | ... (SOAP 1.2), or 'HTTP' for a GET/POST error text
   * (then 'Client'/'Server' when our server labelled it with X-Smskit-Fault-Code).
   */
  readonly code: string;
  /** SOAP 1.2 first Subcode value (local name), or the dotted suffix of a 1.1 faultcode. */
  readonly subcode: string | undefined;
  /** Detail children as local name -> text (leaf elements only), e.g. { code: 'AUTH' }. */
  readonly detail: Readonly<Record<string, string>>;
  /** The raw detail element, for faults whose detail is structured. */
  readonly detailXml: XmlElement | undefined;
  /**
   * The declared fault the detail holds, decoded (the operation's descriptor lists its
   * wsdl:faults); undefined for any other fault, or a detail its element's schema cannot read.
   */
  readonly fault: Declared | undefined;
  readonly httpStatus: number;
  readonly binding: Protocol;
  constructor(init: {
    code: string;
    subcode?: string | undefined;
    message: string;
    detail?: Record<string, string>;
    detailXml?: XmlElement | undefined;
    fault?: Declared | undefined;
    httpStatus: number;
    binding: Protocol;
  }) {
    super(init.message);
    this.code = init.code;
    this.subcode = init.subcode;
    this.detail = init.detail ?? {};
    this.detailXml = init.detailXml;
    this.fault = init.fault;
    this.httpStatus = init.httpStatus;
    this.binding = init.binding;
  }
}

export type TransportErrorCode =
  | 'REFUSED' // connection refused
  | 'DNS' // host name did not resolve
  | 'TIMEOUT' // connect, headers, body or overall call timeout
  | 'TLS' // certificate or handshake failure
  | 'RESET' // the connection was closed or reset before a complete response
  | 'TOO_LARGE' // the response is over maxResponseBytes, or its head over the 16 KiB header limit
  | 'BAD_RESPONSE' // an answer that is not what the binding expects (HTML page, bad XML, 404...)
  | 'ABORTED'; // the caller's AbortSignal fired

export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly code: TransportErrorCode;
  /** The HTTP status when a response arrived (BAD_RESPONSE, TOO_LARGE). */
  readonly httpStatus: number | undefined;
  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown; httpStatus?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.httpStatus = options?.httpStatus;
  }
}
