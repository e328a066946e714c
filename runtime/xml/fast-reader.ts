/**
 * A fast path in front of the XML reader for the documents the wire actually carries: SOAP
 * envelopes and `<string>` results made of elements, attributes, namespace declarations, text
 * and the predefined/character references.
 *
 * `readXml` (saxes) stays the single authority: whenever this scanner meets anything outside
 * its subset — a comment, CDATA, a processing instruction, a DOCTYPE, a BOM, a CR, a non-ASCII
 * name, an encoding other than UTF-8, a limit reached, or any error at all — it gives up and the
 * document is read again by `readXml`, which accepts it or throws the proper `XmlReadError`.
 * So this file can only make reads faster, never more lenient: the differential test
 * (test/runtime/fast-reader.test.ts) checks that it never accepts what `readXml` refuses and
 * that the trees are identical when both accept.
 *
 * Why: on a 500-byte envelope the saxes reader costs about as much as the whole bare HTTP
 * request; the server aims to stay within 0.7x of a bare node:http server.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { readXml, type MutableElement, type XmlReadOptions } from './reader.js';
import type { XmlAttribute, XmlDocument, XmlNode, XmlReadLimits } from './types.js';
import { decodeReferences, GIVE_UP, scopeWith, XML_NS } from './fast-scopes.js';

const DEFAULT_LIMITS: Required<XmlReadLimits> = {
  maxDepth: 256,
  maxAttributes: 256,
  maxNamespaceDeclarations: 64,
  maxElements: 1_000_000,
};
const ROOT_SCOPE: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, { xml: XML_NS }),
);
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const NO_CHILDREN: readonly XmlNode[] = Object.freeze([]);

/** Reads like `readXml`, through the fast path when the document allows it. */
export function readXmlFast(input: Uint8Array | string, options?: XmlReadOptions): XmlDocument {
  const fast = tryFastRead(input, options?.limits);
  return fast ?? readXml(input, options);
}

/** The document, or undefined when the fast path does not apply (then use readXml). */
export function tryFastRead(input: Uint8Array | string, limits?: XmlReadLimits): XmlDocument | undefined {
  const text = fastPathText(input);
  return text === undefined ? undefined : scanText(text, limits);
}

/**
 * The input as a string when the fast path may read it: bytes (valid UTF-8 cannot hold a lone
 * surrogate, so text needs no surrogate check), valid UTF-8, no byte order mark.
 */
export function fastPathText(input: Uint8Array | string): string | undefined {
  if (typeof input === 'string') return undefined;
  if (input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) return undefined;
  if (!isUtf8(input)) return undefined;
  return (Buffer.isBuffer(input) ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength)).toString(
    'utf8',
  );
}

/**
 * Where the scanner found things, for the shape cache (shape-cache.ts): the offset of every
 * element's '<' in document order, and the [start, end) of every text node. `plainText` turns
 * false when a text node held a reference (its value is not the slice it came from).
 */
export interface ScanRecord {
  readonly elementOffsets: number[];
  readonly textSpans: number[];
  plainText: boolean;
}

/** Scans `text` (from fastPathText); undefined when the fast path gives up. */
export function scanText(text: string, limits?: XmlReadLimits, record?: ScanRecord): XmlDocument | undefined {
  try {
    return new Scanner(
      text,
      limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...limits },
      record,
    ).document();
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  }
}

/** Name characters the fast path accepts: ASCII letters, digits, '_', '-', '.' (and ':' handled apart). */
const NAME_START = new Uint8Array(128);
const NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  NAME_START[c] = letter ? 1 : 0;
  NAME_CHAR[c] = letter || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e ? 1 : 0;
}

/** Text that needs more than a slice: references, CR, forbidden controls, U+FFFE/FFFF, ']]>'. */
export const TEXT_SPECIAL = /[&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\]\]>/;

/**
 * Where the text starting at `from` ends (the next '<'), or -1 when it holds something
 * TEXT_SPECIAL finds or runs to the end of `text`. For the shape cache, which checks each text
 * slot of a request: one pass instead of a search and a regex test per slot (slot texts are
 * short, and two calls per text cost more than reading it). test/runtime/fast-reader.test.ts
 * checks that it agrees with TEXT_SPECIAL.
 */
export function plainTextEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3c) return i;
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a) return -1;
    } else if (c === 0x26 || c === 0xfffe || c === 0xffff) return -1;
    else if (c === 0x5d && text.charCodeAt(i + 1) === 0x5d && text.charCodeAt(i + 2) === 0x3e) return -1;
  }
  return -1;
}

const ATTR_SPECIAL = /[&<\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const DECLARATION =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.0\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])([A-Za-z][A-Za-z0-9._-]*)\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\4)?[ \t\n]*\?>/;

class Scanner {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private elements = 0;

  constructor(
    private readonly text: string,
    private readonly limits: Required<XmlReadLimits>,
    private readonly record: ScanRecord | undefined,
  ) {}

  document(): XmlDocument {
    let declaredEncoding: string | undefined;
    let hasDeclaration = false;
    if (this.text.startsWith('<?xml')) {
      const m = DECLARATION.exec(this.text);
      if (m === null) throw GIVE_UP;
      hasDeclaration = true;
      if (m[3] !== undefined) {
        declaredEncoding = m[3].toLowerCase();
        if (declaredEncoding !== 'utf-8') throw GIVE_UP;
      }
      this.advanceTo(m[0].length);
    }
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) !== 0x3c) throw GIVE_UP;
    const root = this.element(undefined, 0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) throw GIVE_UP;
    return declaredEncoding === undefined ? { root, hasDeclaration } : { root, hasDeclaration, declaredEncoding };
  }

  /** Moves to `index`, counting the line breaks passed (LF only: a CR makes us give up elsewhere). */
  private advanceTo(index: number): void {
    const text = this.text;
    for (let i = this.pos; i < index; i++) {
      if (text.charCodeAt(i) === 0x0a) {
        this.line++;
        this.lineStart = i + 1;
      }
    }
    this.pos = index;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09) i++;
      else if (c === 0x0a) {
        i++;
        this.line++;
        this.lineStart = i;
      } else break;
    }
    this.pos = i;
  }

  /** Reads `<name ...>...</name>` at pos (which is at '<'). */
  private element(parent: MutableElement | undefined, depth: number): MutableElement {
    if (depth >= this.limits.maxDepth || ++this.elements > this.limits.maxElements) throw GIVE_UP;
    const line = this.line;
    const column = this.pos - this.lineStart + 1;
    this.record?.elementOffsets.push(this.pos);
    this.pos++;
    const qname = this.name();
    const el: MutableElement = {
      type: 'element',
      ns: '',
      local: qname,
      prefix: '',
      attributes: NO_ATTRIBUTES,
      namespaces: parent === undefined ? ROOT_SCOPE : parent.namespaces,
      children: NO_CHILDREN as XmlNode[],
      line,
      column,
    };
    const selfClosing = this.attributes(el);
    this.resolveElementName(el, qname);
    if (selfClosing) return el;
    this.content(el, depth);
    // pos is just after '</'
    const text = this.text;
    if (!text.startsWith(qname, this.pos)) throw GIVE_UP;
    this.pos += qname.length;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) !== 0x3e) throw GIVE_UP;
    this.pos++;
    return el;
  }

  /** A QName at pos: NCName or NCName ':' NCName (ASCII only on the fast path). */
  private name(): string {
    const text = this.text;
    const start = this.pos;
    let i = start;
    let c = text.charCodeAt(i);
    if (!(c < 128 && NAME_START[c] === 1)) throw GIVE_UP;
    let colon = -1;
    for (i++; i < text.length; i++) {
      c = text.charCodeAt(i);
      if (c < 128 && NAME_CHAR[c] === 1) continue;
      if (c === 0x3a && colon < 0) {
        colon = i;
        const next = text.charCodeAt(i + 1);
        if (!(next < 128 && NAME_START[next] === 1)) throw GIVE_UP;
        continue;
      }
      break;
    }
    if (c >= 128) throw GIVE_UP;
    this.pos = i;
    return text.slice(start, i);
  }

  /** Attributes up to '>' or '/>'; namespace declarations give the element a new scope. Returns self-closing. */
  private attributes(el: MutableElement): boolean {
    const text = this.text;
    let raw: string[] | undefined; // qname, value, qname, value...
    let declarations: string[] | undefined; // prefix, uri, prefix, uri...
    let selfClosing = false;
    for (;;) {
      const before = this.pos;
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === 0x3e) {
        this.pos++;
        break;
      }
      if (c === 0x2f) {
        if (text.charCodeAt(this.pos + 1) !== 0x3e) throw GIVE_UP;
        this.pos += 2;
        selfClosing = true;
        break;
      }
      if (this.pos === before) throw GIVE_UP; // attributes must be separated by whitespace
      const qname = this.name();
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x3d) throw GIVE_UP;
      this.pos++;
      this.skipWhitespace();
      const value = this.attributeValue();
      if (qname.length >= 5 && qname.startsWith('xmlns') && (qname.length === 5 || qname.charCodeAt(5) === 0x3a)) {
        // readXml (saxes) trims namespace URIs; leave such declarations to it.
        if (value !== value.trim()) throw GIVE_UP;
        (declarations ??= []).push(qname.length === 5 ? '' : qname.slice(6), value);
        if (declarations.length > 2 * this.limits.maxNamespaceDeclarations) throw GIVE_UP;
      } else {
        (raw ??= []).push(qname, value);
        if (raw.length > 2 * this.limits.maxAttributes) throw GIVE_UP;
      }
    }
    if (declarations !== undefined) el.namespaces = scopeWith(el.namespaces, declarations);
    if (raw !== undefined) el.attributes = this.resolveAttributes(el, raw);
    return selfClosing;
  }

  private attributeValue(): string {
    const text = this.text;
    const quote = text.charCodeAt(this.pos);
    if (quote !== 0x22 && quote !== 0x27) throw GIVE_UP;
    const end = text.indexOf(quote === 0x22 ? '"' : "'", this.pos + 1);
    if (end < 0) throw GIVE_UP;
    const value = text.slice(this.pos + 1, end);
    if (!ATTR_SPECIAL.test(value)) {
      this.pos = end + 1;
      return value;
    }
    // Tabs and line feeds normalise to spaces (XML 1.0 3.3.3); a literal '<' is an error.
    if (
      value.includes('<') ||
      value.includes('\r') ||
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(value)
    )
      throw GIVE_UP;
    this.advanceTo(end + 1);
    return decodeReferences(value.replace(/[\t\n]/g, ' '));
  }

  private resolveElementName(el: MutableElement, qname: string): void {
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    if (prefix === 'xmlns') throw GIVE_UP;
    const ns = el.namespaces[prefix];
    if (ns === undefined) {
      if (prefix !== '') throw GIVE_UP; // undeclared prefix: readXml reports it
      el.ns = '';
    } else el.ns = ns;
    el.prefix = prefix;
    el.local = colon < 0 ? qname : qname.slice(colon + 1);
  }

  private resolveAttributes(el: MutableElement, raw: string[]): XmlAttribute[] {
    const out: XmlAttribute[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const qname = raw[i]!;
      const colon = qname.indexOf(':');
      const prefix = colon < 0 ? '' : qname.slice(0, colon);
      const local = colon < 0 ? qname : qname.slice(colon + 1);
      const ns = prefix === '' ? '' : el.namespaces[prefix];
      if (ns === undefined) throw GIVE_UP;
      for (const other of out)
        if ((other.local === local && other.ns === ns) || (other.prefix === prefix && other.local === local))
          throw GIVE_UP;
      out.push({ ns, local, prefix, value: raw[i + 1]! });
    }
    return out;
  }

  /** Children until the matching end tag; leaves pos just after '</'. */
  private content(el: MutableElement, depth: number): void {
    const text = this.text;
    for (;;) {
      const lt = text.indexOf('<', this.pos);
      if (lt < 0) throw GIVE_UP;
      if (lt > this.pos) this.text_(el, lt);
      const next = text.charCodeAt(lt + 1);
      if (next === 0x2f) {
        this.pos = lt + 2;
        return;
      }
      if (next === 0x21 || next === 0x3f) throw GIVE_UP; // comment, CDATA, DOCTYPE, PI
      this.pos = lt;
      const child = this.element(el, depth + 1);
      if (el.children === NO_CHILDREN) el.children = [child];
      else el.children.push(child);
    }
  }

  private text_(el: MutableElement, end: number): void {
    let value = this.text.slice(this.pos, end);
    this.record?.textSpans.push(this.pos, end);
    this.advanceTo(end);
    if (TEXT_SPECIAL.test(value)) {
      if (this.record !== undefined) this.record.plainText = false;
      if (
        value.includes('\r') ||
        value.includes(']]>') ||
        /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(value)
      )
        throw GIVE_UP;
      value = decodeReferences(value);
    }
    const node: XmlNode = { type: 'text', text: value };
    if (el.children === NO_CHILDREN) el.children = [node];
    else el.children.push(node);
  }
}
