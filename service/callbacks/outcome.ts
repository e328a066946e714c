/**
 * From what a receiver answered (or did not) to what the queue records: 2xx sent; 410 Gone the
 * end of the account's callbacks; anything else a failure the budget retries (5xx, 408, 429,
 * timeouts, refused and reset connections, and — because receivers get misconfigured and then
 * fixed — other 4xx and 3xx too), with the reason kept as the event's last error.
 */
import type { CallbackEvent, CallbackOutcome } from '../store/callbacks.js';
import { type CallbackBudget, failureOutcome } from './budget.js';
import type { FailureReason, PostResult } from './post.js';

export type Verdict =
  | { readonly kind: 'sent' }
  | { readonly kind: 'gone' }
  | { readonly kind: 'failed'; readonly reason: FailureReason; readonly error: string };

export function verdictOf(result: PostResult): Verdict {
  if (result.kind === 'failed') return result;
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 410) return { kind: 'gone' };
  const reason: FailureReason = status >= 500 ? 'http_5xx' : status >= 400 ? 'http_4xx' : 'http_3xx';
  const note = reason === 'http_3xx' ? ' (redirects are not followed)' : '';
  return { kind: 'failed', reason, error: `HTTP ${status}${note}` };
}

/** The outcome to settle for a failed try; a stopped sender's events come back at once, unpenalised by backoff. */
export function failedOutcome(
  budget: CallbackBudget,
  event: CallbackEvent,
  verdict: Extract<Verdict, { kind: 'failed' }>,
  now: number,
  random: () => number,
): CallbackOutcome {
  if (verdict.reason === 'stopped') return { seq: event.seq, kind: 'retry', nextAttemptAt: now, error: verdict.error };
  return failureOutcome(budget, event, verdict.error, now, random);
}
