/**
 * `smskit outbox`: the stored messages, newest first, without message text or secrets: filtered
 * (--state, --to, --account, --since), one message with its whole history (--id), every state
 * change as it happens (--follow), and retention (`outbox prune --before DATE [--text-only]`).
 */
import type { Argv } from 'yargs';
import { CliError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { OUTBOX_STATES, type OutboxOptions, validateOutboxOptions } from '../outbox-options.js';
import { requireExistingDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';

function builder(yargs: Argv): Argv {
  return withDbOption(yargs)
    .positional('action', { choices: ['list', 'prune'], default: 'list', describe: 'list (default) or prune' })
    .option('json', { type: 'boolean', default: false, describe: 'JSON (--follow: one JSON object per line)' })
    .option('limit', { type: 'string', describe: 'At most this many messages (newest first)' })
    .option('state', { type: 'string', array: true, describe: `Only these states (${OUTBOX_STATES.join(', ')})` })
    .option('to', { type: 'string', describe: 'Only messages to this number (E.164, e.g. +15551234567)' })
    .option('account', { type: 'string', describe: 'Only messages of this account (its e-mail address)' })
    .option('since', {
      type: 'string',
      describe: 'Only messages accepted since (2026-11-01, …T12:00:00Z, or an age: 90m, 12h, 30d)',
    })
    .option('id', {
      type: 'string',
      describe: 'One message with its whole history (state changes, attempts, SMSC id, route, errors)',
    })
    .option('follow', { type: 'boolean', describe: 'Print state changes as they happen, until Ctrl-C' })
    .option('interval', { type: 'string', describe: '--follow: how often to look (ms, default 500)' })
    .option('before', { type: 'string', describe: 'prune: messages accepted before this date or age (e.g. 90d)' })
    .option('text-only', { type: 'boolean', describe: 'prune: keep the messages, remove only their text' });
}

type App = Awaited<ReturnType<typeof import('../../service/app.js').openSmsApp>>;

async function list(app: App, options: OutboxOptions): Promise<void> {
  const report = await import('../../service/outbox/report.js');
  const { action } = options;
  if (action.kind === 'one') {
    const found = await report.messageReport(app.store, action.id);
    if (found === undefined) throw new CliError(`no message ${action.id} in ${options.db}`);
    process.stdout.write(options.json ? `${JSON.stringify(found, null, 2)}\n` : report.formatMessageReport(found));
    return;
  }
  if (action.kind !== 'list') return;
  const { states, smsto, account, since } = action.filters;
  const entries = await report.outboxReport(app.store, {
    states,
    ...(smsto === undefined ? {} : { smsto }),
    ...(account === undefined ? {} : { account }),
    ...(since === undefined ? {} : { since }),
    ...(action.limit === undefined ? {} : { limit: action.limit }),
  });
  process.stdout.write(options.json ? report.formatOutboxJson(entries) : report.formatOutboxTable(entries));
}

async function follow(app: App, options: OutboxOptions): Promise<void> {
  if (options.action.kind !== 'follow') return;
  const { followOutbox } = await import('../../service/outbox/follow.js');
  const { changeJson, formatChange } = await import('../../service/outbox/report.js');
  const { filters, id, intervalMs } = options.action;
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await followOutbox(app.store, {
      filter: {
        states: filters.states,
        ...(filters.smsto === undefined ? {} : { smsto: filters.smsto }),
        ...(filters.account === undefined ? {} : { account: filters.account }),
        ...(id === undefined ? {} : { id }),
      },
      intervalMs,
      signal: stop.signal,
      onChange: (messageId, event) =>
        void process.stdout.write(`${options.json ? changeJson(messageId, event) : formatChange(messageId, event)}\n`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function prune(app: App, options: OutboxOptions): Promise<void> {
  if (options.action.kind !== 'prune') return;
  const { before, mode } = options.action;
  const count = await app.store.pruneOutbox(before, mode);
  const when = new Date(before).toISOString();
  const what = mode === 'text' ? `removed the text of ${count}` : `deleted ${count}`;
  const result = { pruned: count, mode, before: when };
  process.stdout.write(
    options.json ? `${JSON.stringify(result)}\n` : `${what} message${count === 1 ? '' : 's'} accepted before ${when}\n`,
  );
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateOutboxOptions(args);
  const { openSmsApp } = await import('../../service/app.js');
  const dbPath = requireExistingDb(options.db);
  let app: App;
  try {
    app = await openSmsApp({ dbPath });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
    if (options.action.kind === 'follow') await follow(app, options);
    else if (options.action.kind === 'prune') await prune(app, options);
    else await list(app, options);
    return EXIT_OK;
  } finally {
    await app.close();
  }
}

export const outboxCommand: CliCommand = {
  command: 'outbox [action]',
  describe:
    "The stored messages, newest first, with their delivery state; one message's history; state changes as they happen; prune",
  builder,
  examples: [
    ['smskit outbox', 'a table of the stored messages, newest first'],
    ['smskit outbox --state failed,rejected --since 24h', 'what did not go out in the last day'],
    ['smskit outbox --id SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D', 'one message with its whole history'],
    ['smskit outbox --follow --to +15551234567', 'state changes of messages to one number, as they happen'],
    ['smskit outbox --json --limit 10 --db service.sqlite', 'the ten newest as JSON, from another database'],
    ['smskit outbox prune --before 90d --text-only', 'remove the text of messages older than 90 days'],
  ],
  exitCodes: COMMAND_EXIT_CODES.outbox,
  run,
};
