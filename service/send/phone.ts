/**
 * `smsto` → E.164 (`+` then 8–15 digits, the first non-zero).
 *
 * Accepted spellings: digits with the separators space, `-`, `.`, `(`, `)` anywhere between them;
 * an international prefix written `+` or `00`. A number without an international prefix is a
 * national number: refused unless a default country calling code is configured, in which case one
 * leading trunk `0` is dropped (`07700 900123` → `+44 7700900123` with default 44) and the code is
 * prepended. Nothing else is guessed: letters, `*`, `#`, extensions and a `+` in the middle are refused.
 */
import { SmsRefusal } from '../errors.js';

export interface PhoneOptions {
  /** Country calling code for national numbers (1–3 digits, first non-zero), e.g. "1" or "44". */
  readonly defaultCountryCode?: string;
}

/** Longest raw `smsto` looked at; real numbers with separators are far shorter. */
export const MAX_PHONE_INPUT = 40;

const SEPARATORS = /[ \-.()]/g;
const COUNTRY_CODE = /^[1-9][0-9]{0,2}$/;
const E164 = /^\+[1-9][0-9]{7,14}$/;

/** Validates a default country calling code once, at configuration time. */
export function checkCountryCode(code: string): string {
  if (!COUNTRY_CODE.test(code)) throw new Error(`default country calling code must be 1-3 digits, not starting with 0`);
  return code;
}

function refuse(why: string): never {
  throw new SmsRefusal('InvalidRecipient', `smsto is not a valid phone number: ${why}`, 'smsto');
}

/** Normalises `smsto` to E.164 or throws `SmsRefusal('InvalidRecipient')`. */
export function normalizePhone(input: string, options: PhoneOptions = {}): string {
  if (input.length > MAX_PHONE_INPUT) refuse(`longer than ${MAX_PHONE_INPUT} characters`);
  const compact = input.replace(SEPARATORS, '');
  let digits: string;
  if (compact.startsWith('+')) digits = compact.slice(1);
  else if (compact.startsWith('00')) digits = compact.slice(2);
  else digits = national(compact, options);
  if (!/^[0-9]+$/.test(digits)) refuse('only digits, a leading + or 00, and the separators space - . ( ) are allowed');
  const e164 = `+${digits}`;
  if (digits.startsWith('0')) refuse('the country calling code cannot start with 0');
  if (!E164.test(e164)) refuse('an international number has 8 to 15 digits');
  return e164;
}

function national(compact: string, options: PhoneOptions): string {
  if (!/^[0-9]+$/.test(compact)) refuse('only digits, a leading + or 00, and the separators space - . ( ) are allowed');
  if (options.defaultCountryCode === undefined) {
    refuse('no country calling code; write it as +<country code><number> or 00<country code><number>');
  }
  const subscriber = compact.startsWith('0') ? compact.slice(1) : compact;
  return options.defaultCountryCode + subscriber;
}
