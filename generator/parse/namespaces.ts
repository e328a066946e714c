/** Namespace URIs the parser recognises. Everything is matched by URI, never by prefix. */
export { XSD_NS } from '../model/index.js';

export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
export const SOAP11_BINDING_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
export const SOAP12_BINDING_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
export const HTTP_BINDING_NS = 'http://schemas.xmlsoap.org/wsdl/http/';
export const MIME_NS = 'http://schemas.xmlsoap.org/wsdl/mime/';
export const SOAP_ENCODING_NS = 'http://schemas.xmlsoap.org/soap/encoding/';
export const WSDL20_NS = 'http://www.w3.org/ns/wsdl';
