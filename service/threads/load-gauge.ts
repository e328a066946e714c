/**
 * How busy an event loop has been lately, readable from other threads without a message: the
 * loop samples its own utilization (the share of time it ran callbacks rather than waited for
 * I/O, `performance.eventLoopUtilization`) every `sampleMs` into a SharedArrayBuffer, and a thread
 * reads the last sample with one atomic load. The callback sender's thread uses it to hold back
 * while the loop that serves and delivers has no time to spare.
 */
import { performance } from 'node:perf_hooks';

/** Samples are stored as thousandths (an Int32Array holds integers). */
const SCALE = 1_000;

export interface LoadGauge {
  /** Hand this to the reading thread (`workerData`); it is shared, not copied. */
  readonly buffer: SharedArrayBuffer;
  stop(): void;
}

/** Starts sampling this thread's event loop; the timer does not keep the process alive. */
export function startLoadGauge(sampleMs = 100): LoadGauge {
  const buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  const sample = new Int32Array(buffer);
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    Atomics.store(sample, 0, Math.round(performance.eventLoopUtilization(now, last).utilization * SCALE));
    last = now;
  }, sampleMs);
  timer.unref();
  return { buffer, stop: () => clearInterval(timer) };
}

/** The loop's utilization over its last sample, 0 (idle) to 1 (never waited), from any thread. */
export function loadReader(buffer: SharedArrayBuffer): () => number {
  const sample = new Int32Array(buffer);
  return () => Atomics.load(sample, 0) / SCALE;
}
