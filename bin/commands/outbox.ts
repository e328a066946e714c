/** `smskit outbox`: the stored messages, without message text or secrets. */
import type { Argv } from 'yargs';
import { UsageError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { requireExistingDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';

function builder(yargs: Argv): Argv {
  return withDbOption(yargs)
    .option('json', { type: 'boolean', default: false, describe: 'Print a JSON array' })
    .option('limit', { type: 'number', describe: 'At most this many messages (oldest first)' });
}

/** The most --limit takes: more than any outbox a table on a terminal is read from. */
const MAX_LIMIT = 1_000_000;

/** --limit as given: a whole number from 1 (yargs turns "abc" into NaN, which SQLite would refuse as a datatype mismatch). */
function validLimit(value: unknown, raw: readonly string[]): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_LIMIT) return value;
  const given =
    raw.find((_arg, i) => raw[i - 1] === '--limit') ?? raw.find((arg) => arg.startsWith('--limit='))?.slice(8);
  throw new UsageError(
    `--limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(given ?? String(value))}`,
  );
}

async function run(args: Record<string, unknown>): Promise<number> {
  const limit = validLimit(args.limit, process.argv);
  const { openSmsApp } = await import('../../service/app.js');
  const { formatOutboxJson, formatOutboxTable, outboxEntries } = await import('../../service/outbox-report.js');
  const dbPath = requireExistingDb(String(args.db));
  let app: Awaited<ReturnType<typeof openSmsApp>>;
  try {
    app = await openSmsApp({ dbPath });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
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
