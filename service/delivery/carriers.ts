/**
 * `carrierCode`: the mobile network the message is routed to, from a configurable table.
 *
 * Codes are 1–32 characters `[a-z0-9-]`, matched case-insensitively (`ATT` = `att`); the canonical
 * (stored) form is lower case. The reserved code `auto` means "route by the gateway's own lookup"
 * and is accepted unless the table disables it. Unknown codes are refused, never defaulted.
 *
 * A table file is JSON: `{ "allowAuto": true, "carriers": { "att": "AT&T", ... } }`. A carrier that
 * takes mail at an e-mail-to-SMS gateway is written as an object instead of its name:
 * `"verizon": { "name": "Verizon Wireless", "emailGateway": { "domain": "vtext.com", "countryCode": "1" } }`
 * (see service/delivery/email/gateways.ts; the e-mail route sends to `<number>@<domain>`).
 */
import { readFileSync } from 'node:fs';
import { checkEmailGateway, DEFAULT_EMAIL_GATEWAYS, type EmailGateway } from './email/gateways.js';
import { SmsRefusal } from '../errors.js';

export type { EmailGateway } from './email/gateways.js';

export const AUTO_CARRIER = 'auto';

export interface CarrierTable {
  /** code (canonical, lower case) → display name. */
  readonly carriers: ReadonlyMap<string, string>;
  readonly allowAuto: boolean;
  /** code → its e-mail-to-SMS gateway, for the carriers that have one. */
  readonly emailGateways: ReadonlyMap<string, EmailGateway>;
}

/** A carrier as a table file may give it: its name, or its name and e-mail gateway. */
export type CarrierEntry = string | { readonly name: string; readonly emailGateway?: EmailGateway };

/** A small realistic default set (US, UK, Canada, Australia). */
export const DEFAULT_CARRIERS: Readonly<Record<string, string>> = {
  att: 'AT&T',
  verizon: 'Verizon Wireless',
  tmobile: 'T-Mobile US',
  uscellular: 'UScellular',
  'vodafone-uk': 'Vodafone UK',
  'o2-uk': 'O2 UK',
  'ee-uk': 'EE',
  'three-uk': 'Three UK',
  rogers: 'Rogers Wireless',
  bell: 'Bell Mobility',
  telus: 'TELUS Mobility',
  telstra: 'Telstra',
};

const CODE = /^[a-z0-9-]{1,32}$/;
const ASCII_CODE = /^[A-Za-z0-9-]{1,32}$/;

/** Builds a table, checking every code; throws a plain Error on a bad configuration. */
export function createCarrierTable(
  carriers: Readonly<Record<string, CarrierEntry>> = DEFAULT_CARRIERS,
  allowAuto = true,
  gateways: Readonly<Record<string, EmailGateway>> = carriers === DEFAULT_CARRIERS ? DEFAULT_EMAIL_GATEWAYS : {},
): CarrierTable {
  const map = new Map<string, string>();
  const emailGateways = new Map<string, EmailGateway>();
  for (const [rawCode, entry] of Object.entries(carriers)) {
    const name = typeof entry === 'string' ? entry : entry?.name;
    const gateway = typeof entry === 'string' ? gateways[rawCode] : entry?.emailGateway;
    const code = rawCode.toLowerCase();
    if (!CODE.test(code)) throw new Error(`carrier code "${rawCode}" must be 1-32 characters a-z, 0-9 or -`);
    if (code === AUTO_CARRIER) throw new Error(`carrier code "auto" is reserved; use allowAuto`);
    if (map.has(code)) throw new Error(`carrier code "${rawCode}" is listed twice (codes are case-insensitive)`);
    if (typeof name !== 'string' || name.trim() === '') throw new Error(`carrier "${rawCode}" needs a non-empty name`);
    map.set(code, name);
    if (gateway !== undefined) emailGateways.set(code, checkEmailGateway(gateway, `carrier "${rawCode}"`));
  }
  return { carriers: map, allowAuto, emailGateways };
}

/** Loads a table from a JSON file (see the module comment for its shape). */
export function loadCarrierTable(path: string): CarrierTable {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${path}: expected a JSON object`);
  const { carriers, allowAuto, ...unknownKeys } = parsed as Record<string, unknown>;
  const extra = Object.keys(unknownKeys);
  if (extra.length > 0) throw new Error(`${path}: unknown key(s) ${extra.join(', ')}`);
  if (typeof carriers !== 'object' || carriers === null || Array.isArray(carriers))
    throw new Error(`${path}: "carriers" must be an object of code → name`);
  if (allowAuto !== undefined && typeof allowAuto !== 'boolean')
    throw new Error(`${path}: "allowAuto" must be true or false`);
  for (const [code, entry] of Object.entries(carriers)) {
    if (typeof entry === 'string') continue;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new Error(`${path}: carrier "${code}" name must be a string (or { "name": …, "emailGateway": … })`);
    const { name, emailGateway, ...rest } = entry as Record<string, unknown>;
    if (Object.keys(rest).length > 0)
      throw new Error(`${path}: carrier "${code}": unknown key(s) ${Object.keys(rest).join(', ')}`);
    if (typeof name !== 'string') throw new Error(`${path}: carrier "${code}" name must be a string`);
    try {
      if (emailGateway !== undefined) checkEmailGateway(emailGateway, `carrier "${code}"`);
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
  }
  return createCarrierTable(carriers as Record<string, CarrierEntry>, allowAuto ?? true);
}

/** Canonical carrier code, or throws `SmsRefusal('UnknownCarrier')`. */
export function resolveCarrier(table: CarrierTable, input: string): string {
  // ASCII check first: String#toLowerCase maps e.g. KELVIN SIGN to "k", which must not match "kddi".
  const code = ASCII_CODE.test(input) ? input.toLowerCase() : '';
  if (code === AUTO_CARRIER && table.allowAuto) return AUTO_CARRIER;
  if (table.carriers.has(code)) return code;
  throw new SmsRefusal(
    'UnknownCarrier',
    'carrierCode is not a known carrier code (see the carrier table)',
    'carrierCode',
  );
}
