/**
 * How the kernel schedules each of this process's threads (Linux: /proc/self/task/ID/stat), for
 * the tests of the threads that lower their own priority.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadSchedule {
  readonly nice: number;
  /** The scheduling policy: 0 SCHED_OTHER (normal), 5 SCHED_IDLE. */
  readonly policy: number;
}

/** SCHED_IDLE's number in the stat file's policy field. */
export const SCHED_IDLE = 5;

export function threadSchedules(): ThreadSchedule[] {
  return readdirSync('/proc/self/task').map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    // Fields after the command's closing parenthesis start at field 3; nice is field 19, policy 41.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

export function niceValues(): number[] {
  return threadSchedules().map((thread) => thread.nice);
}
