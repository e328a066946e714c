/**
 * Reading WSDL/XSD elements with locations: the small vocabulary every parse module shares
 * (children by namespace URI, QName-valued attributes resolved or refused, documentation).
 */
import { XmlReadError, attr, childElements, resolveQNameValue, textContent } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, type QName, type SourceLocation } from '../model/index.js';
import { XSD_NS } from './namespaces.js';

export { attr };

export function at(file: string, el: XmlElement): SourceLocation {
  return { file, line: el.line };
}

/** Element children in namespace `ns` (optionally only those named `local`), document order. */
export function children(el: XmlElement, ns: string, local?: string): XmlElement[] {
  return childElements(el).filter((c) => c.ns === ns && (local === undefined || c.local === local));
}

export function firstChild(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  for (const c of el.children) if (c.type === 'element' && c.ns === ns && c.local === local) return c;
  return undefined;
}

/** `<p:name>` as written, for messages. */
export function tagName(el: XmlElement): string {
  return el.prefix === '' ? el.local : `${el.prefix}:${el.local}`;
}

/** Clark form of a QName for messages: `{ns}local` (or just `local` without a namespace). */
export function showQName(name: QName): string {
  return name.ns === '' ? name.local : clark(name);
}

/** A QName-valued attribute (type=, ref=, base=, message=, binding=...) resolved by namespace URI. */
export function qnameAttr(file: string, el: XmlElement, name: string): QName | undefined {
  const value = attr(el, name);
  return value === undefined ? undefined : qnameValue(file, el, name, value);
}

/** One QName written in attribute `name` of `el` (also for list-valued attributes, token by token). */
export function qnameValue(file: string, el: XmlElement, name: string, value: string): QName {
  try {
    return resolveQNameValue(el, value);
  } catch (error) {
    if (!(error instanceof XmlReadError)) throw error;
    const prefix = value.includes(':') ? value.slice(0, value.indexOf(':')).trim() : '';
    throw new GeneratorError(
      'WSDL_UNRESOLVED_REFERENCE',
      `<${tagName(el)} ${name}="${value}">: the namespace prefix "${prefix}" is not declared`,
      at(file, el),
    );
  }
}

export function requiredAttr(file: string, el: XmlElement, name: string): string {
  const value = attr(el, name);
  if (value === undefined || value.trim() === '') {
    throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no ${name} attribute`, at(file, el));
  }
  return value.trim();
}

export function requiredQNameAttr(file: string, el: XmlElement, name: string): QName {
  const value = qnameAttr(file, el, name);
  if (value === undefined)
    throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no ${name} attribute`, at(file, el));
  return value;
}

/** Documentation text: whitespace runs collapsed to one space, trimmed; undefined when empty. */
function collapse(text: string): string | undefined {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? undefined : collapsed;
}

/** `wsdl:documentation` children of a WSDL element. */
export function wsdlDocumentation(el: XmlElement, wsdlNs: string): string | undefined {
  return joinDocs(children(el, wsdlNs, 'documentation'));
}

/** `xs:annotation/xs:documentation` of a schema component. */
export function xsdDocumentation(el: XmlElement): string | undefined {
  const docs = children(el, XSD_NS, 'annotation').flatMap((a) => children(a, XSD_NS, 'documentation'));
  return joinDocs(docs);
}

/** A model node's `documentation` member: present only when the source had some. */
export function documented(documentation: string | undefined): { documentation?: string } {
  return documentation === undefined ? {} : { documentation };
}

function joinDocs(docs: XmlElement[]): string | undefined {
  if (docs.length === 0) return undefined;
  return collapse(docs.map((d) => textContent(d)).join(' '));
}
