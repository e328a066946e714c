/**
 * One event, one try: where it goes, a place under the per-host and overall limits, the body and
 * this try's signature, the POST, and the outcome to settle. Never throws: whatever happens
 * becomes an outcome, so the loop always settles what it claimed.
 *
 * 410 Gone switches the account's callbacks off in the store (which makes its pending events
 * dead) and is logged once: the other events of that account already on their way when the
 * first 410 came are told by the same switch, not by a new one each.
 */
import type { Dispatcher } from 'undici';
import type { CallbackEvent, CallbackOutcome, CallbackStore } from '../store/callbacks.js';
import { failedOutcome, verdictOf } from './outcome.js';
import type { CallbackSenderSettings } from './options.js';
import { callbackBody, webhookId } from './payload.js';
import { type FailureReason, postCallback } from './post.js';
import type { CallbackSigner } from './signing.js';
import type { Gate, KeyedGates } from './slots.js';
import type { TrySignals } from './try-signals.js';
import type { CallbackTarget } from './target.js';

export interface EventSenderDeps {
  readonly store: Pick<CallbackStore, 'disableCallbacks'>;
  readonly settings: CallbackSenderSettings;
  readonly dispatcher: Dispatcher;
  readonly signer: CallbackSigner;
  readonly target: (url: string) => CallbackTarget;
  readonly overall: Gate;
  readonly perHost: KeyedGates;
  /** Aborted when the sender closes: no new try starts. */
  readonly closing: AbortSignal;
  /** Each try's timeout, and the stop that cuts tries in flight off. */
  readonly tries: TrySignals;
  readonly clock: () => number;
  readonly random: () => number;
  readonly log: (line: string) => void;
  /** Told of every failed try (the metrics' reasons). */
  readonly failed: (reason: FailureReason) => void;
}

export type EventSender = (event: CallbackEvent, claimedAt: number) => Promise<CallbackOutcome>;

/**
 * The 410 switch: one store call and one log line per episode. An event claimed before the switch
 * belongs to the same episode; one claimed after it means callbacks were switched on again.
 */
function createGoneSwitch(
  deps: EventSenderDeps,
): (event: CallbackEvent, claimedAt: number, host: string) => Promise<void> {
  const disabled = new Map<string, { at: number; done: Promise<void> }>();
  return (event, claimedAt, host) => {
    const known = disabled.get(event.account);
    if (known !== undefined && claimedAt <= known.at) return known.done;
    const at = deps.clock();
    const reason = `${host} answered 410 Gone`;
    const done = deps.store.disableCallbacks(event.account, at, reason).then(
      () => deps.log(`callbacks of ${event.account} disabled: ${reason} (their pending events are dead)`),
      (error: unknown) =>
        deps.log(`callbacks of ${event.account}: ${reason}, but disabling failed: ${(error as Error).message}`),
    );
    disabled.set(event.account, { at, done });
    return done;
  };
}

export function createEventSender(deps: EventSenderDeps): EventSender {
  const disable = createGoneSwitch(deps);

  const refusedOutcome = (event: CallbackEvent, reason: FailureReason, error: string): CallbackOutcome => {
    deps.failed(reason);
    return failedOutcome(deps.settings.budget, event, { kind: 'failed', reason, error }, deps.clock(), deps.random);
  };

  return async (event, claimedAt) => {
    const target = deps.target(event.url);
    if (target.kind === 'refused') return refusedOutcome(event, target.reason, target.error);
    if (deps.closing.aborted) return refusedOutcome(event, 'stopped', 'the sender stopped before this try');
    await deps.perHost.enter(target.hostKey);
    try {
      await deps.overall.enter();
      try {
        return await tryOnce(event, target, claimedAt);
      } finally {
        deps.overall.leave();
      }
    } finally {
      deps.perHost.leave(target.hostKey);
    }
  };

  async function tryOnce(
    event: CallbackEvent,
    target: Extract<CallbackTarget, { kind: 'ok' }>,
    claimedAt: number,
  ): Promise<CallbackOutcome> {
    if (deps.closing.aborted) return refusedOutcome(event, 'stopped', 'the sender stopped before this try');
    const id = webhookId(event);
    const body = callbackBody(event);
    let headers: Record<string, string>;
    try {
      headers = { ...deps.signer.headers(id, body, event.secret, deps.clock()) };
    } catch {
      return refusedOutcome(event, 'error', `the callback secret of ${event.account} is not a whsec_ secret`);
    }
    const { timeoutMs, maxResponseBytes } = deps.settings;
    const result = await postCallback(deps.dispatcher, {
      url: target.url,
      headers,
      body,
      timeoutMs,
      maxResponseBytes,
      tries: deps.tries,
    });
    const verdict = verdictOf(result);
    if (verdict.kind === 'sent') return { seq: event.seq, kind: 'sent' };
    if (verdict.kind === 'gone') {
      await disable(event, claimedAt, target.hostKey);
      return { seq: event.seq, kind: 'dead', error: "HTTP 410 Gone: the account's callbacks were disabled" };
    }
    deps.failed(verdict.reason);
    return failedOutcome(deps.settings.budget, event, verdict, deps.clock(), deps.random);
  }
}
