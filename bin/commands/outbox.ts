/**
 * `smskit outbox`: the stored messages, newest first, without message text or secrets: filtered
 * (--state, --to, --account, --since), one message with its whole history (--id), waiting for
 * one message's state (--id --wait), every state change as it happens (--follow), and retention
 * (`outbox prune --before DATE [--text-only]`).
 */
import type { Argv } from 'yargs';
import { CliError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { OUTBOX_STATES, type OutboxOptions, validateOutboxOptions } from '../outbox-options.js';
import { requireExistingDb, withDbOption } from '../service-defaults.js';
import { onStopRequest, pidLine } from '../stop-signals.js';
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
    .option('wait', {
      type: 'string',
      describe: `With --id: wait until the message is in one of these states (comma-separated: ${OUTBOX_STATES.join(', ')})`,
    })
    .option('timeout', { type: 'string', describe: '--wait: give up after this long (30s, 2m, 1500ms; default 30s)' })
    .option('follow', { type: 'boolean', describe: 'Print state changes as they happen, until Ctrl-C' })
    .option('interval', {
      type: 'string',
      describe: '--follow, --wait: how often to look (ms, default 500; --wait 200)',
    })
    .option('before', { type: 'string', describe: 'prune: messages accepted before this date or age (e.g. 90d)' })
    .option('text-only', { type: 'boolean', describe: 'prune: keep the messages, remove only their text' });
}

type App = import('../../service/admin.js').Administration;

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
  if (entries.length === 0 && !options.json) {
    const filtered = states.length > 0 || smsto !== undefined || account !== undefined || since !== undefined;
    process.stdout.write(`no messages in ${options.db}${filtered ? ' match the filters' : ''}\n`);
    return;
  }
  process.stdout.write(options.json ? report.formatOutboxJson(entries) : report.formatOutboxTable(entries));
}

function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** --id --wait: exit 0 in a wanted state; 1, naming the state it saw, when it cannot or did not get there in time. */
async function wait(app: App, options: OutboxOptions): Promise<void> {
  if (options.action.kind !== 'wait') return;
  const { id, states, timeoutMs, intervalMs } = options.action;
  const { waitForState } = await import('../../service/outbox/wait.js');
  const stop = new AbortController();
  const stopListening = onStopRequest(() => stop.abort());
  const outcome = await waitForState(app.store, id, { states, timeoutMs, intervalMs, signal: stop.signal }).finally(
    stopListening,
  );
  const wanted = states.join(' or ');
  if (outcome.kind === 'missing') throw new CliError(`no message ${id} in ${options.db}`);
  if (outcome.kind === 'reached') {
    process.stdout.write(
      options.json ? `${JSON.stringify({ id, state: outcome.state })}\n` : `${id} ${outcome.state}\n`,
    );
    return;
  }
  if (outcome.kind === 'final')
    throw new CliError(`${id} is ${outcome.state}, a final state, not ${wanted}`, EXIT_FAILED);
  throw new CliError(
    `${id} is still ${outcome.state} after ${durationText(timeoutMs)} (waited for ${wanted})`,
    EXIT_FAILED,
  );
}

async function follow(app: App, options: OutboxOptions): Promise<void> {
  if (options.action.kind !== 'follow') return;
  const { followOutbox } = await import('../../service/outbox/follow.js');
  const { changeJson, formatChange } = await import('../../service/outbox/report.js');
  const { filters, id, intervalMs } = options.action;
  const stop = new AbortController();
  const stopListening = onStopRequest(() => stop.abort());
  process.stderr.write(`${pidLine('outbox --follow')}: following state changes in ${options.db} from now on\n`);
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
    stopListening();
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
  const { openAdministration } = await import('../../service/admin.js');
  const dbPath = requireExistingDb(options.db);
  let app: App;
  try {
    app = await openAdministration({ dbPath });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
    if (options.action.kind === 'follow') await follow(app, options);
    else if (options.action.kind === 'wait') await wait(app, options);
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
    [
      'smskit outbox --id SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D --wait delivered,undeliverable --timeout 60s',
      'wait until the message is delivered or undeliverable (exit 0), at most a minute (exit 1)',
    ],
    ['smskit outbox --follow --to +15551234567', 'state changes of messages to one number, as they happen'],
    ['smskit outbox --json --limit 10 --db service.sqlite', 'the ten newest as JSON, from another database'],
    ['smskit outbox prune --before 90d --text-only', 'remove the text of messages older than 90 days'],
  ],
  exitCodes: COMMAND_EXIT_CODES.outbox,
  run,
};
