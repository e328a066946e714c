/**
 * Ctrl-C for a command that runs many requests and then reports (conformance, replay, fuzz): the
 * first SIGINT says what happens next and aborts `signal`, so the run finishes what it must and
 * writes its partial report; a second quits at once with the interrupted exit code.
 */
import { EXIT_INTERRUPTED } from './exit-codes.js';

export interface Interrupt {
  readonly signal: AbortSignal;
  /** Stops listening for SIGINT (call when the run is over). */
  dispose(): void;
}

/** `doing`: what the first Ctrl-C leads to, e.g. "finishing the requests in flight". */
export function interruptOnSigint(doing: string): Interrupt {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    process.stderr.write(`\nsmskit: interrupted: ${doing} (Ctrl-C again to quit at once)\n`);
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: interrupt.signal, dispose: () => process.off('SIGINT', onSigint) };
}
