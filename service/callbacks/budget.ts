/**
 * How long the sender keeps trying one event: exponential backoff from `firstDelayMs`, doubling
 * to `maxDelayMs`, with a little jitter so the events of one receiver that came back do not all
 * return at the same moment; given up (`dead`) after `maxTries` sends or once the event is
 * `maxAgeMs` old, whichever comes first. The defaults are the ones docs/status.md promises.
 */
import type { CallbackEvent, CallbackOutcome } from '../store/callbacks.js';

export interface CallbackBudget {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxTries: number;
  readonly maxAgeMs: number;
  /** 0..1: each delay is shortened by up to this share, at random. */
  readonly jitter: number;
}

export const DEFAULT_CALLBACK_BUDGET: CallbackBudget = Object.freeze({
  firstDelayMs: 1_000,
  maxDelayMs: 10 * 60_000,
  maxTries: 50,
  maxAgeMs: 24 * 3_600_000,
  jitter: 0.1,
});

/** Throws a plain Error naming the field that is out of range. */
export function checkCallbackBudget(budget: CallbackBudget): void {
  for (const name of ['firstDelayMs', 'maxDelayMs', 'maxTries', 'maxAgeMs'] as const) {
    const value = budget[name];
    if (!Number.isFinite(value) || value < (name === 'maxTries' ? 1 : 0))
      throw new Error(`callback budget: ${name} must be a number >= ${name === 'maxTries' ? 1 : 0}`);
  }
  if (budget.maxDelayMs < budget.firstDelayMs) throw new Error('callback budget: maxDelayMs must be >= firstDelayMs');
  if (!(budget.jitter >= 0 && budget.jitter <= 1)) throw new Error('callback budget: jitter must be from 0 to 1');
}

/** The wait before the next try, after `failedTries` failed sends (1 = the first failed). */
export function retryDelay(budget: CallbackBudget, failedTries: number, random: () => number): number {
  const doubled = budget.firstDelayMs * 2 ** Math.min(Math.max(failedTries - 1, 0), 40);
  const delay = Math.min(doubled, budget.maxDelayMs);
  return Math.round(delay * (1 - budget.jitter * random()));
}

/** What becomes of an event whose send failed with `error` at `now`: tried again later, or dead. */
export function failureOutcome(
  budget: CallbackBudget,
  event: Pick<CallbackEvent, 'seq' | 'tries' | 'queuedAt'>,
  error: string,
  now: number,
  random: () => number,
): CallbackOutcome {
  const failedTries = event.tries + 1;
  if (failedTries >= budget.maxTries)
    return { seq: event.seq, kind: 'dead', error: `${error} (gave up after ${failedTries} tries)` };
  const nextAttemptAt = now + retryDelay(budget, failedTries, random);
  if (nextAttemptAt - event.queuedAt > budget.maxAgeMs)
    return {
      seq: event.seq,
      kind: 'dead',
      error: `${error} (gave up: queued ${Math.round((now - event.queuedAt) / 1000)} s ago)`,
    };
  return { seq: event.seq, kind: 'retry', nextAttemptAt, error };
}
