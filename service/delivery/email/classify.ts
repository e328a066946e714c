/**
 * What a relay's answer to one mail means for the message, as the delivery contract's outcomes.
 *
 * - A 2xx end of DATA: accepted; the relay's queue id ("250 2.0.0 Ok: queued as 4XyZ") is the
 *   peer id when it gives one (it finds the mail in the relay's log), else our Message-ID.
 * - A 4xx reply (to RCPT or DATA): a transient refusal, retried with the engine's backoff.
 * - A 5xx reply: a permanent refusal, `rejected` with the reply text (e.g. "550 5.1.1 unknown user").
 * - AUTH refused (535) or no STARTTLS: the route's configuration, not the message, is wrong, so
 *   the message waits (retry) while the route reports itself down.
 * - No reply at all (connection refused, dropped, timed out): retry; the relay may have the mail
 *   when the connection broke after the data went out, so then `maybeSent`.
 */
import type { SubmitResult } from '../route.js';

/** The fields of nodemailer's errors we read (it sets them on a plain Error). */
export interface MailError {
  readonly code?: string;
  readonly responseCode?: number;
  readonly response?: string;
  readonly command?: string;
  readonly message?: string;
}

export type MailOutcome = Exclude<SubmitResult, { readonly outcome: 'accepted' }> & {
  /** The route cannot send at all until it has reconnected (or been reconfigured). */
  readonly routeDown: boolean;
};

/** One line, at most 200 characters, without control characters (it goes to the history and logs). */
export function oneLine(value: string): string {
  const line = value.replace(/\p{Cc}+/gu, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

const CONFIG_CODES = new Set(['EAUTH', 'ENOAUTH', 'ETLS', 'EREQUIRETLS']);

export function classifyMailError(error: MailError): MailOutcome {
  const reply = oneLine(error.response ?? error.message ?? 'no reply');
  const status = error.responseCode;
  if (error.code !== undefined && CONFIG_CODES.has(error.code)) {
    return { outcome: 'retry', code: error.code, text: reply, maybeSent: false, routeDown: true };
  }
  if (status !== undefined && status >= 500 && status < 600) {
    return { outcome: 'rejected', code: `smtp:${status}`, text: reply, routeDown: false };
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return { outcome: 'retry', code: `smtp:${status}`, text: reply, maybeSent: false, routeDown: false };
  }
  // No SMTP reply: the connection failed. Only a break after the message data went out may
  // have left the mail with the relay.
  const afterData = error.command === 'DATA' || error.command === 'CONN_DATA' || /after DATA|message data/i.test(reply);
  return { outcome: 'retry', code: error.code ?? 'ESOCKET', text: reply, maybeSent: afterData, routeDown: true };
}

/** The peer id of an accepted mail: the relay's queue id, else the Message-ID we gave it. */
export function acceptedPeerId(response: string | undefined, messageId: string): string {
  const queued = /queued as ([A-Za-z0-9._-]{1,100})/i.exec(response ?? '');
  return queued?.[1] ?? messageId;
}
