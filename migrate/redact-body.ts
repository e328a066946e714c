/**
 * A body's text with its secrets replaced, read as what it is: JSON (by its media type, or by
 * its shape when it parses) member by member, XML tag by tag, form fields by name. A body no
 * reader can take apart, or none of these (text/plain, an octet stream), that names a secret is
 * given back as undefined: the caller then keeps none of it, since no rule can tell where in
 * free text a secret's value begins and ends.
 */
import { redactJson } from './redact-json.js';
import { redactXml } from './redact-xml.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const JSON_SHAPE = /^[\s\ufeff]*[[{]/;
const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface BodyRules {
  readonly isSecret: (name: string) => boolean;
  /** Form (or query) fields with secret values replaced. */
  readonly params: (text: string, redacted: string[]) => string;
}

/** Whether any word of the text is a secret name (a body that names none has nothing to keep out). */
function namesSecret(text: string, isSecret: (name: string) => boolean): boolean {
  for (const m of text.matchAll(/[\w.-]+/g)) if (isSecret(m[0])) return true;
  return false;
}

/** The text with secrets replaced (what was, pushed on `redacted`); undefined when it names a secret and cannot be read. */
export function redactBodyText(
  text: string,
  mediaType: string,
  rules: BodyRules,
  redacted: string[],
): string | undefined {
  const unread = (what: string): string | undefined => {
    if (!namesSecret(text, rules.isSecret)) return text;
    redacted.push(`body (${what})`);
    return undefined;
  };
  const typedJson = JSON_TYPE.test(mediaType);
  if (typedJson || JSON_SHAPE.test(text)) {
    const json = redactJson(text, rules.isSecret);
    if (json !== undefined) {
      redacted.push(...json.redacted);
      return json.text;
    }
    if (typedJson) return unread('not readable as JSON');
  }
  let out = text;
  if (text.includes('<')) {
    const xml = redactXml(text, rules.isSecret);
    if (xml === undefined) return unread('not readable as XML');
    redacted.push(...xml.redacted);
    out = xml.text;
  }
  if (mediaType === FORM_TYPE) return rules.params(out, redacted);
  return text.includes('<') ? out : unread('not XML, JSON or form fields');
}

/**
 * Text shown to a person (a report's body, a curl line): JSON and XML secrets replaced where the
 * text is either, and a text that names a secret but is unreadable XML not shown at all.
 */
export function shownText(text: string, isSecret: (name: string) => boolean): string {
  const json = JSON_SHAPE.test(text) ? redactJson(text, isSecret) : undefined;
  if (json !== undefined) return json.text;
  if (!text.includes('<')) return text;
  const xml = redactXml(text, isSecret);
  if (xml !== undefined) return xml.text;
  return namesSecret(text, isSecret) ? '*** not shown: it names a secret and could not be read to redact it ***' : text;
}
