/** wsdl:service and its ports: the binding each port uses and the address it is published at. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, qname, type Port, type Service } from '../model/index.js';
import type { Definition, WsdlIndex } from './definition-index.js';
import type { WsdlDocument } from './documents.js';
import { HTTP_BINDING_NS, SOAP11_BINDING_NS, SOAP12_BINDING_NS, WSDL_NS } from './namespaces.js';
import {
  at,
  attr,
  children,
  documented,
  requiredAttr,
  requiredQNameAttr,
  showQName,
  tagName,
  wsdlDocumentation,
} from './xml-access.js';

const ADDRESS_NAMESPACES = new Set([SOAP11_BINDING_NS, SOAP12_BINDING_NS, HTTP_BINDING_NS]);

export function readService(wsdl: WsdlIndex, def: Definition<WsdlDocument>): Service {
  const file = def.doc.file;
  const ports = children(def.el, WSDL_NS, 'port').map((el) => readPort(wsdl, file, el));
  return {
    name: qname(def.doc.targetNamespace, def.name),
    ports,
    ...documented(wsdlDocumentation(def.el, WSDL_NS)),
    source: at(file, def.el),
  };
}

function readPort(wsdl: WsdlIndex, file: string, el: XmlElement): Port {
  const name = requiredAttr(file, el, 'name');
  const binding = requiredQNameAttr(file, el, 'binding');
  if (!wsdl.bindings.has(clark(binding))) {
    throw new GeneratorError(
      'WSDL_UNRESOLVED_REFERENCE',
      `<${tagName(el)} binding="${attr(el, 'binding')}">: binding ${showQName(binding)} is not defined`,
      at(file, el),
    );
  }
  // The address element's namespace is kept: some stacks put soap:address on soap12 ports.
  const address = el.children.find(
    (c) => c.type === 'element' && c.local === 'address' && ADDRESS_NAMESPACES.has(c.ns),
  );
  const location = address?.type === 'element' ? attr(address, 'location') : undefined;
  return {
    name,
    binding,
    ...(location === undefined ? {} : { address: location }),
    ...(address?.type === 'element' ? { addressNamespace: address.ns } : {}),
    source: at(file, el),
  };
}
