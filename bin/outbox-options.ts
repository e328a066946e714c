/**
 * `smskit outbox` options, validated in one place: filters, one message, waiting for one
 * message's state, follow, prune. Each wrong value is refused with one line naming the flag and
 * what it takes.
 */
import { MESSAGE_STATES, type MessageState } from '../service/store/records.js';
import { UsageError } from './cli-error.js';

/** The states a message can be in: the store's own list (a small module without imports). */
export const OUTBOX_STATES = MESSAGE_STATES;
export type OutboxState = MessageState;

export interface OutboxFilters {
  readonly states: readonly OutboxState[];
  readonly smsto: string | undefined;
  readonly account: string | undefined;
  readonly since: number | undefined;
}

export type OutboxAction =
  | { readonly kind: 'list'; readonly filters: OutboxFilters; readonly limit: number | undefined }
  | { readonly kind: 'one'; readonly id: string }
  | {
      readonly kind: 'wait';
      readonly id: string;
      readonly states: readonly OutboxState[];
      readonly timeoutMs: number;
      readonly intervalMs: number;
    }
  | {
      readonly kind: 'follow';
      readonly filters: OutboxFilters;
      readonly id: string | undefined;
      readonly intervalMs: number;
    }
  | { readonly kind: 'prune'; readonly before: number; readonly mode: 'messages' | 'text' };

export interface OutboxOptions {
  readonly db: string;
  readonly json: boolean;
  readonly action: OutboxAction;
}

const DURATION = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;
const ID = /^SMS-[0-9A-HJKMNP-TV-Z]{26}$/;
const E164 = /^\+[1-9][0-9]{3,14}$/;

/** An ISO 8601 date or time (UTC unless it says otherwise), or an age such as 90m, 12h, 30d. */
export function parseWhen(flag: string, value: unknown, now: number): number {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const age = DURATION.exec(text);
  if (age !== null) return now - Number(age[1]) * (UNIT_MS[age[2] ?? 's'] ?? 1_000);
  if (ISO_DATE.test(text)) {
    const withZone = /[T ]\d{2}:\d{2}/.test(text) && !/(Z|[+-]\d{2}:\d{2})$/.test(text) ? `${text}Z` : text;
    const ms = Date.parse(withZone.replace(' ', 'T'));
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(
    `--${flag} must be an ISO 8601 date or time (2026-11-01, 2026-11-01T12:00:00Z) or an age such as 90m, 12h, 30d; got "${text}"`,
  );
}

/** Read as text (yargs would turn "ten" into NaN), so the refusal can quote what was typed. */
function integerFlag(args: Record<string, unknown>, flag: string, min: number, max: number): number | undefined {
  const raw = args[flag];
  if (raw === undefined) return undefined;
  const text = String(Array.isArray(raw) ? raw.at(-1) : raw).trim();
  const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

function states(value: unknown, flag = 'state'): OutboxState[] {
  if (value === undefined) return [];
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
  for (const state of list)
    if (!(OUTBOX_STATES as readonly string[]).includes(state))
      throw new UsageError(
        `--${flag} must be one of ${OUTBOX_STATES.join(', ')} (comma-separated or repeated); got "${state}"`,
      );
  return [...new Set(list)] as OutboxState[];
}

const TIMEOUT = /^(\d{1,7})(ms|s|m|h)?$/;
const TIMEOUT_UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
/** The longest --timeout: a day, so a typo cannot make a script wait for ever. */
const MAX_TIMEOUT_MS = 86_400_000;

/** `--timeout`: 30s, 2m, 1500ms (a bare number is seconds), from 1 ms to a day; default 30 s. */
function timeoutOf(value: unknown): number {
  if (value === undefined) return 30_000;
  const text = String(Array.isArray(value) ? value.at(-1) : value).trim();
  const match = TIMEOUT.exec(text);
  const ms = match === null ? Number.NaN : Number(match[1]) * (TIMEOUT_UNIT_MS[match[2] ?? 's'] ?? 1_000);
  if (!(ms >= 1 && ms <= MAX_TIMEOUT_MS))
    throw new UsageError(`--timeout must be a duration such as 30s, 2m or 1500ms, at most 24h; got "${text}"`);
  return ms;
}

/** `--id ID --wait STATES [--timeout 30s]`: the states to wait for (at least one). */
function waitOf(args: Record<string, unknown>, id: string | undefined): OutboxAction {
  if (id === undefined) throw new UsageError('--wait needs --id (the message to wait for)');
  refuseWith(args, '--wait', ['state', 'to', 'account', 'since', 'limit', 'follow']);
  const wanted = states(args.wait, 'wait');
  if (wanted.length === 0)
    throw new UsageError(`--wait needs one or more states (${OUTBOX_STATES.join(', ')}), e.g. --wait delivered`);
  const intervalMs = integerFlag(args, 'interval', 50, 60_000) ?? 200;
  return { kind: 'wait', id, states: wanted, timeoutMs: timeoutOf(args.timeout), intervalMs };
}

function filtersOf(args: Record<string, unknown>, now: number): OutboxFilters {
  const smsto = typeof args.to === 'string' ? args.to : undefined;
  if (smsto !== undefined && !E164.test(smsto))
    throw new UsageError(`--to must be an E.164 number as stored, e.g. +15551234567; got "${smsto}"`);
  return {
    states: states(args.state),
    smsto,
    account: typeof args.account === 'string' ? args.account.replace(/[A-Z]+/g, (l) => l.toLowerCase()) : undefined,
    since: args.since === undefined ? undefined : parseWhen('since', args.since, now),
  };
}

function idOf(args: Record<string, unknown>): string | undefined {
  if (args.id === undefined) return undefined;
  const id = String(args.id);
  if (!ID.test(id))
    throw new UsageError(`--id must be a message id such as SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D; got "${id}"`);
  return id;
}

function refuseWith(args: Record<string, unknown>, action: string, flags: readonly string[]): void {
  const given = flags.filter((flag) => args[flag] !== undefined && args[flag] !== false);
  if (given.length > 0) throw new UsageError(`--${given[0]} does not go with ${action}`);
}

export function validateOutboxOptions(args: Record<string, unknown>, now = Date.now()): OutboxOptions {
  const db = String(args.db);
  const json = args.json === true;
  if (args.action === 'prune') {
    refuseWith(args, 'outbox prune', [
      'state',
      'to',
      'account',
      'since',
      'id',
      'follow',
      'limit',
      'interval',
      'wait',
      'timeout',
    ]);
    if (args.before === undefined) throw new UsageError('outbox prune needs --before (a date, or an age such as 30d)');
    const before = parseWhen('before', args.before, now);
    if (before > now) throw new UsageError('--before must not be in the future');
    return { db, json, action: { kind: 'prune', before, mode: args['text-only'] === true ? 'text' : 'messages' } };
  }
  refuseWith(args, 'a listing (it goes with outbox prune)', ['before', 'text-only']);
  const id = idOf(args);
  if (args.wait !== undefined) return { db, json, action: waitOf(args, id) };
  refuseWith(args, 'a listing without --wait', ['timeout']);
  if (args.follow === true) {
    refuseWith(args, '--follow (it prints changes from now on)', ['limit', 'since']);
    const intervalMs = integerFlag(args, 'interval', 50, 60_000) ?? 500;
    return { db, json, action: { kind: 'follow', filters: filtersOf(args, now), id, intervalMs } };
  }
  refuseWith(args, 'a listing without --follow', ['interval']);
  if (id !== undefined) {
    refuseWith(args, '--id', ['state', 'to', 'account', 'since', 'limit']);
    return { db, json, action: { kind: 'one', id } };
  }
  return {
    db,
    json,
    action: { kind: 'list', filters: filtersOf(args, now), limit: integerFlag(args, 'limit', 1, 1_000_000) },
  };
}
