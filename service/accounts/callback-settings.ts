/**
 * An account's callback settings, checked before they are stored: the receiver's URL (absolute
 * http(s), HTTPS unless the operator allowed plain HTTP for this account, no credentials in it,
 * bounded) and the Standard Webhooks signing secret (`whsec_` + base64 of 24 to 64 random bytes),
 * or a fresh one. Each check returns why a value is refused, for the caller to name its flag.
 */
import { randomBytes } from 'node:crypto';

export const MAX_CALLBACK_URL = 2048;
const SECRET_PREFIX = 'whsec_';
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Why `url` cannot be a callback URL, or undefined when it can. */
export function callbackUrlProblem(url: string, allowHttp: boolean): string | undefined {
  if (url.length > MAX_CALLBACK_URL) return `must be at most ${MAX_CALLBACK_URL} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL, such as https://hooks.example.com/sms';
  }
  if (parsed.protocol === 'http:' && !allowHttp)
    return 'must be https:// (plain http only with --allow-http-callback, for tests and private networks)';
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'must be an https:// (or http://) URL';
  if (parsed.hostname === '') return 'must name a host';
  // The URL is shown by account list and written to logs: a password in it would be too.
  if (parsed.username !== '' || parsed.password !== '')
    return 'must not carry credentials (user:password@): the receiver checks the signature instead';
  return undefined;
}

/** Why `secret` is not a Standard Webhooks secret, or undefined when it is. */
export function callbackSecretProblem(secret: string): string | undefined {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : undefined;
  const format = `must be ${SECRET_PREFIX} followed by the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes`;
  if (encoded === undefined || encoded.length > 4 * Math.ceil(MAX_SECRET_BYTES / 3) || !BASE64.test(encoded))
    return format;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES ? `${format} (it has ${bytes})` : undefined;
}

/** A fresh secret: 32 random bytes, the size Standard Webhooks implementations generate. */
export function newCallbackSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}
