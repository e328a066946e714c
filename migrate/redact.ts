/**
 * What `smskit record` keeps out of a recording, by rule: HTTP authentication and cookies
 * (Authorization, Proxy-Authorization, Cookie, Set-Cookie), and the value of every field named
 * like a secret, in SOAP bodies (element text), query strings, form bodies and JSON. The names come
 * from the service's WSDL (every element, attribute and part whose name matches the rule:
 * `password`, `Token`, `apiKey`...) plus the rule itself for names no WSDL declared, and a
 * WS-Security UsernameToken's Password and Nonce. Values become `***`; the exchange lists what
 * was replaced, so a replay knows which requests cannot be sent as they were.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { parseContentType } from '../runtime/content-type.js';
import { parseFormText } from '../runtime/http/form.js';
import { xmlBodyInput } from '../runtime/xml/body-encoding.js';
import type { HeaderList } from './recording.js';
import { type BodyRules, redactBodyText, shownText } from './redact-body.js';
import { REDACTED } from './redact-xml.js';

export { REDACTED };

/** How a body that names a secret and cannot be read to replace it begins, in place of its bytes. */
export const WITHHELD_BODY = '*** body not stored: it names a secret and could not be read to redact it';

const SECRET_NAME = /password|passwd|passphrase|^pwd$|secret|token|api[-_]?key|credential|^pin$|^nonce$/i;
/** Whether a field's local name is one the rule calls secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.includes(':') ? name.slice(name.indexOf(':') + 1) : name);
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** The declared names in a WSDL's text that the rule calls secret, sorted. */
export function secretFieldsOfWsdl(wsdl: string): string[] {
  const names = new Set<string>();
  for (const m of wsdl.matchAll(/<(?:[\w.-]+:)?(?:element|attribute|part)\b[^>]*?\sname\s*=\s*["']([^"']+)["']/g))
    if (SECRET_NAME.test(m[1]!)) names.add(m[1]!);
  return [...names].sort();
}

export interface Redaction {
  readonly headers: HeaderList;
  readonly body: Buffer;
  readonly target: string | undefined;
  readonly redacted: readonly string[];
}

/** Redacts messages of one recording: the WSDL's secret names and the rule's. */
export class Redactor {
  #fields: Set<string>;
  readonly #digestKey = randomBytes(32);
  readonly #rules: BodyRules = {
    isSecret: (name) => this.#isSecret(name),
    params: (text, redacted) => this.#params(text, redacted, 'form field'),
  };

  constructor(fields: readonly string[] = []) {
    this.#fields = new Set(fields);
  }

  /** Adds the names a WSDL declares (a WSDL that passes through the recorder). */
  learn(fields: readonly string[]): void {
    for (const f of fields) this.#fields.add(f);
  }

  get fields(): string[] {
    return [...this.#fields].sort();
  }

  #isSecret(name: string): boolean {
    const local = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
    return this.#fields.has(local) || SECRET_NAME.test(local);
  }

  /** A message's headers, body and (for a request) target with every secret replaced. */
  message(headers: HeaderList, body: Buffer, target?: string): Redaction {
    const redacted: string[] = [];
    const outHeaders = headers.map(([name, value]): [string, string] => {
      if (!SECRET_HEADERS.has(name.toLowerCase())) return [name, value];
      redacted.push(`header ${name}`);
      return [name, REDACTED];
    });
    const contentType = parseContentType(headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1]);
    const outBody = this.#body(body, contentType.charset, contentType.mediaType, redacted);
    let outTarget = target;
    if (target?.includes('?')) {
      const at = target.indexOf('?');
      outTarget = target.slice(0, at + 1) + this.#params(target.slice(at + 1), redacted, 'query parameter');
    }
    return { headers: outHeaders, body: outBody, target: outTarget, redacted: [...new Set(redacted)] };
  }

  /**
   * A body with its secrets replaced, read in its own encoding (UTF-16 by its BOM or charset,
   * anything else byte for byte as latin1, which keeps every ASCII name) as what it is
   * (redact-body.ts). A body that names a secret but cannot be read is not kept (#withheld).
   */
  #body(body: Buffer, charset: string | undefined, mediaType: string, redacted: string[]): Buffer {
    let input: Uint8Array | string;
    try {
      input = xmlBodyInput(body, charset);
    } catch {
      redacted.push('body (undecodable)');
      return this.#withheld(body);
    }
    const text = typeof input === 'string' ? input : body.toString('latin1');
    const outText = redactBodyText(text, mediaType, this.#rules, redacted);
    if (outText === undefined) return this.#withheld(body);
    if (outText === text) return body;
    return typeof input === 'string' ? encodeUtf16Like(body, outText) : Buffer.from(outText, 'latin1');
  }

  /**
   * What a body becomes when it names a secret and cannot be read to replace it: its length and
   * a digest in place of its bytes. The digest is keyed by this recorder's own random key, never
   * stored: equal bodies of one recording have equal digests, and a digest cannot be used to test
   * a guessed password.
   */
  #withheld(body: Buffer): Buffer {
    const digest = createHmac('sha256', this.#digestKey).update(body).digest('hex');
    return Buffer.from(`${WITHHELD_BODY} (${body.length} bytes, hmac-sha256 ${digest}) ***`);
  }

  /** Any text shown to a person (a report's body or curl line): secret members, elements and `name=value` fields. */
  text(text: string): string {
    return shownText(text, this.#rules.isSecret).replace(
      /(^|[?&\s'"])([^=&?\s'"]+)=([^&\s'"]*)/g,
      (whole, lead: string, name: string, value: string) =>
        value !== '' && this.#isSecret(name) ? `${lead}${name}=${REDACTED}` : whole,
    );
  }

  #params(query: string, redacted: string[], what: string): string {
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        // The runtime's own reading (it knows .NET's `%u0077`); a name it cannot read (which it
        // skips) is taken as secret.
        const rawName = pair.slice(0, eq);
        const name = rawName === '' ? '' : [...parseFormText(rawName)][0]?.[0];
        if ((name !== undefined && !this.#isSecret(name)) || pair.slice(eq + 1) === '') return pair;
        redacted.push(`${what} ${name ?? '(unreadable name)'}`);
        return `${pair.slice(0, eq)}=${REDACTED}`;
      })
      .join('&');
  }
}

/** UTF-16 text encoded as the original body was: its byte order, and its BOM if it had one. */
function encodeUtf16Like(original: Buffer, text: string): Buffer {
  const bigEndian = !(original[0] === 0xff && original[1] === 0xfe) && !looksLittleEndian(original);
  const bom = (original[0] === 0xff && original[1] === 0xfe) || (original[0] === 0xfe && original[1] === 0xff);
  const le = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  return bigEndian ? le.swap16() : le;
}

/** A BOM-less UTF-16 body in little-endian order (`<` then a zero byte), as some clients send it. */
const looksLittleEndian = (body: Buffer): boolean => body[0] === 0x3c && body[1] === 0x00;
