/**
 * The client half: the `wsse:Security` header block carrying a UsernameToken (OASIS WSS
 * UsernameToken Profile 1.0/1.1) that goes into every SOAP request when a client has `wsse` set.
 *
 * Elements in the profile's order (Username, Password, Nonce, Created), the Password `Type` and
 * the Nonce `EncodingType` as full URIs, Created in UTC. A fresh 16-byte random nonce and the
 * current time go into every request, also with PasswordText: a server that keeps nonces can then
 * refuse a replay of either kind.
 */
import { randomBytes } from 'node:crypto';
import type { Protocol } from '../descriptor.js';
import type { SoapVersion } from '../soap-version/version.js';
import { escapeText } from '../escape/xml.js';
import { passwordDigest } from './digest.js';
import { WSSE_NS, WSU_NS } from '../namespaces.js';
import { BASE64_BINARY_URI, PASSWORD_DIGEST_URI, PASSWORD_TEXT_URI } from './names.js';
import type { UsernameTokenOptions } from './types.js';

/** What makes one token unique: its nonce and creation time (fresh per request unless a test pins them). */
export interface TokenFreshness {
  readonly nonce: Uint8Array;
  /** xsd:dateTime in UTC, e.g. `2024-05-01T12:00:00.000Z`. */
  readonly created: string;
}

const OPTION_NAMES = new Set(['username', 'password', 'passwordType', 'mustUnderstand']);

/**
 * Checks client `wsse` options; throws a TypeError naming the option, never its value (the
 * password must not reach an error message or a log).
 */
export function checkUsernameTokenOptions(value: unknown): UsernameTokenOptions {
  if (typeof value !== 'object' || value === null) throw new TypeError('wsse must be { username, password }');
  for (const key of Object.keys(value)) if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown wsse option: ${key}`);
  const token = value as Record<string, unknown>;
  if (typeof token.username !== 'string' || token.username === '')
    throw new TypeError('wsse.username must be a non-empty string');
  if (typeof token.password !== 'string') throw new TypeError('wsse.password must be a string');
  if (
    token.passwordType !== undefined &&
    token.passwordType !== 'PasswordText' &&
    token.passwordType !== 'PasswordDigest'
  )
    throw new TypeError(`wsse.passwordType must be 'PasswordText' or 'PasswordDigest'`);
  if (token.mustUnderstand !== undefined && typeof token.mustUnderstand !== 'boolean')
    throw new TypeError('wsse.mustUnderstand must be a boolean');
  for (const field of ['username', 'password'] as const) {
    try {
      escapeText(token[field] as string, field);
    } catch {
      throw new TypeError(`wsse.${field} holds a character XML 1.0 cannot carry`);
    }
  }
  return value as UsernameTokenOptions;
}

/**
 * For a client's constructor: the checked `wsse` options (undefined when not set). HTTP GET and
 * POST have no SOAP Header to carry a token, and dropping it would send the call
 * unauthenticated, so `wsse` with those bindings is refused before anything is sent.
 */
export function clientUsernameToken(value: unknown, binding: Protocol): UsernameTokenOptions | undefined {
  if (value === undefined) return undefined;
  const token = checkUsernameTokenOptions(value);
  if (binding !== 'soap11' && binding !== 'soap12')
    throw new TypeError(
      `wsse (a WS-Security UsernameToken) cannot be sent over ${binding}: HTTP GET and POST have no SOAP header; use soap11 or soap12`,
    );
  return token;
}

/** A new nonce (16 random bytes) and the current time. */
export function freshToken(): TokenFreshness {
  return { nonce: randomBytes(16), created: new Date().toISOString() };
}

/** The complete `<wsse:Security>` header block for `token`, ready to go first in the envelope's Header. */
export function writeSecurityHeader(
  token: UsernameTokenOptions,
  version: SoapVersion,
  fresh: TokenFreshness = freshToken(),
): string {
  checkUsernameTokenOptions(token);
  const digest = (token.passwordType ?? 'PasswordDigest') === 'PasswordDigest';
  const password = digest
    ? passwordDigest(fresh.nonce, fresh.created, token.password).toString('base64')
    : escapeText(token.password, 'wsse:Password');
  const must = token.mustUnderstand === false ? '' : version.mustUnderstandAttribute;
  return (
    `<wsse:Security${must} xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}"><wsse:UsernameToken>` +
    `<wsse:Username>${escapeText(token.username, 'wsse:Username')}</wsse:Username>` +
    `<wsse:Password Type="${digest ? PASSWORD_DIGEST_URI : PASSWORD_TEXT_URI}">${password}</wsse:Password>` +
    `<wsse:Nonce EncodingType="${BASE64_BINARY_URI}">${Buffer.from(fresh.nonce).toString('base64')}</wsse:Nonce>` +
    `<wsu:Created>${fresh.created}</wsu:Created></wsse:UsernameToken></wsse:Security>`
  );
}
