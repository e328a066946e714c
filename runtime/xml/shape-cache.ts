/**
 * A cache of document shapes in front of the fast reader, for servers and clients that read the
 * same kind of message again and again: a client library sends every SMSSend envelope with the
 * same markup (prolog, Envelope with its namespace declarations, Body, operation element, field
 * tags) and only the field texts differ.
 *
 * A shape is the markup of a document the fast reader has read — the document cut at its text
 * nodes — and the tree it gave. A new document whose markup is byte-for-byte that markup, with
 * plain text (no '<', '&', CR, forbidden characters or ']]>') in the same places, is
 * well-formed and has the same tree except for the texts and the positions after them, so it is
 * read by comparing the markup pieces (block string equality) and building the tree from the
 * template, without tokenising names, attributes or namespace declarations again. Anything else
 * misses and goes through the fast reader (and readXml behind it) as before; the differential
 * test (test/runtime/shape-cache.test.ts) checks that a hit gives exactly readXml's tree.
 *
 * Why: under load the XML read was the largest part of the generated server's cost per SOAP
 * request (see bench/README.md).
 *
 * Secrets: a shape keeps the markup (tags, attribute values) but no text of the documents it
 * reads, so a password sent as element text (SMSSend's, WS-Security's) is not retained.
 *
 * Bounds: at most `maxShapes` shapes (the least recently used is dropped), each learnt from a
 * document of at most `maxDocumentBytes`; a lookup costs at most one failed comparison per
 * shape before the fast reader runs. One cache serves one set of limits.
 */
import { readXml, type XmlReadOptions } from './reader.js';
import { fastPathText, plainTextEnd, readXmlFast, scanText, type ScanRecord } from './fast-reader.js';
import type { XmlDocument, XmlElement, XmlNode, XmlReadLimits } from './types.js';

export interface ShapeCacheOptions {
  /** Limits for every read through this cache (the reader's defaults otherwise). */
  readonly limits?: XmlReadLimits;
  /** Shapes kept (default 8). */
  readonly maxShapes?: number;
  /** Largest document a shape is learnt from (default 16 KiB). */
  readonly maxDocumentBytes?: number;
}

/** A document that fits a known shape; see ShapeCache.lookup. */
export interface ShapeMatch {
  /** The texts of the document's text nodes in document order (valid until released). */
  readonly texts: readonly string[];
  /** Builds the document's tree (exactly readXml's) and releases the match. */
  document(): XmlDocument;
  /** Forgets the texts: nothing of the request stays in the cache. */
  release(): void;
}

export class ShapeCache {
  /** Reads answered from a shape, and reads that went through the fast reader or readXml. */
  hits = 0;
  misses = 0;
  private readonly shapes: Shape[] = [];
  private readonly limits: XmlReadLimits | undefined;
  private readonly maxShapes: number;
  private readonly maxDocumentBytes: number;

  constructor(options: ShapeCacheOptions = {}) {
    this.limits = options.limits;
    this.maxShapes = options.maxShapes ?? 8;
    this.maxDocumentBytes = options.maxDocumentBytes ?? 16 * 1024;
  }

  /**
   * Reads like readXmlFast (same trees, same errors), through a known shape when one fits.
   * `charset`: the one the transport named, for readXml (XmlReadOptions.charset); text (a body
   * decoded from UTF-16) is read by readXml alone.
   */
  read(input: Uint8Array | string, charset?: string): XmlDocument {
    const found = this.lookup(input, charset);
    return 'root' in found ? found : found.document();
  }

  /**
   * Like read, but a hit is returned as a ShapeMatch whose tree is built only when asked for:
   * a caller that can work from the texts alone (a shape decoder learnt for the shape) skips it.
   * The match is valid until the next lookup or read; call `document()` or `release()` once.
   */
  lookup(input: Uint8Array | string, charset?: string): XmlDocument | ShapeMatch {
    const text = input.length <= this.maxDocumentBytes ? fastPathText(input) : undefined;
    if (text === undefined) {
      this.misses++;
      return readXmlFast(input, this.options(charset));
    }
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i]!;
      if (!shape.match(text)) continue;
      if (i > 0) {
        // Most recently used first: the usual client's shape is tried first.
        shapes.splice(i, 1);
        shapes.unshift(shape);
      }
      this.hits++;
      return shape;
    }
    this.misses++;
    const record: ScanRecord = { elementOffsets: [], textSpans: [], plainText: true };
    const doc = scanText(text, this.limits, record);
    if (doc === undefined) return readXml(input, this.options(charset));
    if (record.plainText) {
      if (shapes.length >= this.maxShapes) shapes.pop();
      shapes.unshift(new Shape(text, doc, record));
    }
    return doc;
  }

  /** Shapes held now (for tests and diagnostics). */
  get size(): number {
    return this.shapes.length;
  }

  private options(charset: string | undefined): XmlReadOptions {
    return this.limits === undefined ? { charset } : { limits: this.limits, charset };
  }
}

/**
 * One learnt document: `marks[i]` is the markup before text slot i (the last one ends the
 * document); elements are numbered in document order, which is the template's preorder.
 */
class Shape implements ShapeMatch {
  private readonly marks: string[];
  private readonly template: XmlDocument;
  /** Per mark: number of line feeds in it, and the offset just after its last one (-1: none). */
  private readonly markLines: number[];
  private readonly markLastLineStart: number[];
  /** Per mark: one past the number of the last element whose '<' lies in it. */
  private readonly markElementsEnd: number[];
  /** Per element: offset of its '<' in its mark, line feeds before it in that mark, and the
   *  offset in the mark just after the last of those (-1: none, the line began earlier). */
  private readonly elementOffset: number[];
  private readonly elementLinesBefore: number[];
  private readonly elementLineStart: number[];
  readonly texts: string[];
  private readonly lines: number[];
  private readonly columns: number[];
  private nextText = 0;
  private nextElement = 0;

  constructor(text: string, doc: XmlDocument, record: ScanRecord) {
    const spans = record.textSpans;
    this.marks = [];
    let from = 0;
    for (let i = 0; i < spans.length; i += 2) {
      this.marks.push(flat(text.slice(from, spans[i])));
      from = spans[i + 1]!;
    }
    this.marks.push(flat(text.slice(from)));
    this.texts = new Array<string>(this.marks.length - 1).fill('');
    this.lines = new Array<number>(record.elementOffsets.length).fill(0);
    this.columns = new Array<number>(record.elementOffsets.length).fill(0);
    // The template keeps structure only: the first document's texts (a password, say) must not
    // live on in the cache for the life of the server.
    this.template = { ...doc, root: withoutTexts(doc.root) };
    this.markLines = [];
    this.markLastLineStart = [];
    this.markElementsEnd = [];
    this.elementOffset = [];
    this.elementLinesBefore = [];
    this.elementLineStart = [];
    // One pass over each mark (a document of many elements must not cost a scan per element:
    // shapes are learnt from whatever clients send).
    const offsets = record.elementOffsets;
    let e = 0;
    let markStart = 0;
    for (let m = 0; m < this.marks.length; m++) {
      const mark = this.marks[m]!;
      let lineFeeds = 0;
      let lineStart = -1;
      let scanned = 0;
      const scanTo = (to: number): void => {
        for (; scanned < to; scanned++) {
          if (mark.charCodeAt(scanned) === 0x0a) {
            lineFeeds++;
            lineStart = scanned + 1;
          }
        }
      };
      for (; e < offsets.length && offsets[e]! < markStart + mark.length; e++) {
        const at = offsets[e]! - markStart;
        scanTo(at);
        this.elementOffset.push(at);
        this.elementLinesBefore.push(lineFeeds);
        this.elementLineStart.push(lineStart);
      }
      scanTo(mark.length);
      this.markElementsEnd.push(e);
      this.markLines.push(lineFeeds);
      this.markLastLineStart.push(lineStart);
      markStart += mark.length + (m < this.marks.length - 1 ? spans[2 * m + 1]! - spans[2 * m]! : 0);
    }
  }

  /** Whether `text` has this shape; if so its texts are in the scratch. */
  match(text: string): boolean {
    if (this.fits(text)) return true;
    this.release(); // a partial match may have copied some of this request's texts
    return false;
  }

  private fits(text: string): boolean {
    const marks = this.marks;
    const last = marks.length - 1;
    // Scratch space reused by every match (reads are synchronous): no arrays per request.
    const texts = this.texts;
    let pos = 0;
    for (let m = 0; m <= last; m++) {
      const mark = marks[m]!;
      // Not startsWith: V8 compares there a character at a time (~1.4 us for a 300-character
      // prolog); equality of a slice is a block compare (~0.07 us).
      if (text.slice(pos, pos + mark.length) !== mark) return false;
      pos += mark.length;
      if (m === last) break;
      const end = plainTextEnd(text, pos);
      if (end <= pos) return false; // not plain, no '<' left, or no text where the shape has some
      texts[m] = text.slice(pos, end);
      pos = end;
    }
    return pos === text.length;
  }

  /** Lines and columns of the matched document's elements (only the tree needs them). */
  private positions(): void {
    const { marks, texts, lines, columns } = this;
    let pos = 0;
    let line = 1;
    let lineStart = 0;
    let e = 0;
    for (let m = 0; m < marks.length; m++) {
      for (const end = this.markElementsEnd[m]!; e < end; e++) {
        lines[e] = line + this.elementLinesBefore[e]!;
        const within = this.elementLineStart[e]!;
        columns[e] = within >= 0 ? this.elementOffset[e]! - within + 1 : pos + this.elementOffset[e]! - lineStart + 1;
      }
      if (this.markLines[m]! > 0) {
        line += this.markLines[m]!;
        lineStart = pos + this.markLastLineStart[m]!;
      }
      pos += marks[m]!.length;
      if (m === marks.length - 1) break;
      const value = texts[m]!;
      for (let lf = value.indexOf('\n'); lf >= 0; lf = value.indexOf('\n', lf + 1)) {
        line++;
        lineStart = pos + lf + 1;
      }
      pos += value.length;
    }
  }

  document(): XmlDocument {
    this.positions();
    this.nextText = 0;
    this.nextElement = 0;
    const root = this.copy(this.template.root);
    this.release();
    const { hasDeclaration, declaredEncoding } = this.template;
    return declaredEncoding === undefined ? { root, hasDeclaration } : { root, hasDeclaration, declaredEncoding };
  }

  release(): void {
    // The scratch must not hold a request's texts until the next one. A loop, not fill():
    // Array.prototype.fill is a call into the runtime, several times this loop on a few slots.
    const texts = this.texts;
    for (let i = 0; i < texts.length; i++) texts[i] = '';
  }

  /** Copies the template tree in document order, with the matched texts and positions.
   *  Attribute lists and namespace scopes are shared: read-only and equal by construction. */
  private copy(template: XmlElement): XmlElement {
    const n = this.nextElement++;
    const from = template.children;
    let children: readonly XmlNode[] = from;
    if (from.length > 0) {
      const copy = new Array<XmlNode>(from.length);
      for (let i = 0; i < from.length; i++) {
        const child = from[i]!;
        copy[i] = child.type === 'text' ? { type: 'text', text: this.texts[this.nextText++]! } : this.copy(child);
      }
      children = copy;
    }
    return {
      type: 'element',
      ns: template.ns,
      local: template.local,
      prefix: template.prefix,
      attributes: template.attributes,
      namespaces: template.namespaces,
      children,
      line: this.lines[n]!,
      column: this.columns[n]!,
    };
  }
}

const NO_TEXT: XmlNode = Object.freeze({ type: 'text', text: '' });

/** The element's tree with every text node replaced by an empty placeholder. */
function withoutTexts(el: XmlElement): XmlElement {
  if (el.children.length === 0) return el;
  return { ...el, children: el.children.map((c) => (c.type === 'text' ? NO_TEXT : withoutTexts(c))) };
}

/** A copy of `slice` that does not keep the whole learnt document alive. */
function flat(slice: string): string {
  return Buffer.from(slice, 'utf8').toString('utf8');
}
