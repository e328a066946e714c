/**
 * Namespace URIs the parser recognises, under the names the parser uses. Everything is matched by
 * URI, never by prefix; the URIs themselves are spelt once, in runtime/namespaces.ts.
 */
export {
  SOAP_ENCODING_NS,
  WSDL20_NS,
  WSDL_HTTP_NS as HTTP_BINDING_NS,
  WSDL_MIME_NS as MIME_NS,
  WSDL_NS,
  WSDL_SOAP11_NS as SOAP11_BINDING_NS,
  WSDL_SOAP12_NS as SOAP12_BINDING_NS,
  XML_NS,
  XSD_NS,
} from '../../runtime/namespaces.js';
