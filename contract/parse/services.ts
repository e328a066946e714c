/** wsdl:service and its ports: the binding each port uses and the address it is published at. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { clark, type ModelWarning, qname, type Port, type Service } from '../model/index.js';
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
  // Kept with the refusal it would be: only this port is left out (plan/port-bindings.ts).
  const unresolvedBinding = wsdl.bindings.has(clark(binding))
    ? undefined
    : {
        what: `<${tagName(el)} binding="${attr(el, 'binding')}">: binding ${showQName(binding)} is not defined`,
        source: at(file, el),
      };
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
    ...(unresolvedBinding === undefined ? {} : { unresolvedBinding }),
    source: at(file, el),
  };
}

/**
 * WSDL 1.1 §2.7: a port's name is "unique among all ports defined within the enclosing WSDL
 * document". Nothing here looks a port up by name (each binding is chosen by its protocol), so
 * both ports are kept and carried, and a warning at the later one says that messages naming the
 * port are ambiguous and that other tools may keep only one of them.
 */
export function duplicatePortWarnings(services: readonly Service[]): ModelWarning[] {
  const first = new Map<string, Port>();
  const warnings: ModelWarning[] = [];
  for (const port of services.flatMap((s) => s.ports)) {
    const key = `${port.source.file}\u0000${port.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, port);
      continue;
    }
    warnings.push({
      code: 'DUPLICATE_PORT_NAME',
      message:
        `port ${port.name} is declared again (first at ${earlier.source.file}:${earlier.source.line}); WSDL 1.1 §2.7 wants ` +
        'port names unique in the document: both are read, each for its own binding, but a tool that looks ports up by name may see only one',
      source: port.source,
    });
  }
  return warnings;
}
