/**
 * When the callback sender holds its next claim back: while the event loop that serves and
 * delivers is busy (its utilization at or above BUSY_UTILIZATION), for at most `maxMs` at a
 * stretch. Running at nice 19 was not enough: a callback's HTTP exchange costs the machine more
 * than its thread's CPU (the kernel's loopback and socket work, the receiver when it shares the
 * machine, garbage collection on helper threads at normal priority), and on two cores full with
 * delivery a fast receiver took a fifth to a quarter of the delivered rate. Held back, the events wait in
 * the queue (durably) and go when the burst ends. The bound keeps status from going stale under
 * load that never ends: once a stretch has lasted `maxMs` the sender sends as before, and a new
 * stretch begins only after the loop has been quiet for QUIET_MS.
 */

export const BUSY_UTILIZATION = 0.6;
/** A stretch ends after this long below BUSY_UTILIZATION (brief dips in a long burst do not reset it). */
export const QUIET_MS = 1_000;

export interface BusyDeferral {
  /** Whether to hold the next claim back now. */
  holdBack(): boolean;
  /** Whether the last answer was to hold back. */
  readonly holding: boolean;
}

export function createBusyDeferral(load: () => number, maxMs: number, clock: () => number): BusyDeferral {
  let stretchSince: number | undefined;
  let lastBusyAt = Number.NEGATIVE_INFINITY;
  let holding = false;
  return {
    holdBack() {
      if (maxMs <= 0) return false;
      const now = clock();
      if (load() < BUSY_UTILIZATION) {
        if (now - lastBusyAt >= QUIET_MS) stretchSince = undefined;
        holding = false;
        return false;
      }
      lastBusyAt = now;
      stretchSince ??= now;
      holding = now - stretchSince < maxMs;
      return holding;
    },
    get holding() {
      return holding;
    },
  };
}
