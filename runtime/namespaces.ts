/**
 * The namespace URIs smskit reads and writes, in one place: XML Schema, the SOAP envelopes, WSDL
 * 1.1 and its binding extensions, discovery, WS-Security. Everything is matched by URI, never
 * by prefix, so each URI is spelt once, here.
 */

/** XML Schema: the built-in types (`xsd:string`) and schema documents. */
/** The `xml:` prefix's namespace (bound in every document), and the one `xmlns` declarations live in. */
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';
/** XML Schema instance: `xsi:type`, `xsi:nil`. */
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

/** SOAP 1.1 envelope, and the actor that means "the next node". */
export const SOAP11_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP11_ACTOR_NEXT = 'http://schemas.xmlsoap.org/soap/actor/next';
/** SOAP 1.2 envelope, and its two roles every node plays. */
export const SOAP12_ENV_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP12_ROLE_NEXT = 'http://www.w3.org/2003/05/soap-envelope/role/next';
export const SOAP12_ROLE_ULTIMATE = 'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver';
/** SOAP 1.1 section 5 encoding (rpc/encoded, which smskit refuses). */
export const SOAP_ENCODING_NS = 'http://schemas.xmlsoap.org/soap/encoding/';

/** WSDL 1.1 and its binding extensions (SOAP 1.1, SOAP 1.2, HTTP GET/POST, MIME). */
export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
export const WSDL_HTTP_NS = 'http://schemas.xmlsoap.org/wsdl/http/';
export const WSDL_MIME_NS = 'http://schemas.xmlsoap.org/wsdl/mime/';
/** WSDL 2.0: recognised only to refuse it with a clear message. */
export const WSDL20_NS = 'http://www.w3.org/ns/wsdl';

/** DISCO, the discovery document ASMX serves at `?disco`, and its contract and SOAP references. */
export const DISCO_NS = 'http://schemas.xmlsoap.org/disco/';
export const DISCO_SCL_NS = 'http://schemas.xmlsoap.org/disco/scl/';
export const DISCO_SOAP_NS = 'http://schemas.xmlsoap.org/disco/soap/';

/** OASIS WS-Security 1.0: the Security header and its utility (wsu:Created) namespace. */
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
