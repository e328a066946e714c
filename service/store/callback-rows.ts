/**
 * The callback queue's columns as both stores read them (the same names in SQLite and
 * PostgreSQL) and their mapping to the records of ./callbacks.ts, written once.
 */
import type { CallbackEvent, CallbackEventState, QueuedCallback } from './callbacks.js';
import type { MessageState } from './records.js';

/** What a claim reads of one handed-out event: the queue row, its history row, message and account. */
export interface CallbackEventColumns {
  seq: number;
  message_id: string;
  account: string;
  keyword: string;
  smsto: string;
  state: MessageState;
  previous_state: MessageState | null;
  at: number;
  attempt: number;
  route: string | null;
  smsc_id: string | null;
  code: string | null;
  text: string | null;
  possible_duplicate: number | boolean;
  callback_url: string;
  callback_secret: string | null;
  /** Sends started, this one included (the claim counted it). */
  tries: number;
  queued_at: number;
}

/**
 * The columns of a claimed event, from `claimed` (the queue rows the claim took: seq, message_id,
 * tries, queued_at), `e` (outbox_events), `o` (outbox) and `a` (accounts).
 */
export const CALLBACK_EVENT_COLUMNS = `claimed.seq, claimed.message_id, o.account, o.keyword, o.smsto, e.state,
  (SELECT p.state FROM outbox_events p WHERE p.message_id = claimed.message_id AND p.seq < claimed.seq
   ORDER BY p.seq DESC LIMIT 1) AS previous_state,
  e.at, e.attempt, e.route, e.smsc_id, e.code, e.text, o.possible_duplicate, a.callback_url, a.callback_secret,
  claimed.tries, claimed.queued_at`;

export function callbackEventFromRow(row: CallbackEventColumns): CallbackEvent {
  return {
    seq: row.seq,
    messageId: row.message_id,
    account: row.account,
    keyword: row.keyword,
    smsto: row.smsto,
    state: row.state,
    previousState: row.previous_state ?? 'queued',
    at: row.at,
    attempt: row.attempt,
    route: row.route,
    smscId: row.smsc_id,
    errorCode: row.code,
    errorText: row.text,
    possibleDuplicate: row.possible_duplicate === true || row.possible_duplicate === 1,
    url: row.callback_url,
    secret: row.callback_secret ?? '',
    tries: row.tries - 1,
    queuedAt: row.queued_at,
  };
}

export interface QueuedCallbackColumns {
  seq: number;
  message_id: string;
  account: string;
  state: MessageState;
  event_state: CallbackEventState;
  queued_at: number;
  tries: number;
  due_at: number | null;
  last_error: string | null;
}

/** The columns of a listed event, from `q` (callback_queue) and `e` (outbox_events). */
export const QUEUED_CALLBACK_COLUMNS =
  'q.seq, q.message_id, q.account, e.state, q.state AS event_state, q.queued_at, q.tries, q.due_at, q.last_error';

export function queuedCallbackFromRow(row: QueuedCallbackColumns): QueuedCallback {
  return {
    seq: row.seq,
    messageId: row.message_id,
    account: row.account,
    state: row.state,
    eventState: row.event_state,
    queuedAt: row.queued_at,
    tries: row.tries,
    nextAttemptAt: row.event_state === 'pending' ? row.due_at : null,
    lastError: row.last_error,
  };
}
