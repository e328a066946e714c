/** Small tree helpers every consumer of `XmlDocument` needs. */
import type { XmlElement } from './types.js';
import { XmlReadError } from './errors.js';

/** The element children of `el`, in document order (text is skipped). */
export function childElements(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of el.children) if (child.type === 'element') out.push(child);
  return out;
}

/** All descendant text, concatenated in document order (DOM `textContent`). */
export function textContent(el: XmlElement): string {
  const children = el.children;
  if (children.length === 0) return '';
  const only = children[0]!;
  if (children.length === 1 && only.type === 'text') return only.text;
  let text = '';
  for (const child of children) text += child.type === 'text' ? child.text : textContent(child);
  return text;
}

/** The value of the attribute `{ns}local`, or undefined. Unprefixed attributes have ns ''. */
export function attr(el: XmlElement, local: string, ns = ''): string | undefined {
  for (const a of el.attributes) if (a.local === local && a.ns === ns) return a.value;
  return undefined;
}

/**
 * Resolves a QName written in content (`type="s:string"`, `xsi:type="tns:X"`) against the
 * namespaces in scope at `el`. An unprefixed name takes the default namespace, as XSD QName
 * values do. An undeclared prefix is an XML_MALFORMED error at the element's position.
 */
export function resolveQNameValue(el: XmlElement, value: string): { ns: string; local: string } {
  const trimmed = value.trim();
  const colon = trimmed.indexOf(':');
  if (colon < 0) return { ns: el.namespaces[''] ?? '', local: trimmed };
  const prefix = trimmed.slice(0, colon);
  const local = trimmed.slice(colon + 1);
  const ns = el.namespaces[prefix];
  if (ns === undefined || ns === '' || local === '' || local.includes(':')) {
    const why = ns === undefined || ns === '' ? `the prefix "${prefix}" is not declared` : 'it is not a valid QName';
    throw new XmlReadError(
      'XML_MALFORMED',
      `Cannot resolve QName "${trimmed}" on <${qualified(el)}>: ${why}`,
      el.line,
      el.column,
    );
  }
  return { ns, local };
}

function qualified(el: XmlElement): string {
  return el.prefix === '' ? el.local : `${el.prefix}:${el.local}`;
}
