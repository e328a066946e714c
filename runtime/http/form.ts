/**
 * Query strings and form bodies read as ASP.NET reads them (HttpUtility.UrlDecode): `+` is a
 * space, `%XX` a byte (the bytes of a run decoded as UTF-8 together), and `%uXXXX` one UTF-16 code
 * unit, which is how .NET's own HttpGetClientProtocol / HttpPostClientProtocol proxies send
 * non-ASCII text when no RequestEncoding is set (`Grüße` → `Gr%u00FC%u00DFe`). A `%u` that is not
 * followed by four hex digits, or that leaves half a surrogate pair, is refused: storing it
 * literally would be silent corruption. Without `%u` the text takes the WHATWG parser unchanged.
 */

/** The name the malformed escape was in ('' when it was in a name itself) and why. */
export interface MalformedEscape {
  readonly malformed: { readonly name: string; readonly why: string };
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextDecoder('utf-8');

/** One name or value: decoded text, or why it cannot be. */
function decodeComponent(text: string): string | { why: string } {
  const plus = text.replace(/\+/g, ' ');
  let out = '';
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length === 0) return;
    out += utf8.decode(Uint8Array.from(bytes));
    bytes = [];
  };
  for (let i = 0; i < plus.length; i++) {
    const c = plus[i]!;
    if (c === '%' && plus[i + 1] === 'u') {
      const hex = plus.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) return { why: `"${plus.slice(i, i + 6)}" is a %u escape without four hex digits` };
      flush();
      out += String.fromCharCode(Number.parseInt(hex, 16));
      i += 5;
    } else if (c === '%' && HEX2.test(plus.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(plus.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      flush();
      out += c;
    }
  }
  flush();
  if (LONE_SURROGATE.test(out)) return { why: 'a %u escape leaves half of a surrogate pair (not a whole character)' };
  return out;
}

/** The name/value pairs of a query string or form body, in order. */
export function parseFormText(text: string): URLSearchParams | MalformedEscape {
  if (!text.includes('%u')) return new URLSearchParams(text);
  const pairs: [string, string][] = [];
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const rawName = eq < 0 ? segment : segment.slice(0, eq);
    const name = decodeComponent(rawName);
    if (typeof name !== 'string') return { malformed: { name: '', why: name.why } };
    const value = decodeComponent(eq < 0 ? '' : segment.slice(eq + 1));
    if (typeof value !== 'string') return { malformed: { name, why: value.why } };
    pairs.push([name, value]);
  }
  return new URLSearchParams(pairs);
}
