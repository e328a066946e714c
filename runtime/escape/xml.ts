/**
 * XML escaping, the one place for it: the message writer's (strict, fast) and the reports' and
 * redaction's (lenient). Users: the codecs and envelopes (escapeText, escapeAttr), the JUnit
 * writers of the report kit (report/junit.ts) and of diff (escapeReportText), secret redaction
 * (xmlSpellings).
 *
 * The per-request path only concatenates strings: a value that needs no escaping (the common
 * case) costs one regex test. Characters XML 1.0 cannot carry (C0 controls other than
 * tab/LF/CR, U+FFFE/U+FFFF, lone surrogates) are refused with a `CodecError` naming the field:
 * sending them would produce a document no conforming parser accepts, and silently dropping
 * them would change the message.
 */
import { CodecError } from '../errors.js';

/** Anything that is not plain text-safe: markup, CR (escaped to survive end-of-line handling), forbidden or surrogate code units. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are what this finds
const TEXT_SPECIAL = /[<>&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters XML 1.0 forbids are what this finds
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

/**
 * Text for hand-written XML reports (JUnit): characters XML 1.0 cannot carry, even escaped,
 * become U+FFFD, and markup characters are escaped so the text is safe in content and in
 * double-quoted attributes alike.
 */
export function escapeReportText(text: string): string {
  return escapeMarkup(text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD'));
}

const MARKUP = /[&<>"]/g;
const MARKUP_ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** `& < > "` escaped, whatever else the text holds: safe in content and in double-quoted attributes. */
function escapeMarkup(text: string): string {
  return text.replace(MARKUP, (c) => MARKUP_ENTITY[c]!);
}

/**
 * The spellings `text` takes in a message the runtime writes (as is, escaped as character data
 * and as an attribute value) and in one a peer writes (every special escaped, the apostrophe as
 * `&apos;`, `&#39;` or, as .NET's attribute writers do, left as is), without repeats. What
 * redaction looks for, so a secret is found however it was spelt; text XML cannot carry (never
 * sent by us) keeps the peers' forms and its raw one.
 */
export function xmlSpellings(text: string): string[] {
  const markup = escapeMarkup(text);
  const peers = [markup.replace(/'/g, '&apos;'), markup.replace(/'/g, '&#39;'), markup];
  try {
    return [...new Set([text, escapeText(text, ''), escapeAttr(text, ''), ...peers])];
  } catch {
    return [...new Set([text, ...peers])];
  }
}

/**
 * Escapes each `&` that does not begin an entity or character reference, leaving the rest as it
 * is: for text cut from a document's markup (already escaped) that may have gained bare `&`s,
 * such as a WSDL address rewritten in place, where escaping it all again would double the `&amp;`.
 */
export function escapeBareAmpersands(markup: string): string {
  return markup.replace(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);)/g, '&amp;');
}
