/** `smskit outbox`: the stored messages, without message text or secrets. */
import type { Argv } from 'yargs';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { requireExistingDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';

function builder(yargs: Argv): Argv {
  return withDbOption(yargs)
    .option('json', { type: 'boolean', default: false, describe: 'Print a JSON array' })
    .option('limit', { type: 'number', describe: 'At most this many messages (oldest first)' });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const { openSmsApp } = await import('../../service/app.js');
  const { formatOutboxJson, formatOutboxTable, outboxEntries } = await import('../../service/outbox-report.js');
  const app = await openSmsApp({ dbPath: requireExistingDb(String(args.db)) });
  try {
    const limit = typeof args.limit === 'number' ? args.limit : undefined;
    const entries = await outboxEntries(app.store, limit === undefined ? {} : { limit });
    process.stdout.write(args.json === true ? formatOutboxJson(entries) : formatOutboxTable(entries));
    return EXIT_OK;
  } finally {
    await app.close();
  }
}

export const outboxCommand: CliCommand = {
  command: 'outbox',
  describe:
    'List the messages stored in the outbox (id, time, account, recipient, carrier, encoding, segments, port, state)',
  builder,
  examples: [
    ['smskit outbox', 'a table of the stored messages'],
    ['smskit outbox --json --limit 10 --db service.sqlite', 'the ten oldest as JSON, from another database'],
  ],
  exitCodes: COMMAND_EXIT_CODES.outbox,
  run,
};
