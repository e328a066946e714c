/**
 * E-mail-to-SMS gateways: carriers that turn a mail to `<number>@<domain>` into an SMS to that
 * number. The carrier table keeps one per carrier code that has one; the e-mail route sends there.
 *
 * The defaults are the carriers' own public gateways as they published them (checked 2026-11;
 * carriers close these without much notice — AT&T closed txt.att.net in June 2025 — so they MAY
 * CHANGE: an operator confirms one with a test message, and overrides the table with --carriers).
 * Each of these carriers is in North America and wants the 10-digit national number, i.e. the
 * E.164 number without "+1".
 */

export interface EmailGateway {
  /** The mail domain, e.g. "vtext.com". */
  readonly domain: string;
  /**
   * The country calling code the gateway serves (digits, e.g. "1"): the address's local part is
   * the national number (E.164 without "+" and this code), and other countries' numbers are
   * refused. Without it the local part is the whole number without "+".
   */
  readonly countryCode?: string;
}

export const DEFAULT_EMAIL_GATEWAYS: Readonly<Record<string, EmailGateway>> = {
  verizon: { domain: 'vtext.com', countryCode: '1' },
  tmobile: { domain: 'tmomail.net', countryCode: '1' },
  uscellular: { domain: 'email.uscc.net', countryCode: '1' },
  rogers: { domain: 'pcs.rogers.com', countryCode: '1' },
  bell: { domain: 'txt.bell.ca', countryCode: '1' },
  telus: { domain: 'msg.telus.com', countryCode: '1' },
};

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const COUNTRY_CODE = /^[1-9][0-9]{0,2}$/;

/** Checks a gateway from a table file (or code); throws a plain Error naming `where`. */
export function checkEmailGateway(value: unknown, where: string): EmailGateway {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where}: emailGateway must be { "domain": …, "countryCode"?: … }`);
  const { domain, countryCode, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0)
    throw new Error(`${where}: emailGateway has unknown key(s) ${Object.keys(rest).join(', ')}`);
  if (typeof domain !== 'string' || !DOMAIN.test(domain.toLowerCase()))
    throw new Error(`${where}: emailGateway.domain must be a mail domain such as vtext.com`);
  if (countryCode !== undefined && (typeof countryCode !== 'string' || !COUNTRY_CODE.test(countryCode)))
    throw new Error(`${where}: emailGateway.countryCode must be 1-3 digits, e.g. "1"`);
  return Object.freeze({
    domain: domain.toLowerCase(),
    ...(countryCode === undefined ? {} : { countryCode: countryCode as string }),
  });
}

/**
 * The gateway address for a stored E.164 recipient ("+15551234567" → "5551234567@vtext.com"),
 * or undefined when the gateway does not serve that number's country.
 */
export function gatewayAddress(recipient: string, gateway: EmailGateway): string | undefined {
  const digits = recipient.startsWith('+') ? recipient.slice(1) : recipient;
  if (!/^[0-9]{4,15}$/.test(digits)) return undefined;
  if (gateway.countryCode === undefined) return `${digits}@${gateway.domain}`;
  if (!digits.startsWith(gateway.countryCode)) return undefined;
  return `${digits.slice(gateway.countryCode.length)}@${gateway.domain}`;
}
