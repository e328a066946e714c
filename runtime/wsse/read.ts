/**
 * Reading a request's `wsse:Security` header: which block is addressed to this node, and the
 * UsernameToken and Timestamp in it, checked for shape only (no clock, no password). Anything the
 * server would have to ignore to go on is refused instead: a second Security block for this
 * node, a second token, a signature or other token this server does not verify. Messages name
 * elements, never their values.
 */
import {
  SOAP11_ACTOR_NEXT,
  SOAP11_ENV_NS,
  SOAP12_ENV_NS,
  SOAP12_ROLE_NEXT,
  SOAP12_ROLE_ULTIMATE,
} from '../namespaces.js';
import type { XmlElement } from '../xml/types.js';
import type { WsseFault } from './fault.js';
import { WSSE_NS, WSU_NS } from '../namespaces.js';
import { BASE64_BINARY_URI, PASSWORD_DIGEST_URI, PASSWORD_TEXT_URI } from './names.js';
import type { PasswordType } from './types.js';

export interface ReceivedToken {
  readonly username: string;
  readonly passwordType: PasswordType;
  /** The password (PasswordText) or the Base64 digest text (PasswordDigest), trimmed. */
  readonly password: string;
  readonly nonce: Buffer | undefined;
  /** The wsu:Created text as sent (the digest covers it), and the instant it names. */
  readonly created: { readonly text: string; readonly at: number } | undefined;
}

export interface ReceivedSecurity {
  readonly token: ReceivedToken | undefined;
  /** wsu:Timestamp's Created and Expires instants, when the header has one. */
  readonly timestamp: { readonly created: number | undefined; readonly expires: number | undefined } | undefined;
}

const MAX_USERNAME = 1024;
const MAX_PASSWORD = 4096;
const MAX_NONCE_CHARS = 256;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** xsd:dateTime with a time zone (WSS asks for UTC; `Z` and `+00:00` are both UTC). */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

const fault = (code: WsseFault['code'], message: string): WsseFault => ({ code, message });
const invalidToken = (why: string): WsseFault =>
  fault('InvalidSecurityToken', `An invalid security token was provided: ${why}.`);

/** The `wsse:Security` blocks of a request's Header (any actor/role); the rest are not security's business. */
export function isSecurityHeader(block: XmlElement): boolean {
  return block.local === 'Security' && block.ns === WSSE_NS;
}

/** The Security header addressed to this node (the ultimate receiver), read; a fault when it cannot be. */
export function readSecurityHeader(blocks: readonly XmlElement[]): ReceivedSecurity | WsseFault {
  const ours = blocks.filter((b) => isSecurityHeader(b) && addressedToUs(b));
  if (ours.length === 0) return { token: undefined, timestamp: undefined };
  if (ours.length > 1)
    return fault(
      'InvalidSecurity',
      'An error was discovered processing the <wsse:Security> header: there is more than one for this node.',
    );
  let token: ReceivedToken | undefined;
  let timestamp: ReceivedSecurity['timestamp'];
  let tokens = 0;
  for (const c of ours[0]!.children) {
    if (c.type === 'text') {
      if (c.text.trim() !== '') return invalidHeader('text directly inside it');
      continue;
    }
    if (c.ns === WSSE_NS && c.local === 'UsernameToken') {
      if (++tokens > 1) return invalidHeader('more than one UsernameToken');
      const read = readUsernameToken(c);
      if ('code' in read) return read;
      token = read;
    } else if (c.ns === WSU_NS && c.local === 'Timestamp') {
      if (timestamp !== undefined) return invalidHeader('more than one wsu:Timestamp');
      const read = readTimestamp(c);
      if ('code' in read) return read;
      timestamp = read;
    } else {
      return fault(
        'UnsupportedSecurityToken',
        `An unsupported token was provided: {${c.ns}}${c.local} in <wsse:Security> is not processed by this server.`,
      );
    }
  }
  return { token, timestamp };
}

function invalidHeader(why: string): WsseFault {
  return fault('InvalidSecurity', `An error was discovered processing the <wsse:Security> header: ${why}.`);
}

/**
 * SOAP 1.1 `actor` / SOAP 1.2 `role`: a block without one is for the ultimate receiver (us);
 * `next` is for every node; any other role is another node's business.
 */
function addressedToUs(block: XmlElement): boolean {
  for (const a of block.attributes) {
    const v = a.value.trim();
    if (a.ns === SOAP11_ENV_NS && a.local === 'actor') return v === '' || v === SOAP11_ACTOR_NEXT;
    if (a.ns === SOAP12_ENV_NS && a.local === 'role')
      return v === '' || v === SOAP12_ROLE_NEXT || v === SOAP12_ROLE_ULTIMATE;
  }
  return true;
}

function readUsernameToken(el: XmlElement): ReceivedToken | WsseFault {
  const parts = new Map<string, XmlElement>();
  for (const c of el.children) {
    if (c.type === 'text') {
      if (c.text.trim() !== '') return invalidToken('text directly inside UsernameToken');
      continue;
    }
    const key =
      c.ns === WSSE_NS && (c.local === 'Username' || c.local === 'Password' || c.local === 'Nonce')
        ? c.local
        : c.ns === WSU_NS && c.local === 'Created'
          ? 'Created'
          : undefined;
    if (key === undefined) return invalidToken(`unexpected element {${c.ns}}${c.local} in UsernameToken`);
    if (parts.has(key)) return invalidToken(`more than one ${key}`);
    parts.set(key, c);
  }
  const usernameEl = parts.get('Username');
  if (usernameEl === undefined) return invalidToken('no wsse:Username');
  const username = textOf(usernameEl);
  if (username === undefined || username === '' || username.length > MAX_USERNAME)
    return invalidToken(`wsse:Username must be text of 1 to ${MAX_USERNAME} characters`);
  const passwordEl = parts.get('Password');
  if (passwordEl === undefined) return invalidToken('no wsse:Password');
  const passwordType = passwordTypeOf(passwordEl);
  if (passwordType === undefined)
    return invalidToken('the wsse:Password Type is neither PasswordText nor PasswordDigest');
  const rawPassword = textOf(passwordEl);
  if (rawPassword === undefined || rawPassword.length > MAX_PASSWORD)
    return invalidToken(`wsse:Password must be text of at most ${MAX_PASSWORD} characters`);
  const nonce = readNonce(parts.get('Nonce'));
  if (nonce !== undefined && !Buffer.isBuffer(nonce)) return nonce;
  const createdEl = parts.get('Created');
  const created = createdEl === undefined ? undefined : readInstant(createdEl);
  if (created === null) return invalidToken(`wsu:Created must be an xsd:dateTime with a time zone (UTC)`);
  return {
    username,
    passwordType,
    password: passwordType === 'PasswordDigest' ? rawPassword.trim() : rawPassword,
    nonce,
    created,
  };
}

/** The Type attribute (unqualified); absent means PasswordText (UsernameToken Profile 1.0, 3.1). */
function passwordTypeOf(el: XmlElement): PasswordType | undefined {
  const type = el.attributes.find((a) => a.ns === '' && a.local === 'Type')?.value.trim();
  if (type === undefined || type === PASSWORD_TEXT_URI) return 'PasswordText';
  return type === PASSWORD_DIGEST_URI ? 'PasswordDigest' : undefined;
}

function readNonce(el: XmlElement | undefined): Buffer | undefined | WsseFault {
  if (el === undefined) return undefined;
  const encoding = el.attributes.find((a) => a.ns === '' && a.local === 'EncodingType')?.value.trim();
  if (encoding !== undefined && encoding !== BASE64_BINARY_URI)
    return invalidToken('the wsse:Nonce EncodingType is not Base64Binary');
  const text = textOf(el)?.trim();
  if (text === undefined || text === '' || text.length > MAX_NONCE_CHARS || !BASE64.test(text))
    return invalidToken(`wsse:Nonce must be Base64 of at most ${MAX_NONCE_CHARS} characters`);
  return Buffer.from(text, 'base64');
}

function readTimestamp(el: XmlElement): NonNullable<ReceivedSecurity['timestamp']> | WsseFault {
  let created: number | undefined;
  let expires: number | undefined;
  for (const c of el.children) {
    if (c.type === 'text') {
      if (c.text.trim() !== '') return invalidHeader('text directly inside wsu:Timestamp');
      continue;
    }
    if (c.ns !== WSU_NS || (c.local !== 'Created' && c.local !== 'Expires'))
      return invalidHeader(`unexpected element {${c.ns}}${c.local} in wsu:Timestamp`);
    const instant = readInstant(c);
    if (instant === null)
      return invalidHeader(`wsu:${c.local} in wsu:Timestamp is not an xsd:dateTime with a time zone`);
    if (c.local === 'Created') created = instant.at;
    else expires = instant.at;
  }
  return { created, expires };
}

/** The instant an xsd:dateTime element names (with its text as sent), or null when it is not one with a zone. */
function readInstant(el: XmlElement): { text: string; at: number } | null {
  const text = textOf(el)?.trim() ?? '';
  const at = DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : { text, at };
}

/** The element's text, or undefined when it holds elements. */
function textOf(el: XmlElement): string | undefined {
  let text = '';
  for (const c of el.children) {
    if (c.type !== 'text') return undefined;
    text += c.text;
  }
  return text;
}
