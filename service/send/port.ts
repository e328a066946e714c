/**
 * `port` (SMSSendToPort): the destination application port of SMS port addressing (3GPP TS 23.040
 * information element 0x05, 16-bit ports), as used by WAP push (2948) and J2ME push registries.
 *
 * Canonical decimal only: 1–5 ASCII digits, value 0–65535, no sign, no spaces, and no leading
 * zeros ("0" itself is allowed) so that one port has exactly one spelling.
 */
import { SmsRefusal } from '../errors.js';

const CANONICAL_DECIMAL = /^(0|[1-9][0-9]{0,4})$/;

/** Parses `port` or throws `SmsRefusal('InvalidPort')`. */
export function parsePort(input: string): number {
  if (!CANONICAL_DECIMAL.test(input)) {
    throw new SmsRefusal(
      'InvalidPort',
      'port must be a decimal number 0-65535 without sign, spaces or leading zeros',
      'port',
    );
  }
  const port = Number(input);
  if (port > 65535) throw new SmsRefusal('InvalidPort', 'port must be at most 65535', 'port');
  return port;
}
