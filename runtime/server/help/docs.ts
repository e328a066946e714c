/**
 * The service's own documentation for its help page. The descriptor carries each operation's
 * documentation but not the service's, so it is read from the WSDL the server serves: the
 * wsdl:service's documentation, else the wsdl:definitions' (where ASMX writes a
 * [WebService(Description)]). A WSDL that cannot be read has none: the page still works.
 */
import { readXml } from '../../xml/reader.js';
import type { XmlElement } from '../../xml/types.js';

import { WSDL_NS } from '../../namespaces.js';

function children(el: XmlElement, local: string): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === 'element' && c.ns === WSDL_NS && c.local === local);
}

function text(el: XmlElement): string {
  return el.children.map((c) => (c.type === 'text' ? c.text : text(c))).join('');
}

function documentationOf(el: XmlElement | undefined): string | undefined {
  const doc = el === undefined ? undefined : children(el, 'documentation')[0];
  const value = doc === undefined ? '' : text(doc).trim();
  return value === '' ? undefined : value;
}

export function serviceDocumentation(wsdl: string, serviceName: string): string | undefined {
  let root: XmlElement;
  try {
    root = readXml(wsdl).root;
  } catch {
    return undefined;
  }
  const service = children(root, 'service').find((s) =>
    s.attributes.some((a) => a.ns === '' && a.local === 'name' && a.value === serviceName),
  );
  return documentationOf(service) ?? documentationOf(root);
}
