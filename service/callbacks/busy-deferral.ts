/**
 * When the callback sender holds its next claim back: while the event loop that serves and
 * delivers is busy (its utilization at or above BUSY_LOOP) and the machine has less than a
 * core idle (the sender's thread would take it from delivery), for at most `maxMs` at a stretch.
 * Within a stretch a dip shorter than QUIET_MS holds back too: the tail of a burst (delivery
 * finishing what acceptance queued) is no time to send the burst's callbacks. Running at
 * nice 19 was not enough: a callback's HTTP exchange costs the machine more than its thread's
 * CPU (the kernel's socket work, garbage collection on helper threads at normal priority, the
 * receiver when it shares the machine), and on two cores full with delivery a fast receiver
 * took a fifth to a quarter of the delivered rate. Held back, the events wait in the queue
 * (durably) and go when the burst ends.
 *
 * The bound keeps status from going stale under load that does not end: once a stretch has
 * lasted `maxMs`, or ends because the loop has been quiet for QUIET_MS, the sender sends as
 * before until it has caught up (a claim found fewer due events than it asked for); only then
 * may a new stretch begin. Bursts with short gaps between them therefore cannot hold callbacks
 * back over and over while the queue grows. Time is a steady clock's (a wall clock stepped back
 * would stretch the hold).
 */
import type { LoadSample } from '../threads/load-gauge.js';

export const BUSY_LOOP = 0.6;
/** Less idle CPU than this many cores' worth: no core to spare. */
export const SPARE_CORES = 1;
/** A stretch ends after this long not busy (brief dips in a long burst do not end it). */
export const QUIET_MS = 1_000;

export interface BusyDeferral {
  /** Whether to hold the next claim back now. */
  holdBack(): boolean;
  /** A claim found every due event (fewer than it asked for): a new stretch may begin. */
  caughtUp(): void;
  /** Whether the last answer was to hold back. */
  readonly holding: boolean;
}

/** A sender that is not told the service's load never holds back. */
export const NEVER_DEFER: BusyDeferral = Object.freeze({
  holdBack: () => false,
  caughtUp: () => undefined,
  holding: false,
});

export function createBusyDeferral(load: () => LoadSample, maxMs: number, clock: () => number): BusyDeferral {
  let stretchSince: number | undefined;
  let lastBusyAt = Number.NEGATIVE_INFINITY;
  let mayHold = true;
  let holding = false;
  const endStretch = (): void => {
    stretchSince = undefined;
    mayHold = false;
  };
  const answer = (hold: boolean): boolean => {
    holding = hold;
    return hold;
  };
  return {
    holdBack() {
      if (maxMs <= 0) return false;
      const now = clock();
      const sample = load();
      const busy = sample.loop >= BUSY_LOOP && sample.idleCores < SPARE_CORES;
      if (busy) lastBusyAt = now;
      if (stretchSince === undefined) {
        if (!busy || !mayHold) return answer(false);
        stretchSince = now;
      }
      if (now - lastBusyAt < QUIET_MS && now - stretchSince < maxMs) return answer(true);
      endStretch();
      return answer(false);
    },
    caughtUp() {
      if (stretchSince === undefined) mayHold = true;
    },
    get holding() {
      return holding;
    },
  };
}
