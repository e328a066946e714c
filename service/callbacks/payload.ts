/**
 * The body and the identity of one callback, as docs/status.md describes them to receivers.
 *
 * The body is made once per event and is the same on every try (only the webhook-timestamp
 * header and the signature change), so a receiver that stored the first copy can compare. It
 * never holds the message text; it holds the recipient (`smsto`), which an application needs to
 * match the status to its own records.
 */
import type { CallbackEvent } from '../store/callbacks.js';

/** The `type` of every callback this service sends (the only one so far). */
export const CALLBACK_TYPE = 'message.state';

/** Stable across retries and across instances: a receiver de-duplicates on it. */
export function webhookId(event: Pick<CallbackEvent, 'messageId' | 'seq'>): string {
  return `${event.messageId}.${event.seq}`;
}

function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The JSON body (nulls kept as null, so every field is always present). */
export function callbackBody(event: CallbackEvent): string {
  const at = isoOf(event.at);
  return JSON.stringify({
    type: CALLBACK_TYPE,
    timestamp: at,
    data: {
      messageId: event.messageId,
      sequence: event.seq,
      state: event.state,
      previousState: event.previousState,
      at,
      attempt: event.attempt,
      route: event.route,
      smscId: event.smscId,
      errorCode: event.errorCode,
      errorText: event.errorText,
      possibleDuplicate: event.possibleDuplicate,
      keyword: event.keyword,
      smsto: event.smsto,
    },
  });
}
