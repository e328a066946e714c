/**
 * Query strings and form bodies read as ASP.NET reads them (HttpUtility.UrlDecode): `+` is a
 * space, `%XX` a byte (the bytes of a run decoded as UTF-8 together), and `%uXXXX` one UTF-16 code
 * unit, which is how .NET's own HttpGetClientProtocol / HttpPostClientProtocol proxies send
 * non-ASCII text when no RequestEncoding is set (`Grüße` → `Gr%u00FC%u00DFe`). A `%u` that is not
 * followed by four hex digits, or that leaves half a surrogate pair, is refused when the operation
 * reads that parameter: storing it literally would be silent corruption. Without `%u` the text is read exactly as the WHATWG parser
 * (URLSearchParams) reads it: by parseStandard below, or by URLSearchParams itself when an escape
 * is one decodeURIComponent refuses.
 */

/** The name the malformed escape was in ('' when it was in a name itself) and why. */
export interface MalformedEscape {
  readonly malformed: { readonly name: string; readonly why: string };
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;
/** Half of a surrogate pair, standing alone: not a character. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
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

/** Whether a given parameter name is `wanted`, case aside (the exact spelling costs one compare). */
function sameName(given: string, wanted: string): boolean {
  return given === wanted || (given.length === wanted.length && given.toLowerCase() === wanted.toLowerCase());
}

/** `FormFields.single` for a name given more than once. */
export const MORE_THAN_ONCE: unique symbol = Symbol('more than once');

/**
 * The name/value pairs of a query string or form body, in order. A handful of fields is looked
 * up by name with a scan: no hashing of every name a request brings. Names match without regard
 * to case, as ASP.NET's collection (OrdinalIgnoreCase) reads them for ASMX: a client that sent
 * `SmsTo=` to ASMX must not be refused after the move. A segment without `=` (`?smsto&…`) is a
 * pair when iterated (name, empty value: the WHATWG reading) but gives no parameter its value:
 * ASP.NET files it under no name, so ASMX answered `Missing parameter`, and so does smskit.
 */
export class FormFields implements Iterable<[string, string]> {
  /**
   * `flat`: name, value, name, value, ... `unreadable`: name, why, ... for values whose `%u`
   * escape cannot be read, left out of `flat`: refused only when the operation reads that name
   * (ASP.NET keeps such an escape as text, so a parameter nobody reads never refuses a call).
   */
  constructor(
    private readonly flat: readonly string[],
    private readonly unreadable: readonly string[] = [],
    /** Indexes in `flat` of the names that came without `=`. */
    private readonly bare: ReadonlySet<number> | undefined = undefined,
  ) {}

  /** Whether the pair at `i` in `flat` gives a value to the parameter `name`. */
  private names(i: number, name: string): boolean {
    return sameName(this.flat[i]!, name) && this.bare?.has(i) !== true;
  }

  /** Why the value given for `name` cannot be read, when it cannot. */
  malformedValue(name: string): MalformedEscape | undefined {
    for (let i = 0; i < this.unreadable.length; i += 2)
      if (sameName(this.unreadable[i]!, name)) return { malformed: { name, why: this.unreadable[i + 1]! } };
    return undefined;
  }

  /** The first value given for `name`, or null when there is none. */
  get(name: string): string | null {
    for (let i = 0; i < this.flat.length; i += 2) if (this.names(i, name)) return this.flat[i + 1]!;
    return null;
  }

  /** The value given for `name` when it is given once; null when none, MORE_THAN_ONCE when several. */
  single(name: string): string | null | typeof MORE_THAN_ONCE {
    let found: string | null = null;
    for (let i = 0; i < this.flat.length; i += 2) {
      if (!this.names(i, name)) continue;
      if (found !== null) return MORE_THAN_ONCE;
      found = this.flat[i + 1]!;
    }
    return found;
  }

  getAll(name: string): string[] {
    const values: string[] = [];
    for (let i = 0; i < this.flat.length; i += 2) if (this.names(i, name)) values.push(this.flat[i + 1]!);
    return values;
  }

  *[Symbol.iterator](): Iterator<[string, string]> {
    for (let i = 0; i < this.flat.length; i += 2) yield [this.flat[i]!, this.flat[i + 1]!];
  }
}

export function parseFormText(text: string): FormFields {
  if (text.includes('%u')) return parseWithUnicodeEscapes(text);
  return parseStandard(text) ?? new FormFields([...new URLSearchParams(text)].flat(), [], bareNames(text));
}

/** `FormFields.bare` for the non-empty segments of `text`, in order, as URLSearchParams yields them. */
function bareNames(text: string): ReadonlySet<number> | undefined {
  let bare: Set<number> | undefined;
  let at = 0;
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    if (!segment.includes('=')) (bare ??= new Set()).add(at);
    at += 2;
  }
  return bare;
}

/**
 * The WHATWG application/x-www-form-urlencoded parser for the usual text: empty segments
 * skipped, the first `=` splits, `+` is a space, `%XX` runs are UTF-8. Undefined when a segment
 * holds an escape decodeURIComponent refuses (a malformed `%`, bytes that are not UTF-8), which
 * URLSearchParams then reads its own way (literally, or as U+FFFD).
 */
function parseStandard(text: string): FormFields | undefined {
  const flat: string[] = [];
  let bare: Set<number> | undefined;
  let start = 0;
  // The next '=', '+' and '%' at or after `start`, each found again only once passed: one pass
  // over the text (searching from every segment would be quadratic in a body of many segments
  // without '='), and no search per name and value for the '+' and '%' most of them lack.
  let eq = -1;
  let plus = -1;
  let percent = -1;
  const n = text.length;
  while (start <= n) {
    let end = text.indexOf('&', start);
    if (end < 0) end = n;
    if (end > start) {
      if (eq < start && eq !== n) eq = nextOf(text, '=', start);
      if (plus < start && plus !== n) plus = nextOf(text, '+', start);
      if (percent < start && percent !== n) percent = nextOf(text, '%', start);
      const split = Math.min(eq, end);
      const name = standardComponent(text, start, split, plus, percent);
      const value = split < end ? standardComponent(text, split + 1, end, plus, percent) : '';
      if (name === undefined || value === undefined) return undefined;
      if (split === end) (bare ??= new Set()).add(flat.length);
      flat.push(name, value);
    }
    start = end + 1;
  }
  return new FormFields(flat, [], bare);
}

/** The index of the first `char` at or after `from`, or the text's length when there is none. */
function nextOf(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
}

/**
 * text[from, to) decoded; undefined for an escape decodeURIComponent refuses. `plus` and
 * `percent` are the first '+' and '%' at or after the segment's start: none in the part when
 * they are at or past its end.
 */
function standardComponent(text: string, from: number, to: number, plus: number, percent: number): string | undefined {
  const raw = text.slice(from, to);
  const hasPlus = plus < to && raw.includes('+');
  const first = percent < to ? raw.indexOf('%') : -1;
  const spaced = hasPlus ? raw.replaceAll('+', ' ') : raw;
  if (first < 0) return spaced;
  const ascii = asciiEscapesDecoded(spaced, first);
  if (ascii !== NOT_ASCII) return ascii;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

const NOT_ASCII = null;

/**
 * `text` with its `%XX` escapes decoded when every one is an ASCII byte (an e-mail's `%40`, a
 * number's `%2B`): what decodeURIComponent gives, without its cost (a runtime call that was a
 * quarter of an HTTP POST request's JavaScript). Undefined for an escape decodeURIComponent
 * refuses (not two hex digits); NOT_ASCII when a byte is part of a UTF-8 sequence, which is
 * decodeURIComponent's to read.
 */
function asciiEscapesDecoded(text: string, first: number): string | undefined | typeof NOT_ASCII {
  let out = '';
  let start = 0;
  for (let i = first; i >= 0; i = text.indexOf('%', start)) {
    const high = hexDigit(text.charCodeAt(i + 1));
    const low = hexDigit(text.charCodeAt(i + 2));
    if (high < 0 || low < 0) return undefined;
    const byte = high * 16 + low;
    if (byte >= 0x80) return NOT_ASCII;
    out += text.slice(start, i) + String.fromCharCode(byte);
    start = i + 3;
  }
  return out + text.slice(start);
}

/** The value of a hex digit's code unit, -1 for anything else (NaN past the end included). */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * A pair whose name cannot be read names no parameter an operation has: it is skipped, as its
 * literal text would match none. One whose value cannot be read is kept aside (FormFields).
 */
function parseWithUnicodeEscapes(text: string): FormFields {
  const flat: string[] = [];
  const unreadable: string[] = [];
  let bare: Set<number> | undefined;
  for (const segment of text.split('&')) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const rawName = eq < 0 ? segment : segment.slice(0, eq);
    const name = decodeComponent(rawName);
    if (typeof name !== 'string') continue;
    const value = decodeComponent(eq < 0 ? '' : segment.slice(eq + 1));
    if (typeof value !== 'string') unreadable.push(name, value.why);
    else {
      if (eq < 0) (bare ??= new Set()).add(flat.length);
      flat.push(name, value);
    }
  }
  return new FormFields(flat, unreadable, bare);
}
