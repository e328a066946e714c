/**
 * Serialising an XML tree for outgoing messages; the escaping is runtime/escape/xml.ts's. The
 * per-request path only concatenates strings.
 */
import { escapeAttr, escapeText } from '../escape/xml.js';
import type { XmlElement } from './types.js';

/** Namespace bindings in scope while writing: prefix -> URI ('' is the default namespace). */
export type WriterScope = Readonly<Record<string, string>>;

/**
 * Serialises an element from the reader's tree (used for `xml`-kind values: anyType, xs:any).
 * Prefixes are kept; a declaration is written wherever the output scope does not already bind
 * a prefix to the element's or an attribute's namespace, so the result is namespace-correct
 * wherever it is embedded. `rename` writes the element under another name (the field's);
 * `extraAttrs` is written as is on the start tag (e.g. ` soap:mustUnderstand="1"`).
 */
export function writeElement(
  el: XmlElement,
  scope: WriterScope,
  path: string,
  rename?: { ns: string; local: string },
  extraAttrs = '',
): string {
  const ns = rename?.ns ?? el.ns;
  const local = rename?.local ?? el.local;
  const prefix = rename === undefined ? el.prefix : '';
  const declared: Record<string, string> = Object.create(scope) as Record<string, string>;
  let decls = '';
  if (scope[prefix] !== ns && !(prefix === '' && ns === '' && scope[''] === undefined)) {
    declared[prefix] = ns;
    decls += prefix === '' ? ` xmlns="${escapeAttr(ns, path)}"` : ` xmlns:${prefix}="${escapeAttr(ns, path)}"`;
  }
  let attrs = '';
  for (const a of el.attributes) {
    if (a.ns !== '' && a.prefix !== 'xml' && declared[a.prefix] !== a.ns) {
      declared[a.prefix] = a.ns;
      decls += ` xmlns:${a.prefix}="${escapeAttr(a.ns, path)}"`;
    }
    attrs += ` ${a.prefix === '' ? '' : `${a.prefix}:`}${a.local}="${escapeAttr(a.value, path)}"`;
  }
  const tag = prefix === '' ? local : `${prefix}:${local}`;
  attrs += extraAttrs;
  if (el.children.length === 0) return `<${tag}${decls}${attrs}/>`;
  let content = '';
  for (const child of el.children) {
    content +=
      child.type === 'text' ? escapeText(child.text, path) : writeElement(child, declared, `${path}/${child.local}`);
  }
  return `<${tag}${decls}${attrs}>${content}</${tag}>`;
}
