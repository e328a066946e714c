/**
 * What the CLI's service commands share: the built-in contract (WSDL text and the generated
 * descriptor) and the flags that open the service's database.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { ServiceAPIDescriptor } from '../generated/service-api/descriptor.js';
import type { ServiceDescriptor } from '../runtime/index.js';
import { CliError } from './cli-error.js';

export const DEFAULT_DB = 'smskit.sqlite';
export const PASSWORD_ENV = 'SMSKIT_PASSWORD';

/** The contract as published at `?wsdl` (its addresses are rewritten per request). */
export function builtInWsdlText(): string {
  return readFileSync(new URL('../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
}

export function builtInDescriptor(): ServiceDescriptor {
  return ServiceAPIDescriptor;
}

export function withDbOption(yargs: Argv): Argv {
  return yargs.option('db', { type: 'string', default: DEFAULT_DB, describe: 'SQLite database file of the service (accounts and outbox)' });
}

/** Commands that only read (outbox, account list) must not create an empty database by accident. */
export function requireExistingDb(path: string): string {
  if (!existsSync(path)) throw new CliError(`no service database at ${path} (start with \`smskit serve --db ${path}\` or pass --db)`);
  return path;
}
