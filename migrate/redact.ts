/**
 * What `smskit record` keeps out of a recording, by rule: HTTP authentication and cookies
 * (Authorization, Proxy-Authorization, Cookie, Set-Cookie), and the value of every field named
 * like a secret, in SOAP bodies (element text), query strings and form bodies. The names come
 * from the service's WSDL (every element, attribute and part whose name matches the rule:
 * `password`, `Token`, `apiKey`...) plus the rule itself for names no WSDL declared, and a
 * WS-Security UsernameToken's Password and Nonce. Values become `***`; the exchange lists what
 * was replaced, so a replay knows which requests cannot be sent as they were.
 */
import type { HeaderList } from './recording.js';

export const REDACTED = '***';

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
    const text = body.toString('latin1');
    let outText = this.#elements(text, redacted);
    const media = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
    if (/application\/x-www-form-urlencoded/i.test(media)) outText = this.#params(outText, redacted, 'form field');
    let outTarget = target;
    if (target?.includes('?')) {
      const at = target.indexOf('?');
      outTarget = target.slice(0, at + 1) + this.#params(target.slice(at + 1), redacted, 'query parameter');
    }
    return {
      headers: outHeaders,
      body: outText === text ? body : Buffer.from(outText, 'latin1'),
      target: outTarget,
      redacted: [...new Set(redacted)],
    };
  }

  /** Any text shown to a person (a report's body or curl line): secret elements and `name=value` fields. */
  text(text: string): string {
    const ignored: string[] = [];
    return this.#elements(text, ignored).replace(
      /([?&\s'"])([^=&?\s'"]+)=([^&\s'"]*)/g,
      (whole, lead: string, name: string, value: string) =>
        value !== '' && this.#isSecret(name) ? `${lead}${name}=${REDACTED}` : whole,
    );
  }

  #elements(text: string, redacted: string[]): string {
    if (!text.includes('<')) return text;
    return text.replace(
      /<(([\w.-]+:)?([\w.-]+))(\s[^>]*)?>([^<]*)<\/\1\s*>/g,
      (whole, qname: string, _prefix: string | undefined, local: string, attrs: string | undefined, value: string) => {
        if (value === '' || !this.#isSecret(local)) return whole;
        redacted.push(`element ${local}`);
        return `<${qname}${attrs ?? ''}>${REDACTED}</${qname}>`;
      },
    );
  }

  #params(query: string, redacted: string[], what: string): string {
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        let name: string;
        try {
          name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
        } catch {
          return pair;
        }
        if (!this.#isSecret(name) || pair.slice(eq + 1) === '') return pair;
        redacted.push(`${what} ${name}`);
        return `${pair.slice(0, eq)}=${REDACTED}`;
      })
      .join('&');
  }
}
