/**
 * Where a test run's time goes, file by file: with SMSKIT_TEST_COSTS=<log> (vitest.config.ts adds
 * this file to the setup files then), each test file appends one JSON line to <log> when it
 * ends: its wall time, the CPU its worker spent on it, and the CPU of the processes it started
 * and waited for. `npx tsx scripts/test-costs.ts <log>` ranks them. A file whose wall time is far
 * above its CPU mostly waits (on a peer, a timer, a server's own CPU): on a machine whose cores
 * the run keeps busy, that is where the idle time comes from.
 *
 * The children's CPU is the kernel's count of reaped children (Linux's /proc/self/stat); a
 * process still running when the file ends (a server another file stops, PostgreSQL) is not in
 * it, and elsewhere it reads 0.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { statCpuSeconds } from '../../tools/proc-stat.js';

/** One test file's line in the log. */
export interface FileCost {
  readonly file: string;
  /** Unix seconds. */
  readonly start: number;
  readonly end: number;
  /** CPU-seconds of the worker process while the file ran. */
  readonly own: number;
  /** CPU-seconds of the child processes the file started and that ended meanwhile. */
  readonly children: number;
  readonly pid: number;
}

/** CPU-seconds of this process's reaped children, or 0 where /proc is not there to say. */
function reapedChildrenCpu(): number {
  return statCpuSeconds('self', 13, 14) ?? 0;
}

/** Starts counting now; the function returned gives the file's line. */
function startCounting(): (file: string) => FileCost {
  const own = process.cpuUsage();
  const children = reapedChildrenCpu();
  const start = Date.now();
  return (file) => {
    const used = process.cpuUsage(own);
    return {
      file,
      start: start / 1000,
      end: Date.now() / 1000,
      own: (used.user + used.system) / 1e6,
      children: reapedChildrenCpu() - children,
      pid: process.pid,
    };
  };
}

const log = process.env.SMSKIT_TEST_COSTS;
if (log !== undefined && log !== '') {
  const finish = startCounting();
  afterAll(() => appendFileSync(log, `${JSON.stringify(finish(expect.getState().testPath ?? 'unknown'))}\n`));
}
