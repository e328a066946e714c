/**
 * HTTP Basic (RFC 7617) and Bearer (RFC 6750) as one `Authorization` header value, checked
 * once when the client is made. Messages name what is wrong, never the password or token.
 */
import type { HttpAuth } from './types.js';

/**
 * Control characters would split or end the header line: undici refuses them per request with
 * a less helpful error, so they are refused here, once.
 */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
// RFC 6750 section 2.1 b64token: what a Bearer credential may hold (JWTs and opaque tokens fit).
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function authorizationValue(auth: HttpAuth, where = 'options.auth'): string {
  if (typeof auth !== 'object' || auth === null) throw new TypeError(`${where} must be an object`);
  if (auth.type === 'basic') {
    checkKeys(auth, ['type', 'username', 'password'], where);
    if (typeof auth.username !== 'string' || auth.username === '')
      throw new TypeError(`${where}.username must be a non-empty string`);
    // RFC 7617: the user-id cannot contain a colon, since the first colon ends it.
    if (auth.username.includes(':') || hasControlCharacter(auth.username))
      throw new TypeError(`${where}.username cannot contain a colon or control characters`);
    if (typeof auth.password !== 'string') throw new TypeError(`${where}.password must be a string`);
    if (hasControlCharacter(auth.password)) throw new TypeError(`${where}.password cannot contain control characters`);
    return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  }
  if (auth.type === 'bearer') {
    checkKeys(auth, ['type', 'token'], where);
    if (typeof auth.token !== 'string' || !B64TOKEN.test(auth.token))
      throw new TypeError(`${where}.token must be a non-empty bearer token (letters, digits and -._~+/, then any =)`);
    return `Bearer ${auth.token}`;
  }
  throw new TypeError(`${where}.type must be 'basic' or 'bearer'`);
}

/** The parts of the credential that must never be shown: for the client's redaction list. */
export function authSecrets(auth: HttpAuth, headerValue: string): string[] {
  const encoded = headerValue.slice(headerValue.indexOf(' ') + 1);
  return auth.type === 'basic' ? [auth.password, encoded] : [auth.token];
}

function checkKeys(value: object, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) throw new TypeError(`Unknown ${where} option: ${key}`);
}
