/** `smskit db migrate`: bring the service database's schema up to this smskit's version. */
import type { Argv } from 'yargs';
import { CliError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { checkDbArgument, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';

function builder(yargs: Argv): Argv {
  return withDbOption(yargs).positional('action', { choices: ['migrate'] as const, describe: 'What to do' });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const db = checkDbArgument(String(args.db));
  const { migrateDatabase } = await import('../../service/store/index.js');
  const { StorageError } = await import('../../service/errors.js');
  try {
    const { kind, from, to } = await migrateDatabase(db);
    process.stdout.write(
      from === to
        ? `${kind} database ${db}: schema version ${to}, up to date\n`
        : `${kind} database ${db}: schema migrated from version ${from} to ${to}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof StorageError) throw new CliError(error.message);
    throw error;
  }
}

export const dbCommand: CliCommand = {
  command: 'db <action>',
  describe: 'Migrate the service database (SQLite file or PostgreSQL) to the schema of this smskit',
  builder,
  examples: [
    ['smskit db migrate --db service.sqlite', 'a SQLite file'],
    [
      'PGPASSWORD=... smskit db migrate --db postgres://sms@db.example.com/sms',
      'PostgreSQL, before starting the new version of every instance',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.db,
  run,
};
