/**
 * Shared by the differential tests of the XML readers and decoders (fast reader, shape cache,
 * shape decoders): a comparable form of a document, a seeded random generator, and seeded
 * mutations of a document's text.
 */
import type { XmlDocument, XmlElement } from '../../runtime/xml/types.js';
import { seededUint32 } from './seeded.js';

/** The tree without scope objects, plus the resolution of every prefix used. */
function normalise(el: XmlElement): unknown {
  const prefixes = new Set([el.prefix, ...el.attributes.map((a) => a.prefix), '']);
  return {
    ns: el.ns,
    local: el.local,
    prefix: el.prefix,
    line: el.line,
    column: el.column,
    attributes: el.attributes.map((a) => ({ ...a })),
    scope: [...prefixes].map((p) => [p, el.namespaces[p]]),
    children: el.children.map((c) => (c.type === 'text' ? { text: c.text } : normalise(c))),
  };
}

/** What two readers must agree on: the tree (positions included) and the declaration. */
export function comparable(d: XmlDocument): unknown {
  return { root: normalise(d.root), hasDeclaration: d.hasDeclaration, declaredEncoding: d.declaredEncoding };
}

/** A seeded generator of integers 0..n-1 (mulberry32, test/helpers/seeded.ts). */
export function seeded(start: number): (n: number) => number {
  const next = seededUint32(start);
  return (n) => next() % n;
}

/** Markup-breaking pieces the mutations insert. */
const PIECES = [
  '<',
  '>',
  '&',
  ';',
  '"',
  "'",
  '=',
  ':',
  '/',
  '!',
  '?',
  ' ',
  '\n',
  '\r',
  '\t',
  'xmlns',
  'xmlns:p',
  'p:',
  '&amp;',
  '&#x',
  '&#',
  ']]>',
  '<!--',
  '-->',
  '<![CDATA[',
  '\u0000',
  'é',
  '📱',
  'xml',
  '\uFFFE',
];

/** One to three random edits (delete, insert a piece, truncate, cut a span), then sometimes a random byte. */
export function mutate(text: string, random: (n: number) => number): Buffer {
  const edits = 1 + random(3);
  for (let e = 0; e < edits; e++) {
    const at = random(text.length + 1);
    const kind = random(4);
    if (kind === 0) text = text.slice(0, at) + text.slice(at + 1 + random(4));
    else if (kind === 1) text = text.slice(0, at) + PIECES[random(PIECES.length)]! + text.slice(at);
    else if (kind === 2) text = text.slice(0, at);
    else text = text.slice(0, at) + text.slice(random(text.length));
  }
  const bytes = Buffer.from(text);
  if (random(10) === 0 && bytes.length > 0) bytes[random(bytes.length)] = random(256);
  return bytes;
}
