/**
 * Opening the SQLite database: pragmas, schema migrations (PRAGMA user_version), error mapping.
 *
 * Durability: WAL with synchronous=FULL (the default here) fsyncs the WAL at every COMMIT, so a
 * committed transaction survives a process crash (SIGKILL) and an OS crash or power loss, given a
 * disk that honours fsync. synchronous=NORMAL (option `durability: 'normal'`) still survives a
 * process crash — the WAL frames are in the OS page cache when COMMIT returns — but an OS crash
 * may roll back the last commits.
 */
import Database from 'better-sqlite3';
import { StorageError, type StorageCode } from '../../errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

export type Durability = 'full' | 'normal';

export interface OpenOptions {
  readonly path: string;
  readonly durability?: Durability;
  /**
   * How long a statement waits for another connection's lock before failing (ms, default 250).
   * Short on purpose: better-sqlite3 waits synchronously, i.e. with the event loop stopped, and
   * the only other writers (smskit account add|disable) hold the lock for a few milliseconds.
   */
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
}

/** Opens (creating if needed) and migrates the database; throws `StorageError`. */
export function openDatabase(options: OpenOptions): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(options.path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 250))}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${options.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
      migrate(db);
    }
    return db;
  } catch (error) {
    db?.close();
    throw toStorageError(error, `cannot open database ${options.path}`);
  }
}

function migrate(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version > SCHEMA_VERSION) {
    throw new StorageError(
      'StorageError',
      `database schema version ${version} is newer than this smskit (${SCHEMA_VERSION})`,
    );
  }
  for (let from = version; from < SCHEMA_VERSION; from++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[from] ?? '');
      db.pragma(`user_version = ${from + 1}`);
    }).immediate();
  }
}

/** Maps a driver error to a `StorageError` with a stable code (already-mapped errors pass). */
export function toStorageError(error: unknown, context: string): StorageError {
  if (error instanceof StorageError) return error;
  const driverCode = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const reason = error instanceof Error ? error.message : String(error);
  return new StorageError(classify(driverCode), `${context}: ${reason}`, driverCode, { cause: error });
}

function classify(driverCode: string | undefined): StorageCode {
  if (driverCode === undefined) return 'StorageError';
  if (driverCode.startsWith('SQLITE_FULL')) return 'StorageFull';
  if (driverCode.startsWith('SQLITE_READONLY') || driverCode.startsWith('SQLITE_PERM')) return 'StorageReadOnly';
  if (driverCode.startsWith('SQLITE_BUSY') || driverCode.startsWith('SQLITE_LOCKED')) return 'StorageLocked';
  if (driverCode.startsWith('SQLITE_CORRUPT') || driverCode.startsWith('SQLITE_NOTADB')) return 'StorageCorrupt';
  return 'StorageError';
}
