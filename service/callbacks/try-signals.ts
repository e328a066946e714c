/**
 * How each try is cut off: at its timeout, or when the sender stops (every live try, and any
 * begun after). A try gives the abort to call; one plain timer per try and a set of the live
 * tries' aborts, which a stop calls in one pass. An AbortController per try (and before it
 * `AbortSignal.any([stop, AbortSignal.timeout(ms)])`) did the same through event targets, and was
 * a large share of the sender's CPU per callback in profiles of the bench's delivery run.
 */
export interface TrySignal {
  /** Whether the try's time ran out (rather than the sender stopping). */
  timedOut(): boolean;
  /** The try is over: its timer is cleared and a later stop no longer touches it. */
  end(): void;
}

export interface TrySignals {
  /** Whether stopAll() was called: tries in flight were cut off. */
  readonly stopped: boolean;
  /** Starts a try; `abort` is called at most once, with a TimeoutError or an AbortError. */
  begin(timeoutMs: number, abort: (reason: Error) => void): TrySignal;
  /** Aborts every try in flight, and every try begun after. */
  stopAll(): void;
}

const stopReason = (): Error => new DOMException('the sender stopped', 'AbortError');

export function createTrySignals(): TrySignals {
  const live = new Set<(reason: Error) => void>();
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    begin(timeoutMs, abort) {
      let expired = false;
      let over = false;
      const end = (): void => {
        over = true;
        clearTimeout(timer);
        live.delete(abortOnce);
      };
      const abortOnce = (reason: Error): void => {
        if (over) return;
        end();
        abort(reason);
      };
      const timer = setTimeout(() => {
        expired = true;
        abortOnce(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      timer.unref();
      if (stopped) abortOnce(stopReason());
      else live.add(abortOnce);
      return { timedOut: () => expired, end };
    },
    stopAll() {
      stopped = true;
      const aborts = [...live];
      live.clear();
      for (const abort of aborts) abort(stopReason());
    },
  };
}
