/**
 * validity_period for submit_sm (SMPP 3.4 §7.1.1): how long the SMSC may keep trying, sent in the
 * relative form "YYMMDDhhmmss000R" from what is left of the message's own validity, so an SMSC
 * never delivers a message after the service has marked it `expired`. Relative rather than
 * absolute: it needs no agreement on clocks or time zones with the SMSC.
 */

/** The longest relative period the format holds in days alone (DD is two digits). */
const MAX_DAYS = 99;

/** The relative validity_period for `remainingMs` (at least one second, at most 99 days, 23:59:59). */
export function relativeValidity(remainingMs: number): string {
  const cap = (MAX_DAYS + 1) * 86_400 - 1;
  const seconds = Math.min(cap, Math.max(1, Math.floor(remainingMs / 1_000)));
  const two = (n: number): string => String(n).padStart(2, '0');
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  return `0000${two(days)}${two(hours)}${two(minutes)}${two(seconds % 60)}000R`;
}
