/**
 * Which encoding an XML body received over HTTP is in, and its text when that is UTF-16. The
 * order is RFC 7303 §3's (and what ASP.NET's reader does): a byte-order mark first, then the
 * charset parameter of the Content-Type, then the XML declaration (checked by readXml, which
 * is told the charset), else UTF-8. XML 1.0 §4.3.3 has every XML processor read UTF-8 and
 * UTF-16; other encodings are not read (a server refuses their charsets with 415 before this).
 *
 * UTF-8 bodies stay bytes: readXml, the fast reader and the shape cache read those themselves,
 * and the usual request must cost no more than a look at its first byte here.
 */
import { charsetEncoding } from '../content-type.js';
import { locateIndex, XmlReadError } from './errors.js';

type Utf16 = 'utf-16le' | 'utf-16be';

const UTF16_DECODERS = {
  'utf-16le': new TextDecoder('utf-16le', { fatal: true }),
  'utf-16be': new TextDecoder('utf-16be', { fatal: true }),
} as const;

/**
 * The body as readXml takes it (pass it `charset` too): the bytes themselves when they are
 * UTF-8, the text when they are UTF-16 (its BOM left out). Throws XmlReadError XML_ENCODING for
 * UTF-16 bytes that are not UTF-16 (an odd count, an unpaired surrogate), as readXml does for
 * bytes that are not UTF-8. The byte count is the caller's to limit: the text is never longer.
 */
export function xmlBodyInput(body: Uint8Array, charset: string | undefined): Uint8Array | string {
  const first = body[0];
  // UTF-8 never holds 0xFE or 0xFF, so a UTF-8 body (labelled so, or not at all) is known here.
  if (first !== 0xfe && first !== 0xff && (charset === undefined || charset === 'utf-8')) return body;
  const utf16 = utf16ByteOrder(body, charset);
  return utf16 === undefined ? body : decodeUtf16(body, utf16);
}

/** UTF-16 and its byte order, by the BOM or else the charset; undefined for UTF-8 (or a charset not read). */
function utf16ByteOrder(body: Uint8Array, charset: string | undefined): Utf16 | undefined {
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return undefined; // a UTF-8 BOM
  const named = charset === undefined ? undefined : charsetEncoding(charset);
  // RFC 2781 §4.3: UTF-16 without a BOM is big-endian.
  if (named === 'utf-16') return 'utf-16be';
  return named === 'utf-16le' || named === 'utf-16be' ? named : undefined;
}

function decodeUtf16(body: Uint8Array, encoding: Utf16): string {
  try {
    return UTF16_DECODERS[encoding].decode(body);
  } catch {
    // Error path only: the first undecodable unit, where the message can point.
    const probe = new TextDecoder(encoding).decode(body);
    const bad = probe.indexOf('\ufffd');
    const { line, column } = bad < 0 ? { line: 1, column: 1 } : locateIndex(probe, bad);
    throw new XmlReadError('XML_ENCODING', `The document is not valid ${encoding.toUpperCase()}`, line, column);
  }
}
