/**
 * How busy an event loop and the machine under it have been lately, readable from other threads
 * without a message: the loop samples, every `sampleMs`, its own utilization (the share of time
 * it ran callbacks rather than waited for I/O, `performance.eventLoopUtilization`) and how many
 * cores' worth of time the machine left idle (`os.cpus()`, ~80 µs a sample) into a
 * SharedArrayBuffer, and a thread reads the last sample with two atomic loads. The callback
 * sender's thread uses it to hold back while the loop that serves and delivers has no time to
 * spare and the machine no core to give: a busy loop beside an idle core is no reason to wait.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

/** Samples are stored as thousandths (an Int32Array holds integers). */
const SCALE = 1_000;
const LOOP = 0;
const IDLE_CORES = 1;

export interface LoadSample {
  /** The loop's utilization over the last sample: 0 (always waiting) to 1 (never waited). */
  readonly loop: number;
  /** How many cores' worth of the machine's CPU time was idle over the last sample (0 to the cores). */
  readonly idleCores: number;
}

export interface LoadGauge {
  /** Hand this to the reading thread (`workerData`); it is shared, not copied. */
  readonly buffer: SharedArrayBuffer;
  stop(): void;
}

export function newLoadBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

export function writeLoadSample(buffer: SharedArrayBuffer, sample: LoadSample): void {
  const slots = new Int32Array(buffer);
  Atomics.store(slots, LOOP, Math.round(sample.loop * SCALE));
  Atomics.store(slots, IDLE_CORES, Math.round(sample.idleCores * SCALE));
}

/** The last sample, from any thread. */
export function loadReader(buffer: SharedArrayBuffer): () => LoadSample {
  const slots = new Int32Array(buffer);
  return () => ({ loop: Atomics.load(slots, LOOP) / SCALE, idleCores: Atomics.load(slots, IDLE_CORES) / SCALE });
}

/** Starts sampling this thread's event loop and the machine; the timer does not keep the process alive. */
export function startLoadGauge(sampleMs = 100): LoadGauge {
  const buffer = newLoadBuffer();
  let lastLoop = performance.eventLoopUtilization();
  let lastCpu = cpuTimes();
  const timer = setInterval(() => {
    const loop = performance.eventLoopUtilization();
    const cpu = cpuTimes();
    const total = cpu.total - lastCpu.total;
    writeLoadSample(buffer, {
      loop: performance.eventLoopUtilization(loop, lastLoop).utilization,
      idleCores: total > 0 ? ((cpu.idle - lastCpu.idle) / total) * cpu.cores : cpu.cores,
    });
    lastLoop = loop;
    lastCpu = cpu;
  }, sampleMs);
  timer.unref();
  return { buffer, stop: () => clearInterval(timer) };
}

function cpuTimes(): { idle: number; total: number; cores: number } {
  let idle = 0;
  let total = 0;
  const all = cpus();
  for (const { times } of all) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total, cores: all.length };
}
