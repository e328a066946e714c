/**
 * What a route's answer means for the outbox: the change to record for it (accepted, rejected,
 * queued again with a backoff, or given up on) and the counter it moves. The retry policy is
 * applied here, once, for every route.
 */
import type { ClaimedMessage, DeliveryChange } from '../store/delivery.js';
import type { DeliveryEvent } from './counters.js';
import { decideRetry, type RetryPolicy } from './policy.js';
import type { SubmitResult } from './route.js';

/** Who holds the message and for which attempt: the part every change of a claimed message has. */
export interface OwnedBase {
  readonly id: string;
  readonly owner: string;
  readonly at: number;
  readonly attempt: number;
  readonly route: string;
}

export interface Answered {
  readonly change: DeliveryChange;
  readonly event: DeliveryEvent;
}

/** The change `result` makes to `message` (at `base.at`), with the counter it moves. */
export function changeForAnswer(
  base: OwnedBase,
  message: ClaimedMessage,
  result: SubmitResult,
  policy: RetryPolicy,
  random: () => number,
): Answered {
  if (result.outcome === 'accepted')
    return {
      event: 'accepted',
      change: { ...base, route: result.route ?? base.route, kind: 'accepted', peerIds: result.peerIds },
    };
  if (result.outcome === 'rejected')
    return {
      event: 'rejected',
      change: { ...base, kind: 'final', state: 'rejected', code: result.code, text: result.text },
    };
  const decision = decideRetry(policy, message, base.at, random);
  if (decision.next === 'retry') {
    const { code, text, maybeSent } = result;
    return {
      event: 'retried',
      change: { ...base, kind: 'requeue', nextAttemptAt: decision.at, code, text, maybeSent },
    };
  }
  const why = decision.next === 'failed' ? `gave up after ${message.attempt} attempts` : 'validity period over';
  return {
    event: decision.next,
    change: { ...base, kind: 'final', state: decision.next, code: result.code, text: `${why}: ${result.text}` },
  };
}

/** A claimed message found past its validity before it was sent: expired, never submitted. */
export function expiredBeforeSending(base: OwnedBase): DeliveryChange {
  return { ...base, kind: 'final', state: 'expired', code: 'VALIDITY', text: 'not sent within its validity period' };
}
