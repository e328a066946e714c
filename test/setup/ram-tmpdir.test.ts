/** The run's temporary files in RAM where there is room (ram-tmpdir.ts), a user's TMPDIR kept. */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DISK_TMPDIR, diskTmpdir, MIN_FREE_BYTES, RAM_ROOT, RAM_TMPDIR, useRamTmpdir } from './ram-tmpdir.js';

/** statfs's f_type of a tmpfs (linux/magic.h). */
const TMPFS_MAGIC = 0x01021994;
const root = mkdtempSync(join(tmpdir(), 'smskit-ram-tmpdir-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Calls the exit listener useRamTmpdir added, as the process's exit would, and takes it away. */
function runExitListener(before: number): void {
  const listeners = process.listeners('exit');
  expect(listeners).toHaveLength(before + 1);
  const listener = listeners.at(-1)!;
  process.removeListener('exit', listener);
  listener.call(process, 0);
}

describe('the test run’s temporary folder', () => {
  it('moves to a new folder under the tmpfs, reachable by other users, removed at exit; a second look reuses it', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin' };
    const before = process.listeners('exit').length;
    const dir = useRamTmpdir(env, { root, minFreeBytes: 0 });
    expect(dir).toMatch(new RegExp(`^${root}/smskit-test-${process.pid}-`));
    expect(env).toEqual({ PATH: '/bin', TMPDIR: dir, [RAM_TMPDIR]: dir, [DISK_TMPDIR]: '/tmp' });
    expect(statSync(dir!).mode & 0o777).toBe(0o711);
    expect(diskTmpdir(env)).toBe('/tmp');
    expect(useRamTmpdir(env, { root, minFreeBytes: 0 })).toBe(dir);
    mkdirSync(join(dir!, 'a test’s folder'));
    runExitListener(before);
    expect(existsSync(dir!)).toBe(false);
  });

  it('keeps a TMPDIR the user set, and the disk when the tmpfs has too little room', () => {
    const set: NodeJS.ProcessEnv = { TMPDIR: '/var/tmp' };
    expect(useRamTmpdir(set, { root, minFreeBytes: 0 })).toBeUndefined();
    expect(set).toEqual({ TMPDIR: '/var/tmp' });
    expect(diskTmpdir(set)).toBe('/var/tmp');

    const full: NodeJS.ProcessEnv = {};
    expect(useRamTmpdir(full, { root, minFreeBytes: Number.MAX_SAFE_INTEGER })).toBeUndefined();
    expect(full).toEqual({});
    expect(useRamTmpdir({}, { root: join(root, 'no such folder'), minFreeBytes: 0 })).toBeUndefined();
  });

  it('removes what runs that were killed left behind, never a live run’s folder', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const abandoned = join(root, `smskit-test-${gone.pid}-abc123`);
    const running = join(root, `smskit-test-${process.ppid}-def456`);
    const other = join(root, 'someone-else');
    for (const dir of [abandoned, running, other]) mkdirSync(dir);
    const before = process.listeners('exit').length;
    useRamTmpdir({}, { root, minFreeBytes: 0 });
    runExitListener(before);
    expect([existsSync(abandoned), existsSync(running), existsSync(other)]).toEqual([false, true, true]);
  });

  it('is the tmpfs in this run, for this worker and what it starts, unless the user chose or it had no room', () => {
    const made = process.env[RAM_TMPDIR];
    if (made === undefined) {
      // The run kept its folder: the user's TMPDIR, or a machine without a tmpfs with room.
      const free = existsSync(RAM_ROOT) ? statfsSync(RAM_ROOT) : undefined;
      const roomy = free !== undefined && free.bavail * free.bsize >= MIN_FREE_BYTES;
      expect(process.env[DISK_TMPDIR] === undefined && (!roomy || process.env.TMPDIR !== undefined)).toBe(true);
      return;
    }
    expect(tmpdir()).toBe(made);
    expect(statfsSync(made).type).toBe(TMPFS_MAGIC);
    // The worker was started with it (its environment as exec'd), not given it afterwards.
    const startedWith = readFileSync('/proc/self/environ', 'utf8').split('\0');
    expect(startedWith).toContain(`TMPDIR=${made}`);
  });
});
