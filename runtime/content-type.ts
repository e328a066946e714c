/** Content-Type parsing for routing (media type, charset, SOAP 1.2 action), fast for the usual values. */

export interface ContentType {
  /** Lowercased media type, '' when the header is absent. */
  readonly mediaType: string;
  /** Lowercased charset parameter, if given. */
  readonly charset: string | undefined;
  /** The `action` parameter (SOAP 1.2), unquoted. */
  readonly action: string | undefined;
}

const COMMON: ReadonlyMap<string, ContentType> = new Map([
  ['text/xml; charset=utf-8', { mediaType: 'text/xml', charset: 'utf-8', action: undefined }],
  ['text/xml', { mediaType: 'text/xml', charset: undefined, action: undefined }],
  ['application/soap+xml; charset=utf-8', { mediaType: 'application/soap+xml', charset: 'utf-8', action: undefined }],
  [
    'application/x-www-form-urlencoded',
    { mediaType: 'application/x-www-form-urlencoded', charset: undefined, action: undefined },
  ],
]);
const ABSENT: ContentType = { mediaType: '', charset: undefined, action: undefined };

/**
 * Parsed headers by their raw text. A client sends the same string on every request, and a
 * SOAP 1.2 one carries its operation's `action` parameter, so the COMMON table never matches
 * it and each request used to split, slice, trim and lowercase it again. Bounded: cleared when
 * full, so varied (or hostile) headers cannot grow it; long headers are not kept.
 */
const CACHE_LIMIT = 256;
const CACHE_MAX_HEADER = 512;
const cache = new Map<string, ContentType>();

/** The last header parsed: compared first, which is cheaper than hashing a fresh string for the maps. */
let lastHeader: string | undefined;
let lastParsed: ContentType = ABSENT;

export function parseContentType(header: string | undefined): ContentType {
  if (header === undefined) return ABSENT;
  if (header === lastHeader) return lastParsed;
  const parsed = parseCached(header);
  lastHeader = header;
  lastParsed = parsed;
  return parsed;
}

function parseCached(header: string): ContentType {
  const known = COMMON.get(header) ?? cache.get(header);
  if (known !== undefined) return known;
  const parsed = Object.freeze(parseUncached(header)); // shared between requests: never mutated
  if (header.length <= CACHE_MAX_HEADER) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(header, parsed);
  }
  return parsed;
}

function parseUncached(header: string): ContentType {
  const parts = splitParameters(header);
  let charset: string | undefined;
  let action: string | undefined;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    const value = unquote(part.slice(eq + 1).trim());
    if (name === 'charset') charset = value.toLowerCase();
    else if (name === 'action') action = value;
  }
  return { mediaType: (parts[0] ?? '').trim().toLowerCase(), charset, action };
}

/** Splits on ';' outside double quotes (an action URI may contain ';'). */
function splitParameters(header: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c === 0x22) quoted = !quoted;
    else if (c === 0x5c && quoted) i++;
    else if (c === 0x3b && !quoted) {
      parts.push(header.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(header.slice(start));
  return parts;
}

export function unquote(value: string): string {
  if (value.length >= 2 && value.charCodeAt(0) === 0x22 && value.charCodeAt(value.length - 1) === 0x22) {
    const inner = value.slice(1, -1);
    return inner.includes('\\') ? inner.replace(/\\(.)/g, '$1') : inner;
  }
  return value;
}

/**
 * The encodings a charset parameter can name that the runtime reads, by charset name: UTF-8
 * (US-ASCII is a subset) and UTF-16, whose byte order `utf-16le`/`utf-16be` fix and `utf-16`
 * leaves to the byte-order mark (big-endian without one: RFC 2781 §4.3).
 */
export type CharsetEncoding = 'utf-8' | 'utf-16' | 'utf-16le' | 'utf-16be';
const CHARSET_ENCODINGS: ReadonlyMap<string, CharsetEncoding> = new Map([
  ['utf-8', 'utf-8'],
  ['utf8', 'utf-8'],
  ['us-ascii', 'utf-8'],
  ['utf-16', 'utf-16'],
  ['utf-16le', 'utf-16le'],
  ['utf-16be', 'utf-16be'],
]);

/** The encoding a (lowercased) charset names, when the runtime reads it. */
export function charsetEncoding(charset: string): CharsetEncoding | undefined {
  return CHARSET_ENCODINGS.get(charset);
}

/** What a binding declares its bodies may be in (BindingWire.charsets), and how a 415 names it. */
export type CharsetFamily = 'utf-8' | 'utf-16';

/** The family of a (lowercased) charset, when the runtime reads it. */
export function charsetFamily(charset: string): CharsetFamily | undefined {
  const encoding = CHARSET_ENCODINGS.get(charset);
  return encoding === undefined ? undefined : encoding === 'utf-8' ? 'utf-8' : 'utf-16';
}
