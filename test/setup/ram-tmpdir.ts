/**
 * The test run's temporary files on a RAM-backed tmpfs (/dev/shm) when the machine has one with
 * room: a run writes ~0.9 GB there (PostgreSQL clusters and the databases each test copies,
 * SQLite files, consumer projects with their node_modules, generated code) and removes it again.
 * On a disk every byte is written back and every removal discarded by the kernel's own threads,
 * CPU the run's processes are never charged with: ~1.8 million 512-byte blocks written by a
 * fresh clone's `npm test` on the 2-core machine, 0.09 million with the files in RAM.
 *
 * A TMPDIR the user set is kept as it is (`TMPDIR=/tmp npm test` keeps the files on disk). A
 * test that needs a disk's semantics (an immutable file's open descriptors refusing writes, which
 * tmpfs does not do) asks for `diskTmpdir()`.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a run looks for a tmpfs. */
export const RAM_ROOT = '/dev/shm';
/** Less room than this and the run keeps to the disk (containers often give /dev/shm 64 MB). */
export const MIN_FREE_BYTES = 2 * 1024 ** 3;
/** The temporary folder the run found, before it moved to RAM. */
export const DISK_TMPDIR = 'SMSKIT_TEST_DISK_TMPDIR';
/** Set to the RAM folder this run made (so that a second look at the config reuses it). */
export const RAM_TMPDIR = 'SMSKIT_TEST_RAM_TMPDIR';
const PREFIX = 'smskit-test-';

/** Free bytes on the filesystem at `path`, or undefined where there is none to read. */
function freeBytes(path: string): number | undefined {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders left by runs that were killed before their exit could remove them (they hold RAM). */
function removeAbandoned(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(PREFIX) ? Number.parseInt(name.slice(PREFIX.length), 10) : Number.NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid))
      rmSync(join(root, name), { recursive: true, force: true });
  }
}

/**
 * Points TMPDIR at a new folder under `root` for this process and every process it starts, and
 * removes the folder when this process exits. Returns the folder, or undefined where the run
 * keeps the temporary folder it found (TMPDIR set by the user, no tmpfs, too little room).
 */
export function useRamTmpdir(
  env: NodeJS.ProcessEnv = process.env,
  { root = RAM_ROOT, minFreeBytes = MIN_FREE_BYTES }: { root?: string; minFreeBytes?: number } = {},
): string | undefined {
  const made = env[RAM_TMPDIR];
  if (made !== undefined && env.TMPDIR === made) return made;
  if (env.TMPDIR !== undefined && env.TMPDIR !== '') return undefined;
  const free = freeBytes(root);
  if (free === undefined || free < minFreeBytes) return undefined;
  removeAbandoned(root);
  const dir = mkdtempSync(join(root, `${PREFIX}${process.pid}-`));
  // PostgreSQL's clusters run as the `postgres` user when the tests run as root: it must be able
  // to reach its folder inside this one (mkdtemp makes it 0700).
  chmodSync(dir, 0o711);
  env[DISK_TMPDIR] = tmpdirOf(env);
  env[RAM_TMPDIR] = dir;
  env.TMPDIR = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What os.tmpdir() gives a process with `env`. */
function tmpdirOf(env: NodeJS.ProcessEnv): string {
  return env === process.env ? tmpdir() : (env.TMPDIR || env.TMP || env.TEMP || '/tmp').replace(/(.)\/$/, '$1');
}

/** A temporary folder on a disk: the one the run found, wherever TMPDIR points now. */
export function diskTmpdir(env: NodeJS.ProcessEnv = process.env): string {
  return env[DISK_TMPDIR] ?? tmpdirOf(env);
}
