/**
 * Flags and defaults the service commands share. Kept free of heavy imports: every command's
 * options are built on every start of the CLI, and only the chosen command loads its code.
 */
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { CliError, UsageError } from './cli-error.js';

export const DEFAULT_DB = 'smskit.sqlite';
export const PASSWORD_ENV = 'SMSKIT_PASSWORD';

export function withDbOption(yargs: Argv): Argv {
  return yargs.option('db', {
    type: 'string',
    default: DEFAULT_DB,
    describe:
      'The service database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass)',
  });
}

/** True for a postgres:// or postgresql:// connection string (anything else is a SQLite file). */
export function isPostgresDb(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/**
 * Checks the database argument. A password inside a postgres:// URL is refused: argv is visible
 * to every user of the machine (ps, /proc) and ends up in shell history.
 */
export function checkDbArgument(db: string): string {
  if (!isPostgresDb(db)) return db;
  let url: URL;
  try {
    url = new URL(db);
  } catch {
    throw new UsageError('--db: not a valid postgres:// connection string');
  }
  if (url.password !== '' || [...url.searchParams.keys()].some((key) => /pass/i.test(key)))
    throw new UsageError(
      '--db: put the database password in PGPASSWORD or ~/.pgpass, not in the connection string (argv is visible to other users)',
    );
  return db;
}

/** Commands that only read (outbox, account list) must not create an empty database by accident. */
export function requireExistingDb(path: string): string {
  if (isPostgresDb(path)) return checkDbArgument(path);
  if (!existsSync(path))
    throw new CliError(`no service database at ${path} (start with \`smskit serve --db ${path}\` or pass --db)`);
  return path;
}
