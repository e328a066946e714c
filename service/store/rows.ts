/**
 * The columns both stores share (the same names and meaning in SQLite and PostgreSQL) and their
 * mapping to the records of records.ts, written once. A flag column is 0/1 in SQLite and a
 * boolean in PostgreSQL; `Flag` takes both.
 */
import type { Encoding } from '../sms/segments.js';
import type { ClaimedMessage } from './delivery.js';
import type { AccountRow, HistoryChange, HistoryEvent, MessageState, StoredMessage } from './records.js';

type Flag = number | boolean;
const isSet = (value: Flag): boolean => value === true || value === 1;

export interface AccountColumns {
  email: string;
  password_hash: string;
  keywords: string;
  disabled: Flag;
  created_at: number;
  test: Flag;
  locked_until: number | null;
  unlocked_at: number | null;
  callback_url: string | null;
  callback_secret: string | null;
  callbacks_disabled_at: number | null;
}

export function accountFromRow(row: AccountColumns): AccountRow {
  return {
    email: row.email,
    passwordHash: row.password_hash,
    keywords: row.keywords === '' ? [] : row.keywords.split(' '),
    disabled: isSet(row.disabled),
    createdAt: row.created_at,
    test: isSet(row.test),
    lockedUntil: row.locked_until,
    unlockedAt: row.unlocked_at,
    callbackUrl: row.callback_url,
    callbackSecret: row.callback_secret,
    callbacksDisabledAt: row.callbacks_disabled_at,
  };
}

export interface OutboxColumns {
  id: string;
  created_at: number;
  account: string;
  keyword: string;
  smsto: string;
  carrier_code: string;
  encoding: Encoding;
  segments: number;
  port: number | null;
  smsmsg: string;
  state: MessageState;
  updated_at: number;
  attempts: number;
  route: string | null;
  smsc_id: string | null;
  error_code: string | null;
  error_text: string | null;
  possible_duplicate: Flag;
}

export function messageFromRow(row: OutboxColumns): StoredMessage {
  return {
    id: row.id,
    createdAt: row.created_at,
    account: row.account,
    keyword: row.keyword,
    smsto: row.smsto,
    carrierCode: row.carrier_code,
    encoding: row.encoding,
    segments: row.segments,
    port: row.port,
    smsmsg: row.smsmsg,
    state: row.state,
    updatedAt: row.updated_at,
    attempts: row.attempts,
    route: row.route,
    smscId: row.smsc_id,
    errorCode: row.error_code,
    errorText: row.error_text,
    possibleDuplicate: isSet(row.possible_duplicate),
  };
}

/** outbox_events columns a history reads (with `seq` and `message_id` for a change stream). */
export interface EventColumns {
  at: number;
  state: MessageState;
  attempt: number;
  route: string | null;
  smsc_id: string | null;
  code: string | null;
  text: string | null;
}

export const HISTORY_COLUMNS = 'at, state, attempt, route, smsc_id, code, text';

export function eventFromRow(row: EventColumns): HistoryEvent {
  return {
    at: row.at,
    state: row.state,
    attempt: row.attempt,
    route: row.route,
    smscId: row.smsc_id,
    code: row.code,
    text: row.text,
  };
}

/** One row of the change stream (`smskit outbox --follow`): an event with its place and message. */
export interface ChangeColumns extends EventColumns {
  seq: number;
  message_id: string;
}

export function changeFromRow(row: ChangeColumns): HistoryChange {
  return { seq: row.seq, messageId: row.message_id, ...eventFromRow(row) };
}

/** A message's whole history: its acceptance (the row itself), then every recorded change. */
export function historyOf(message: StoredMessage, events: readonly EventColumns[]): HistoryEvent[] {
  const accepted: HistoryEvent = {
    at: message.createdAt,
    state: message.state === 'test' ? 'test' : 'queued',
    attempt: 0,
    route: null,
    smscId: null,
    code: null,
    text: 'accepted from the client',
  };
  return [accepted, ...events.map(eventFromRow)];
}

/** A claimed message's columns, as a claim's RETURNING gives them (`attempts` already counts this one). */
export interface ClaimedColumns {
  id: string;
  created_at: number;
  smsto: string;
  carrier_code: string;
  smsmsg: string;
  encoding: Encoding;
  segments: number;
  port: number | null;
  attempts: number;
  possible_duplicate: Flag;
}

export function claimedFromRow(row: ClaimedColumns): ClaimedMessage {
  return {
    id: row.id,
    createdAt: row.created_at,
    smsto: row.smsto,
    carrierCode: row.carrier_code,
    smsmsg: row.smsmsg,
    encoding: row.encoding,
    segments: row.segments,
    port: row.port,
    attempt: row.attempts,
    possibleDuplicate: isSet(row.possible_duplicate),
  };
}
