/**
 * SQLite says "unable to open database file" or "attempt to write a readonly database" whatever
 * the reason; the user needs the reason (the folder or the file is not writable, the file system
 * is read-only) and the way out. SQLite writes the database and its -wal and -shm files beside
 * it, so the folder must be writable too, not only the file.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error.js';

const OPEN_FAILURE = /unable to open database file|readonly database|SQLITE_(CANTOPEN|READONLY|PERM)/i;

function driverCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const own = 'driverCode' in error ? String(error.driverCode) : 'code' in error ? String(error.code) : '';
  return own;
}

/** Why `path` cannot be written, from the file system's own answer; undefined when it can. */
function notWritable(path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return 'is on a read-only file system';
    if (code === 'EACCES' || code === 'EPERM') return 'is not writable by this user (permission denied)';
    return undefined;
  }
}

/** A CliError naming the reason when `error` is SQLite failing to open or write `dbPath`; else `error`. */
export function explainDatabaseError(error: unknown, dbPath: string): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!OPEN_FAILURE.test(message) && !OPEN_FAILURE.test(driverCode(error))) return error;
  const file = resolve(dbPath);
  const folder = dirname(file);
  const reason =
    (existsSync(file) ? notWritable(file) : undefined)?.replace(/^/, `the file ${dbPath} `) ??
    notWritable(folder)?.replace(/^/, `its folder ${folder} `);
  if (reason === undefined) return error;
  return new CliError(
    `cannot open the service database ${dbPath}: ${reason} (SQLite writes the file and its -wal and -shm files beside it); pass --db with a path in a writable folder`,
  );
}
