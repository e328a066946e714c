/**
 * The server half: verifies the UsernameToken of a SOAP request before its handler runs.
 *
 * Order of checks, cheapest and least revealing first: the header's shape, the Timestamp and
 * Created against the clock, the password type this server accepts, then the user's password
 * (the only step that calls `passwordOf`), then the nonce, which is remembered only once the
 * password verified. An unknown user and a wrong password get the same fault, after the same
 * work. Comparisons are constant-time. Nothing from the token but the username leaves this
 * module, and the username only in the verified identity.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { XmlElement } from '../xml/types.js';
import { passwordDigest } from './digest.js';
import type { WsseFault } from './fault.js';
import { NonceCache } from './nonce-cache.js';
import { readSecurityHeader, type ReceivedToken } from './read.js';
import type { VerifiedIdentity, WsSecurityOptions } from './types.js';

export type VerifyOutcome =
  | { readonly ok: true; readonly identity: VerifiedIdentity | undefined }
  | { readonly ok: false; readonly fault: WsseFault };

const OPTION_NAMES = new Set([
  'passwordOf',
  'required',
  'allowPasswordText',
  'maxTokenAgeMs',
  'maxClockSkewMs',
  'maxNonces',
  'maxNoncesPerUser',
]);
const SHA1_BYTES = 20;
const LOG_INTERVAL_MS = 60_000;
/** Compared against when the user is unknown, so that case does the same work as a wrong password. */
const NO_PASSWORD = '\u0000no such user\u0000';

const failedAuthentication: VerifyOutcome = {
  ok: false,
  fault: {
    code: 'FailedAuthentication',
    message: 'The security token could not be authenticated or authorized.',
  },
};

const refuse = (code: WsseFault['code'], message: string): VerifyOutcome => ({ ok: false, fault: { code, message } });

export class UsernameTokenVerifier {
  readonly required: boolean;
  private readonly allowPasswordText: boolean;
  private readonly maxTokenAgeMs: number;
  private readonly maxClockSkewMs: number;
  private readonly nonces: NonceCache;
  private readonly passwordOf: WsSecurityOptions['passwordOf'];
  private lastFullLog = Number.NEGATIVE_INFINITY;

  /** Throws TypeError for options that are unknown or out of range. */
  constructor(
    options: WsSecurityOptions,
    private readonly log: (line: string) => void,
  ) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError('Server option wsSecurity must be an object');
    for (const key of Object.keys(options))
      if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown wsSecurity option: ${key}`);
    if (typeof options.passwordOf !== 'function') throw new TypeError('wsSecurity.passwordOf must be a function');
    for (const flag of ['required', 'allowPasswordText'] as const)
      if (options[flag] !== undefined && typeof options[flag] !== 'boolean')
        throw new TypeError(`wsSecurity.${flag} must be a boolean`);
    this.passwordOf = options.passwordOf;
    this.required = options.required ?? true;
    this.allowPasswordText = options.allowPasswordText ?? false;
    this.maxTokenAgeMs = positive('maxTokenAgeMs', options.maxTokenAgeMs, 300_000);
    this.maxClockSkewMs = positive('maxClockSkewMs', options.maxClockSkewMs, 60_000);
    const maxNonces = positive('maxNonces', options.maxNonces, 100_000);
    // A tenth by default: one user flooding the cache is refused on its own long before the
    // cache is full, and so cannot raise the floor everyone else's tokens are checked against.
    const perUser = positive('maxNoncesPerUser', options.maxNoncesPerUser, Math.max(1, Math.floor(maxNonces / 10)));
    if (perUser > maxNonces) throw new TypeError('wsSecurity.maxNoncesPerUser must not exceed maxNonces');
    this.nonces = new NonceCache(maxNonces, this.maxTokenAgeMs, perUser);
  }

  /** Verifies the request's header blocks; rejects only when `passwordOf` does (a Server fault, not the client's). */
  async verify(headerBlocks: readonly XmlElement[], now = Date.now()): Promise<VerifyOutcome> {
    const security = readSecurityHeader(headerBlocks);
    if ('code' in security) return { ok: false, fault: security };
    const stale = this.checkTimestamp(security.timestamp, now);
    if (stale !== undefined) return stale;
    const token = security.token;
    if (token === undefined) {
      return this.required
        ? refuse(
            'InvalidSecurity',
            'An error was discovered processing the <wsse:Security> header: this service requires a WS-Security UsernameToken and the request has none.',
          )
        : { ok: true, identity: undefined };
    }
    const shape = this.checkToken(token, now);
    if (shape !== undefined) return shape;
    const stored = await this.passwordOf(token.username);
    if (stored !== undefined && typeof stored !== 'string')
      throw new TypeError(`wsSecurity.passwordOf returned ${typeof stored}, not a string or undefined`);
    if (!passwordMatches(token, stored ?? NO_PASSWORD) || stored === undefined) return failedAuthentication;
    if (token.nonce !== undefined) {
      // checkToken made sure a token with a Nonce has a Created.
      const outcome = this.nonces.remember(token.username, token.nonce, token.created!.at, Date.now());
      if (outcome === 'replayed')
        return refuse(
          'InvalidSecurity',
          'An error was discovered processing the <wsse:Security> header: the UsernameToken nonce was already used (a replayed request).',
        );
      if (outcome === 'expired') return expired('its UsernameToken is older than this server now accepts');
      // The caller has proven its password, so it may be told why; not FailedAuthentication,
      // which means wrong credentials only.
      if (outcome === 'overShare')
        return refuse(
          'InvalidSecurity',
          `An error was discovered processing the <wsse:Security> header: this user sent more UsernameTokens within ${Math.round(this.maxTokenAgeMs / 1000)} s than this server remembers for one user; send fewer.`,
        );
      this.logWhenFull();
    }
    return { ok: true, identity: { username: token.username, passwordType: token.passwordType } };
  }

  /** Shape and clock checks that need no password: type allowed, digest parts present, Created fresh. */
  private checkToken(token: ReceivedToken, now: number): VerifyOutcome | undefined {
    if (token.passwordType === 'PasswordText' && !this.allowPasswordText)
      return refuse(
        'FailedAuthentication',
        'The security token could not be authenticated or authorized: this service does not accept PasswordText; send a PasswordDigest.',
      );
    if (token.passwordType === 'PasswordDigest') {
      if (token.nonce === undefined || token.created === undefined)
        return refuse(
          'InvalidSecurityToken',
          'An invalid security token was provided: a PasswordDigest needs a wsse:Nonce and a wsu:Created.',
        );
      const digest = decodeDigest(token.password);
      if (digest === undefined)
        return refuse(
          'InvalidSecurityToken',
          'An invalid security token was provided: the digest is not Base64 of SHA-1.',
        );
    }
    // A nonce without Created could be remembered for a while only, and replayed after: refused.
    if (token.nonce !== undefined && token.created === undefined)
      return refuse(
        'InvalidSecurityToken',
        'An invalid security token was provided: a wsse:Nonce needs a wsu:Created (replay protection).',
      );
    const created = token.created?.at;
    if (created === undefined) return undefined;
    if (created - now > this.maxClockSkewMs) return expired('its UsernameToken was created in the future');
    if (now - created > this.maxTokenAgeMs)
      return expired(`its UsernameToken was created more than ${Math.round(this.maxTokenAgeMs / 1000)} s ago`);
    if (created <= this.nonces.floor) return expired('its UsernameToken is older than this server now accepts');
    return undefined;
  }

  private checkTimestamp(
    timestamp: { readonly created: number | undefined; readonly expires: number | undefined } | undefined,
    now: number,
  ): VerifyOutcome | undefined {
    if (timestamp === undefined) return undefined;
    if (timestamp.created !== undefined && timestamp.created - now > this.maxClockSkewMs)
      return expired('its wsu:Timestamp was created in the future');
    if (timestamp.expires !== undefined && now - timestamp.expires > this.maxClockSkewMs)
      return expired('its wsu:Timestamp has expired');
    return undefined;
  }

  private logWhenFull(): void {
    if (this.nonces.dropped === 0) return;
    const now = Date.now();
    if (now - this.lastFullLog < LOG_INTERVAL_MS) return;
    this.lastFullLog = now;
    this.log(
      `ws-security: the nonce cache is full (${this.nonces.size} nonces, ${this.nonces.dropped} dropped so far): ` +
        `tokens created before ${new Date(this.nonces.floor).toISOString()} are refused as expired; raise wsSecurity.maxNonces`,
    );
  }
}

function expired(why: string): VerifyOutcome {
  return refuse('MessageExpired', `The message has expired: ${why}.`);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`wsSecurity.${name} must be a positive number`);
  return value;
}

/** The 20 digest bytes of a Base64 text, or undefined when it is not that. */
function decodeDigest(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]{27}=$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === SHA1_BYTES ? bytes : undefined;
}

/** Constant-time comparison of what the token proves against the stored password. */
function passwordMatches(token: ReceivedToken, stored: string): boolean {
  if (token.passwordType === 'PasswordDigest') {
    const expected = passwordDigest(token.nonce!, token.created!.text, stored);
    return timingSafeEqual(expected, decodeDigest(token.password)!);
  }
  // Hash both sides first: timingSafeEqual needs equal lengths, and the length must not leak.
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(sha256(token.password), sha256(stored));
}
