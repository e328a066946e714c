/**
 * Redaction of secrets in everything a report shows: request paths, bodies, headers, curl
 * commands, failure messages. Conformance's runner redacts each trace as it is made, replay each
 * answer it shows, and the HTML page runs the named rules once more (report/html.ts). Two rules,
 * both always on:
 *   1. every value supplied as a secret is replaced wherever it appears, in its raw, XML-escaped,
 *      URL-encoded and form-encoded spellings;
 *   2. whatever a parameter, element or header *named* like a password or a credential carries
 *      is replaced, even if its value was never supplied (a server may echo a different one):
 *      `password=`, `<…Password>`, a WS-Security `<wsse:Nonce>`, `user:password@` in URLs,
 *      Authorization, Proxy-Authorization and Cookie headers.
 */

import { escapeRegExp } from '../runtime/escape/regexp.js';
import { wireSpellings } from '../runtime/escape/spellings.js';

const REDACTED = '***';

export type Redactor = (text: string) => string;

/** The spellings a secret takes on the wire. */
/** Query/form fields, XML elements and header lines named like a credential. */
const NAMED_RULES: readonly [RegExp, string][] = [
  // password="..." attributes (before the query rule, which would stop at the quote)
  [/(\s(?:[\w.-]+:)?[\w.-]*password[\w.-]*\s*=\s*)(?:"[^"]*"|'[^']*')/gi, `$1"${REDACTED}"`],
  // password=...& in query strings and form bodies
  [/((?:^|[?&\s'"])[^=&?\s'"]*password[^=&\s'"]*=)[^&\s'"]*/gi, `$1${REDACTED}`],
  // <password>...</password> with any prefix, and <x:Password ...>...</x:Password> (a WS-Security
  // UsernameToken's password or digest among them)
  // (text and CDATA sections alike)
  [/(<([\w.-]+:)?([\w.-]*password[\w.-]*)\b[^>]*>)(?:<!\[CDATA\[[\s\S]*?\]\]>|[^<])*(<\/\2?\3>)/gi, `$1${REDACTED}$4`],
  // <wsse:Nonce ...>...</wsse:Nonce>: with the time, what a digest password is computed from
  [/(<([\w.-]+:)?(Nonce)\b[^>]*>)(?:<!\[CDATA\[[\s\S]*?\]\]>|[^<])*(<\/\2?\3>)/g, `$1${REDACTED}$4`],
  // user:password@ in URLs
  [/(\w+:\/\/)[^/@\s'"]+@/g, `$1${REDACTED}@`],
  // Authorization / Cookie header values in curl commands and header dumps
  [/((?:^|['"\s])(?:authorization|proxy-authorization|cookie):\s*)[^'"\r\n]*/gim, `$1${REDACTED}`],
];

export function makeRedactor(secrets: readonly string[]): Redactor {
  const all = secrets.flatMap(wireSpellings).sort((a, b) => b.length - a.length);
  const secretPattern = all.length === 0 ? undefined : new RegExp(all.map(escapeRegExp).join('|'), 'g');
  return (text: string): string => {
    let out = secretPattern === undefined ? text : text.replace(secretPattern, REDACTED);
    for (const [pattern, replacement] of NAMED_RULES) out = out.replace(pattern, replacement);
    return out;
  };
}

/** Redacts every string value of a header map (header names kept). */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = /^(authorization|proxy-authorization|cookie|set-cookie)$/i.test(name) ? REDACTED : redact(value);
  }
  return out;
}
