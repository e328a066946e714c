/**
 * PostgreSQL failures as `StorageError`s with stable codes, and connection strings made safe to
 * print. The mapping decides what a client sees: every code here makes the service answer
 * ServiceUnavailable; `StorageUnreachable` is what a database that is down or restarting gives,
 * and the pool simply connects again on the next call once it is back.
 */
import { StorageError, type StorageCode } from '../../errors.js';

/** Socket-level failures of node-postgres and Node (no SQLSTATE). */
const UNREACHABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket that is not there (server stopped)
]);

/** node-postgres reports these without a code. */
const UNREACHABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /Client has encountered a connection error/i,
  /Query read timeout/i,
];

/** SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export function classifySqlState(sqlState: string): StorageCode {
  if (sqlState.startsWith('08')) return 'StorageUnreachable'; // connection exception
  if (sqlState === '57P01' || sqlState === '57P02' || sqlState === '57P03') return 'StorageUnreachable'; // shutdown, starting up
  if (sqlState === '53100' || sqlState === '53200' || sqlState === '53300') return 'StorageFull'; // disk, memory, connections
  if (sqlState === '25006') return 'StorageReadOnly'; // read-only transaction (a standby)
  if (sqlState === '40001' || sqlState === '40P01' || sqlState === '55P03') return 'StorageLocked';
  if (sqlState === '57014') return 'StorageLocked'; // statement timeout: waited too long for a lock or the disk
  if (sqlState.startsWith('XX')) return 'StorageCorrupt';
  return 'StorageError';
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** Maps a pg or socket error to a `StorageError` (already-mapped errors pass). */
export function toStorageError(error: unknown, context: string): StorageError {
  if (error instanceof StorageError) return error;
  const driverCode = codeOf(error);
  const reason = redactSecrets(error instanceof Error ? error.message : String(error));
  let code: StorageCode = 'StorageError';
  // Node's codes first: EPIPE has the shape of a SQLSTATE too.
  if (driverCode !== undefined && UNREACHABLE_NODE_CODES.has(driverCode)) code = 'StorageUnreachable';
  else if (driverCode !== undefined && /^[0-9A-Z]{5}$/.test(driverCode)) code = classifySqlState(driverCode);
  else if (UNREACHABLE_MESSAGES.some((pattern) => pattern.test(reason))) code = 'StorageUnreachable';
  return new StorageError(code, `${context}: ${reason}`, driverCode, { cause: error });
}

/** True for a `postgres://` or `postgresql://` connection string (anything else is a SQLite path). */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** The connection string with any password replaced, for logs, errors and the start banner. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Anything that looks like a connection string inside a driver message is redacted too. */
function redactSecrets(text: string): string {
  return text.replace(/postgres(?:ql)?:\/\/\S+/gi, (url) => redactUrl(url));
}
