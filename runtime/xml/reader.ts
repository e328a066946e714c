/**
 * The XML reader: text or bytes -> an `XmlDocument` tree with every name resolved to its
 * namespace URI. Built on saxes (strict, namespace-aware, position-tracking).
 *
 * It serves two masters: the WSDL parser (large documents, good error positions) and the
 * server's hot path (small SOAP envelopes, many per second). So it is strict and safe by
 * construction — no DOCTYPE, no entities beyond the five predefined ones, bounded depth,
 * attributes, namespace declarations and element count — and it allocates only what the tree
 * itself needs: elements without namespace declarations share their parent's scope object,
 * elements without attributes or children share one frozen empty array.
 */
import { SaxesParser, type SaxesTagNS, type XMLDecl } from 'saxes';
import type { XmlAttribute, XmlDocument, XmlNode, XmlReadLimits } from './types.js';
import { XmlReadError, locateIndex } from './errors.js';
import { XML_NS } from '../namespaces.js';
import { charsetEncoding } from '../content-type.js';

export { XmlReadError, type XmlReadErrorCode } from './errors.js';
export { attr, childElements, resolveQNameValue, textContent } from './helpers.js';

export interface XmlReadOptions {
  readonly limits?: XmlReadLimits;
  /** Only used to give error messages a context; positions are in the error's fields. */
  readonly fileName?: string;
  /**
   * The charset the transport named for bytes (an HTTP Content-Type's, lowercased). One naming
   * UTF-8 settles how they are read, and the XML declaration's encoding is then not checked:
   * RFC 7303 §3 makes the charset parameter authoritative over it. None, or another (a UTF-16
   * body is given as text, see body-encoding.ts), leaves the declaration checked.
   */
  readonly charset?: string | undefined;
}

const DEFAULT_LIMITS: Required<XmlReadLimits> = {
  maxDepth: 256,
  maxAttributes: 256,
  maxNamespaceDeclarations: 64,
  maxElements: 1_000_000,
};

/** The scope every document starts in: only the `xml` prefix is bound (XML Names §3). */
const ROOT_SCOPE: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, { xml: XML_NS }),
);
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const NO_CHILDREN: readonly XmlNode[] = Object.freeze([]);
const ACCEPTED_ENCODINGS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/** The tree nodes as both readers build them; consumers see the readonly `XmlElement`. */
export interface MutableElement {
  type: 'element';
  ns: string;
  local: string;
  prefix: string;
  attributes: readonly XmlAttribute[];
  namespaces: Readonly<Record<string, string>>;
  children: XmlNode[];
  line: number;
  column: number;
}

/**
 * saxes reports a problem through `fail`, and keeps going if the handler returns. We never
 * want to keep going: the first problem aborts the read with a positioned `XmlReadError`.
 */
class StrictParser extends SaxesParser<{ xmlns: true; position: true }> {
  constructor() {
    super({ xmlns: true, position: true });
  }

  override fail(message: string): this {
    throw new XmlReadError('XML_MALFORMED', explain(message, this.openTagName()), this.line, this.column + 1);
  }

  /** The start tag saxes is looking at (private in its typings, but the one fact a user needs). */
  private openTagName(): string | undefined {
    return (this as unknown as { tag: { name?: string } | null }).tag?.name;
  }
}

/** saxes's messages are terse; say what is allowed where a reader would otherwise wonder. */
function explain(message: string, openTag: string | undefined): string {
  if (message === 'unexpected close tag.' && openTag !== undefined) {
    return `Unexpected close tag: <${openTag}> is still open`;
  }
  if (message === 'undefined entity.') {
    return 'Undefined entity reference (only &lt; &gt; &amp; &apos; &quot; and character references are allowed)';
  }
  return capitalise(message);
}

function capitalise(message: string): string {
  const text = message.endsWith('.') ? message.slice(0, -1) : message;
  return text.length === 0 ? 'Malformed XML' : text[0]!.toUpperCase() + text.slice(1);
}

/** Per-read state. One instance lives for the whole process; reads are synchronous. */
class TreeBuilder {
  input = '';
  limits: Required<XmlReadLimits> = DEFAULT_LIMITS;
  checkEncoding = false;
  declaredEncoding: string | undefined = undefined;
  hasDeclaration = false;
  stack: MutableElement[] = [];
  root: MutableElement | undefined = undefined;
  pendingText = '';
  elementCount = 0;
  /** Attributes and namespace declarations seen on the start tag being read. */
  tagAttributes = 0;
  tagDeclarations = 0;
  /** Where the start tag being read begins (its '<'). */
  tagLine = 1;
  tagColumn = 1;

  reset(input: string, limits: Required<XmlReadLimits>, checkEncoding: boolean): void {
    this.input = input;
    this.limits = limits;
    this.checkEncoding = checkEncoding;
    this.declaredEncoding = undefined;
    this.hasDeclaration = false;
    this.stack = [];
    this.root = undefined;
    this.pendingText = '';
    this.elementCount = 0;
    this.tagAttributes = 0;
    this.tagDeclarations = 0;
  }

  /** Text and CDATA accumulate until the next tag, so adjacent runs become one text node. */
  flushText(): void {
    const parent = this.stack[this.stack.length - 1];
    if (this.pendingText.length === 0 || parent === undefined) {
      this.pendingText = '';
      return;
    }
    appendChild(parent, { type: 'text', text: this.pendingText });
    this.pendingText = '';
  }
}

function appendChild(parent: MutableElement, child: XmlNode): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

const parser = new StrictParser();
const state = new TreeBuilder();
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

parser.on('xmldecl', (decl: XMLDecl) => {
  state.hasDeclaration = true;
  if (decl.encoding === undefined) return;
  const encoding = decl.encoding.toLowerCase();
  state.declaredEncoding = encoding;
  if (state.checkEncoding && !ACCEPTED_ENCODINGS.has(encoding)) {
    throw new XmlReadError(
      'XML_ENCODING',
      `The XML declaration names encoding "${decl.encoding}"; only UTF-8 (or US-ASCII) is accepted`,
      parser.line,
      parser.column + 1,
    );
  }
});

parser.on('doctype', () => {
  const start = state.input.lastIndexOf('<!DOCTYPE', parser.position);
  const { line, column } =
    start >= 0 ? locateIndex(state.input, start) : { line: parser.line, column: parser.column + 1 };
  throw new XmlReadError(
    'XML_DOCTYPE',
    'A DOCTYPE declaration is not allowed (no DTDs, no entity declarations)',
    line,
    column,
  );
});

parser.on('text', (text: string) => {
  state.pendingText += text;
});

parser.on('cdata', (text: string) => {
  state.pendingText += text;
});

parser.on('opentagstart', (tag: { name: string }) => {
  if (state.pendingText.length !== 0) state.flushText();
  // Here, and not at 'opentag': by then saxes has read all the attributes, which may span
  // several lines.
  const { line, column } = startTagPosition(tag.name);
  state.tagLine = line;
  state.tagColumn = column;
});

// Counting here lets the limits stop a hostile start tag early, and lets elements without
// attributes skip walking saxes's attribute map (the common case on the hot path).
parser.on('attribute', (a) => {
  const limits = state.limits;
  if (a.prefix === 'xmlns' || a.name === 'xmlns') {
    if (++state.tagDeclarations > limits.maxNamespaceDeclarations) {
      throw new XmlReadError(
        'XML_LIMIT',
        `An element declares more than ${limits.maxNamespaceDeclarations} namespaces`,
        parser.line,
        parser.column + 1,
      );
    }
  } else if (++state.tagAttributes > limits.maxAttributes) {
    throw new XmlReadError(
      'XML_LIMIT',
      `An element has more than ${limits.maxAttributes} attributes`,
      parser.line,
      parser.column + 1,
    );
  }
});

parser.on('opentag', (tag: SaxesTagNS) => openElement(tag));

parser.on('closetag', () => {
  if (state.pendingText.length !== 0) state.flushText();
  state.stack.pop();
});

function openElement(tag: SaxesTagNS): void {
  const parent = state.stack[state.stack.length - 1];
  const line = state.tagLine;
  const column = state.tagColumn;
  const limits = state.limits;
  if (++state.elementCount > limits.maxElements) {
    throw new XmlReadError('XML_LIMIT', `More than ${limits.maxElements} elements`, line, column);
  }
  if (state.stack.length >= limits.maxDepth) {
    throw new XmlReadError(
      'XML_LIMIT',
      `Element <${tag.name}> is nested deeper than ${limits.maxDepth} levels`,
      line,
      column,
    );
  }
  const element: MutableElement = {
    type: 'element',
    ns: tag.uri,
    local: tag.local,
    prefix: tag.prefix,
    attributes: NO_ATTRIBUTES,
    namespaces: parent === undefined ? ROOT_SCOPE : parent.namespaces,
    children: NO_CHILDREN as XmlNode[],
    line,
    column,
  };
  if (state.tagAttributes + state.tagDeclarations !== 0) {
    readAttributes(tag, element);
    state.tagAttributes = 0;
    state.tagDeclarations = 0;
  }
  if (parent === undefined) state.root = element;
  else appendChild(parent, element);
  state.stack.push(element);
}

/**
 * Copies saxes's attributes into ours, leaving out namespace declarations. Those saxes has
 * already collected, trimmed, into `tag.ns` (this element's own bindings only); we complete
 * that object with the parent's bindings so that one lookup answers. A flat copy, because
 * chaining scopes through prototypes turns every declaring element's scope into a prototype,
 * which V8 makes measurably expensive (about a microsecond per envelope).
 */
function readAttributes(tag: SaxesTagNS, element: MutableElement): void {
  if (state.tagAttributes !== 0) {
    const attributes: XmlAttribute[] = [];
    for (const name in tag.attributes) {
      const a = tag.attributes[name]!;
      if (a.prefix === 'xmlns' || name === 'xmlns') continue;
      attributes.push({ ns: a.uri, local: a.local, prefix: a.prefix, value: a.value });
    }
    element.attributes = attributes;
  }
  if (state.tagDeclarations !== 0) {
    const scope = tag.ns;
    const parent = element.namespaces;
    for (const prefix in parent) if (!(prefix in scope)) scope[prefix] = parent[prefix]!;
    element.namespaces = scope;
  }
}

/**
 * saxes announces a start tag after reading `<name` and one more character; the `<` is the
 * last one before that point. Positions are 1-based; columns count UTF-16 code units.
 */
function startTagPosition(name: string): { line: number; column: number } {
  const position = parser.position;
  const lt = state.input.lastIndexOf('<', position - name.length - 1);
  const lineStart = position - parser.columnIndex;
  if (lt >= lineStart) return { line: parser.line, column: lt - lineStart + 1 };
  // The character after the name was a line break: the tag starts on the previous line.
  return { line: parser.line - 1, column: lt - previousLineStart(state.input, lt) + 1 };
}

function previousLineStart(input: string, index: number): number {
  return Math.max(input.lastIndexOf('\n', index), input.lastIndexOf('\r', index)) + 1;
}

/**
 * Reads a complete XML document. Bytes must be UTF-8 (a BOM is skipped); a string is taken as
 * already decoded (an HTTP body in UTF-16: body-encoding.ts). Throws `XmlReadError` on the
 * first problem.
 */
export function readXml(input: string | Uint8Array, options?: XmlReadOptions): XmlDocument {
  const isBytes = typeof input !== 'string';
  const text = isBytes ? decodeUtf8(input) : stripBom(input);
  const limits = options?.limits === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, ...options.limits };
  const checkEncoding = isBytes && !namesUtf8(options?.charset);
  state.reset(text, limits, checkEncoding);
  try {
    parser.write(text).close();
    // US-ASCII named by the charset or (when no charset settles it) by the declaration: a byte
    // above 0x7F is not in the encoding, which XML 1.0 §4.3.3 makes a fatal error.
    const declaredAscii = state.declaredEncoding === 'us-ascii' || state.declaredEncoding === 'ascii';
    if (isBytes && (options?.charset === 'us-ascii' || (checkEncoding && declaredAscii))) checkAscii(input);
    const root = state.root;
    if (root === undefined) throw new XmlReadError('XML_MALFORMED', 'The document has no root element', 1, 1);
    return state.declaredEncoding === undefined
      ? { root, hasDeclaration: state.hasDeclaration }
      : { root, hasDeclaration: state.hasDeclaration, declaredEncoding: state.declaredEncoding };
  } catch (error) {
    // A read aborted half-way leaves saxes mid-document; start the next read clean.
    parser._init();
    throw withFileName(error, options?.fileName);
  } finally {
    state.reset('', DEFAULT_LIMITS, false);
  }
}

function namesUtf8(charset: string | undefined): boolean {
  return charset !== undefined && charsetEncoding(charset) === 'utf-8';
}

function withFileName(error: unknown, fileName: string | undefined): unknown {
  if (!(error instanceof XmlReadError) || fileName === undefined) return error;
  return new XmlReadError(error.code, error.detail, error.line, error.column, fileName);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const { line, column } = locateInvalidUtf8(bytes);
    throw new XmlReadError('XML_ENCODING', 'The document is not valid UTF-8', line, column);
  }
}

/** Error path only: find the first undecodable byte so the message can point at it. */
function locateInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  const probe = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const bad = probe.indexOf('\ufffd');
  return bad < 0 ? { line: 1, column: 1 } : locateIndex(probe, bad);
}

function checkAscii(bytes: Uint8Array): void {
  const bad = bytes.findIndex((b) => b >= 0x80);
  if (bad < 0) return;
  throw new XmlReadError('XML_ENCODING', 'The document declares US-ASCII but contains non-ASCII bytes', 1, 1);
}
