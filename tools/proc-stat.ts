/**
 * Linux's /proc/<pid>/stat, read by the bench (a process's own CPU) and by the test run's cost log
 * (the CPU of the children a process has reaped).
 */
import { readFileSync } from 'node:fs';

/**
 * The CPU-seconds in two clock-tick fields of /proc/<pid>/stat, counted from the state (the
 * third field; the command name before it may hold spaces): 11 and 12 are the process's user and
 * system time, 13 and 14 its reaped children's. Undefined where /proc cannot say.
 */
export function statCpuSeconds(pid: number | 'self', user: number, system: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[user]) + Number(fields[system])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}
