/**
 * Reading the captured ASMX exchanges in test/fixtures/asmx/captures (format: that folder's
 * README), and comparing XML documents by structure: what the elements, attributes and texts
 * are, not how they are spelt (prefixes, namespace declarations, attribute order, `<a/>` vs
 * `<a></a>`, indentation between elements).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';

export const CAPTURES = new URL('../fixtures/asmx/captures/', import.meta.url);
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

export interface CapturedMessage {
  /** `GET /rich.asmx/X?a=1 HTTP/1.1` or `HTTP/1.1 200 OK`. */
  readonly startLine: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface Capture {
  readonly request: CapturedMessage;
  readonly response: CapturedMessage;
  readonly status: number;
}

/** Undefined when the capture file is not there (the captures are optional for a fresh clone). */
export function readCapture(site: string, file: string): Capture | undefined {
  const url = new URL(`${site}/${file}`, CAPTURES);
  if (!existsSync(url)) return undefined;
  const text = readFileSync(url, 'utf8');
  const match = /^#### request\n([\s\S]*?)\n#### response\n([\s\S]*)$/.exec(text);
  if (match === null) throw new Error(`${file}: not a capture`);
  const request = message(match[1]!);
  const response = message(match[2]!);
  return { request, response, status: Number(response.startLine.split(' ')[1]) };
}

function message(block: string): CapturedMessage {
  const blank = block.indexOf('\n\n');
  const head = block.slice(0, blank).split('\n');
  // The capture script adds one '\n' after each body: strip exactly one.
  const body = block.slice(blank + 2).replace(/\n$/, '');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { startLine: head[0]!, headers, body };
}

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

export function documentStructure(xml: string, ignoreAttributes: readonly string[] = []): unknown {
  return structure(readXml(xml).root, ignoreAttributes);
}
