/**
 * Escaping and serialising for outgoing XML. The per-request path only concatenates strings:
 * a value that needs no escaping (the common case) costs one regex test.
 *
 * Characters XML 1.0 cannot carry (C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, lone
 * surrogates) are refused with a `CodecError` naming the field: sending them would produce a
 * document no conforming parser accepts, and silently dropping them would change the message.
 */
import { CodecError } from '../errors.js';
import type { XmlElement } from './types.js';

/** Anything that is not plain text-safe: markup, CR (escaped to survive end-of-line handling), forbidden or surrogate code units. */
const TEXT_SPECIAL = /[<>&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ATTR_SPECIAL = /[<>&"'\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Escapes character data. `path` names the field in the error for a forbidden character. */
export function escapeText(value: string, path: string): string {
  if (!TEXT_SPECIAL.test(value)) return value;
  return escapeSlow(value, path, false);
}

/** Escapes an attribute value (for use inside double quotes). */
export function escapeAttr(value: string, path: string): string {
  if (!ATTR_SPECIAL.test(value)) return value;
  return escapeSlow(value, path, true);
}

function escapeSlow(value: string, path: string, inAttribute: boolean): string {
  let out = '';
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let replacement: string | undefined;
    if (c === 0x3c) replacement = '&lt;';
    else if (c === 0x3e) replacement = '&gt;';
    else if (c === 0x26) replacement = '&amp;';
    else if (c === 0x0d) replacement = '&#xD;';
    else if (inAttribute && c === 0x22) replacement = '&quot;';
    else if (inAttribute && c === 0x27) replacement = '&apos;';
    else if (inAttribute && c === 0x09) replacement = '&#x9;';
    else if (inAttribute && c === 0x0a) replacement = '&#xA;';
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++; // a valid pair: keep both code units as they are
        continue;
      }
      throw illegalChar(path, c, i);
    } else if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0xdc00 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      throw illegalChar(path, c, i);
    } else continue;
    out += value.slice(start, i) + replacement;
    start = i + 1;
  }
  return start === 0 ? value : out + value.slice(start);
}

function illegalChar(path: string, code: number, index: number): CodecError {
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return new CodecError(
    'CODEC_ILLEGAL_CHAR',
    path,
    `the character U+${hex} at index ${index} cannot be carried in XML 1.0`,
  );
}

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
