/**
 * The abort signal of each try: aborted when the try's time is up or when the sender stops.
 *
 * One AbortController and one plain timer per try, and a set of the live ones that a stop aborts
 * in one pass: `AbortSignal.any([stop, AbortSignal.timeout(ms)])` did the same with a listener
 * on the long-lived stop signal and a weakly held timer signal per try, and cost about a fifth of
 * the sender's CPU per callback in a profile of the bench's delivery run.
 */
export interface TrySignal {
  readonly signal: AbortSignal;
  /** Whether the try's time ran out (rather than the sender stopping). */
  timedOut(): boolean;
  /** The try is over: its timer is cleared and a later stop no longer touches it. */
  end(): void;
}

export interface TrySignals {
  /** Whether stopAll() was called: tries in flight were cut off. */
  readonly stopped: boolean;
  begin(timeoutMs: number): TrySignal;
  /** Aborts every try in flight, and every try begun after. */
  stopAll(): void;
}

export function createTrySignals(): TrySignals {
  const live = new Set<AbortController>();
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    begin(timeoutMs) {
      const controller = new AbortController();
      let expired = false;
      const timer = setTimeout(() => {
        expired = true;
        controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      timer.unref();
      if (stopped) controller.abort(new DOMException('the sender stopped', 'AbortError'));
      else live.add(controller);
      return {
        signal: controller.signal,
        timedOut: () => expired,
        end() {
          clearTimeout(timer);
          live.delete(controller);
        },
      };
    },
    stopAll() {
      stopped = true;
      for (const controller of live) controller.abort(new DOMException('the sender stopped', 'AbortError'));
      live.clear();
    },
  };
}
