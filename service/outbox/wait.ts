/**
 * `smskit outbox --id ID --wait STATES`: polls one message until it is in one of the wanted
 * states, reaches a final state that is not one of them (it will never change again), or the
 * time is up. Polling the store, like --follow, so it works from another process while the
 * service runs. The clock and the pause are injected so a test needs no real waiting.
 */
import { FINAL_STATES, type MessageState, type Store } from '../store/index.js';

export type WaitOutcome =
  /** The message is in one of the wanted states. */
  | { readonly kind: 'reached'; readonly state: MessageState }
  /** A final state that is not one of the wanted ones: waiting longer cannot help. */
  | { readonly kind: 'final'; readonly state: MessageState }
  /** Still in `state` when the time ran out. */
  | { readonly kind: 'timeout'; readonly state: MessageState }
  | { readonly kind: 'missing' };

export interface WaitOptions {
  readonly states: readonly MessageState[];
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly signal?: AbortSignal;
  readonly now?: () => number;
  readonly pause?: (ms: number) => Promise<void>;
}

const realPause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitForState(
  store: Pick<Store, 'getMessage'>,
  id: string,
  options: WaitOptions,
): Promise<WaitOutcome> {
  const now = options.now ?? Date.now;
  const pause = options.pause ?? realPause;
  const deadline = now() + options.timeoutMs;
  for (;;) {
    const message = await store.getMessage(id);
    if (message === undefined) return { kind: 'missing' };
    const { state } = message;
    if (options.states.includes(state)) return { kind: 'reached', state };
    if (FINAL_STATES.has(state)) return { kind: 'final', state };
    const left = deadline - now();
    if (left <= 0 || options.signal?.aborted === true) return { kind: 'timeout', state };
    await pause(Math.min(options.intervalMs, left));
  }
}
