/**
 * Flags and defaults the service commands share. Kept free of heavy imports: every command's
 * options are built on every start of the CLI, and only the chosen command loads its code.
 */
import { existsSync } from 'node:fs';
import type { Argv } from 'yargs';
import { CliError } from './cli-error.js';

export const DEFAULT_DB = 'smskit.sqlite';
export const PASSWORD_ENV = 'SMSKIT_PASSWORD';

export function withDbOption(yargs: Argv): Argv {
  return yargs.option('db', {
    type: 'string',
    default: DEFAULT_DB,
    describe: 'SQLite database file of the service (accounts and outbox)',
  });
}

/** Commands that only read (outbox, account list) must not create an empty database by accident. */
export function requireExistingDb(path: string): string {
  if (!existsSync(path))
    throw new CliError(`no service database at ${path} (start with \`smskit serve --db ${path}\` or pass --db)`);
  return path;
}
