/**
 * `keyword`: the sender keyword (sender ID) registered to the account, shown to the recipient as
 * the message's sender. 1–11 ASCII letters and digits (the alphanumeric sender ID limit of GSM
 * 03.40), compared case-insensitively; the canonical form is upper case.
 */
import { SmsRefusal } from '../errors.js';

const KEYWORD = /^[A-Za-z0-9]{1,11}$/;

/** Canonical (upper-case) keyword, or throws `SmsRefusal('InvalidKeyword')`. */
export function canonicalKeyword(value: string): string {
  if (!KEYWORD.test(value)) {
    throw new SmsRefusal('InvalidKeyword', 'keyword must be 1 to 11 ASCII letters or digits', 'keyword');
  }
  return value.toUpperCase();
}

/** Checks that the keyword is registered to the account; returns its canonical form. */
export function checkKeyword(value: string, registered: readonly string[]): string {
  const keyword = canonicalKeyword(value);
  if (!registered.includes(keyword)) {
    throw new SmsRefusal('KeywordNotAllowed', 'keyword is not registered to this account', 'keyword');
  }
  return keyword;
}
