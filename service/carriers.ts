/**
 * `carrierCode`: the mobile network the message is routed to, from a configurable table.
 *
 * Codes are 1–32 characters `[a-z0-9-]`, matched case-insensitively (`ATT` = `att`); the canonical
 * (stored) form is lower case. The reserved code `auto` means "route by the gateway's own lookup"
 * and is accepted unless the table disables it. Unknown codes are refused, never defaulted.
 *
 * A table file is JSON: `{ "allowAuto": true, "carriers": { "att": "AT&T", ... } }`.
 */
import { readFileSync } from 'node:fs';
import { SmsRefusal } from './errors.js';

export const AUTO_CARRIER = 'auto';

export interface CarrierTable {
  /** code (canonical, lower case) → display name. */
  readonly carriers: ReadonlyMap<string, string>;
  readonly allowAuto: boolean;
}

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
  carriers: Readonly<Record<string, string>> = DEFAULT_CARRIERS,
  allowAuto = true,
): CarrierTable {
  const map = new Map<string, string>();
  for (const [rawCode, name] of Object.entries(carriers)) {
    const code = rawCode.toLowerCase();
    if (!CODE.test(code)) throw new Error(`carrier code "${rawCode}" must be 1-32 characters a-z, 0-9 or -`);
    if (code === AUTO_CARRIER) throw new Error(`carrier code "auto" is reserved; use allowAuto`);
    if (map.has(code)) throw new Error(`carrier code "${rawCode}" is listed twice (codes are case-insensitive)`);
    if (typeof name !== 'string' || name.trim() === '') throw new Error(`carrier "${rawCode}" needs a non-empty name`);
    map.set(code, name);
  }
  return { carriers: map, allowAuto };
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
  for (const [code, name] of Object.entries(carriers)) {
    if (typeof name !== 'string') throw new Error(`${path}: carrier "${code}" name must be a string`);
  }
  return createCarrierTable(carriers as Record<string, string>, allowAuto ?? true);
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
