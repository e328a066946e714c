/**
 * A worker thread's own CPU priority. On Linux a thread's nice value and scheduling class are its
 * own (set on its thread id, which /proc/thread-self names), so one thread of the service can give
 * way to the others without the process doing so; elsewhere the thread keeps the process's.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Sets the calling thread's nice value; returns why it could not, or undefined when it did (or need not). */
export function setOwnThreadPriority(nice: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    setPriority(ownThreadId(), nice);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Puts the calling thread in Linux's idle scheduling class (SCHED_IDLE): it runs only on a core no
 * other thread wants, below even nice 19 (weight 3 against nice 19's 15). Node has no call for it,
 * so util-linux's `chrt` sets it, once, at the thread's start. Returns why it could not, or
 * undefined when it did (or need not: not Linux).
 */
export function setOwnThreadIdleClass(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(ownThreadId())], { stdio: 'pipe', timeout: 5_000 });
    return undefined;
  } catch (error) {
    const { stderr, message } = error as Error & { stderr?: Buffer };
    return stderr?.toString().trim() || message;
  }
}

function ownThreadId(): number {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}
