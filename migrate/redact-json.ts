/**
 * Secret values in JSON text: the value of every member whose name is secret, at any depth
 * (`{"auth": {"password": "…"}}`, an array of such objects), becomes the string `"***"`, whatever
 * it was (a string, a number: a PIN; an object or array: all of it). A member name is read as
 * JSON reads it (`"pass\u0077ord"` is `password`). Everything else stays byte for byte, so a
 * replayed body differs only where a secret was (parsing and printing again would rewrite
 * numbers past 2^53, spacing and escapes).
 */
import { REDACTED } from './redact-xml.js';

export interface JsonRedaction {
  readonly text: string;
  readonly redacted: readonly string[];
}

const WHITESPACE = /[ \t\r\n]*/y;

/** Where the string token starting at `at` (its opening quote) ends, just past its closing quote. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

function skipWhitespace(text: string, at: number): number {
  WHITESPACE.lastIndex = at;
  WHITESPACE.exec(text);
  return WHITESPACE.lastIndex;
}

/** Where the value starting at `at` ends (the text is known to be JSON). */
function valueEnd(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== '{' && first !== '[') {
    let i = at;
    while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  do {
    const c = text[i]!;
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  } while (depth > 0 && i < text.length);
  return i;
}

/** JSON text with secret members' values replaced; undefined when the text is not JSON. */
export function redactJson(text: string, isSecret: (name: string) => boolean): JsonRedaction | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const redacted: string[] = [];
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') {
      i++;
      continue;
    }
    const end = stringEnd(text, i);
    const colon = skipWhitespace(text, end);
    // Only a member's name is followed by a colon.
    if (text[colon] !== ':') {
      i = end;
      continue;
    }
    const name = JSON.parse(text.slice(i, end)) as string;
    const valueAt = skipWhitespace(text, colon + 1);
    const after = valueEnd(text, valueAt);
    const value = text.slice(valueAt, after);
    if (isSecret(name) && value !== 'null' && value !== '""') {
      out += `${text.slice(copied, valueAt)}"${REDACTED}"`;
      copied = after;
      redacted.push(`member ${name}`);
      i = after;
    } else i = valueAt;
  }
  return { text: out + text.slice(copied), redacted };
}
