/**
 * Comparing XML documents by structure: what the elements, attributes and texts are, not how they
 * are spelt (prefixes, namespace declarations, attribute order, `<a/>` vs `<a></a>`, indentation
 * between elements). Used to hold our wire text to what genuine ASMX wrote (asmx-captures.ts).
 */
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * A canonical form of an element: `{ns}local` with its attributes (xsi:type resolved to a
 * Clark name) sorted, and its children; text kept unless it is whitespace between elements.
 */
export function structure(el: XmlElement, ignoreAttributes: readonly string[] = []): unknown {
  const attributes = el.attributes
    .filter((a) => !ignoreAttributes.includes(`{${a.ns}}${a.local}`))
    .map((a) => {
      if (a.ns === XSI && a.local === 'type') {
        const colon = a.value.indexOf(':');
        const prefix = colon < 0 ? '' : a.value.slice(0, colon);
        return `@{${a.ns}}${a.local}={${el.namespaces[prefix] ?? ''}}${a.value.slice(colon + 1)}`;
      }
      return `@{${a.ns}}${a.local}=${a.value}`;
    })
    .sort();
  const hasElements = el.children.some((c) => c.type === 'element');
  const children = el.children
    .filter((c) => !(c.type === 'text' && hasElements && c.text.trim() === ''))
    .map((c) => (c.type === 'text' ? c.text : structure(c, ignoreAttributes)));
  return { [`{${el.ns}}${el.local}`]: [...attributes, ...children] };
}

/** The structure of a whole document, given as text or as the bytes on the wire. */
export function documentStructure(xml: string | Buffer, ignoreAttributes: readonly string[] = []): unknown {
  return structure(readXml(xml).root, ignoreAttributes);
}
