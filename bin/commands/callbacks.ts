/**
 * `smskit callbacks`: the callback queue (docs/status.md) — events waiting to be posted to an
 * account's receiver (pending) and those given up on (dead), filtered by state, account and
 * message; `--retry` puts the matching dead ones back in the queue; `--follow` prints events as
 * they are queued, until Ctrl-C.
 */
import type { Argv } from 'yargs';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { UsageError } from '../cli-error.js';
import { requireExistingDb, withDbOption } from '../service-defaults.js';
import { onStopRequest, pidLine } from '../stop-signals.js';
import type { CliCommand } from './command.js';
import type { CallbackEventState, CallbackQuery, CallbackStore } from '../../service/store/callbacks.js';
import type { Administration } from '../../service/admin.js';

const EVENT_STATES: readonly CallbackEventState[] = ['pending', 'dead'];

interface CallbacksOptions {
  readonly db: string;
  readonly json: boolean;
  readonly filter: { readonly account?: string; readonly messageId?: string };
  readonly eventState: CallbackEventState | undefined;
  readonly limit: number;
  readonly action: 'list' | 'retry' | 'follow';
  readonly intervalMs: number;
}

function builder(yargs: Argv): Argv {
  return withDbOption(yargs)
    .option('state', { type: 'string', choices: EVENT_STATES, describe: 'Only pending or only dead events' })
    .option('account', { type: 'string', describe: 'Only events of this account (its e-mail address)' })
    .option('message', { type: 'string', describe: 'Only events of this message (SMS-…)' })
    .option('json', { type: 'boolean', default: false, describe: 'JSON (--follow: one JSON object per line)' })
    .option('limit', { type: 'number', describe: 'At most this many events, oldest first (default 1000)' })
    .option('retry', { type: 'boolean', describe: 'Put the dead events matching the filters back in the queue' })
    .option('follow', { type: 'boolean', describe: 'Print events as they are queued, until Ctrl-C' })
    .option('interval', { type: 'number', describe: '--follow: how often to look (ms, default 200)' });
}

function validate(args: Record<string, unknown>): CallbacksOptions {
  const text = (name: string): string | undefined =>
    typeof args[name] === 'string' ? (args[name] as string) : undefined;
  const state = text('state') as CallbackEventState | undefined;
  if (args.retry === true && args.follow === true) throw new UsageError('--retry and --follow do not go together');
  if (args.retry === true && state === 'pending')
    throw new UsageError('--retry re-queues dead events: drop --state pending');
  const limit = args.limit ?? 1000;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100_000)
    throw new UsageError('--limit must be an integer from 1 to 100000');
  const interval = args.interval ?? 200;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 10 || interval > 60_000)
    throw new UsageError('--interval must be a number of ms from 10 to 60000');
  const account = text('account');
  const messageId = text('message');
  return {
    db: String(args.db),
    json: args.json === true,
    filter: { ...(account === undefined ? {} : { account }), ...(messageId === undefined ? {} : { messageId }) },
    eventState: state,
    limit,
    action: args.retry === true ? 'retry' : args.follow === true ? 'follow' : 'list',
    intervalMs: interval,
  };
}

async function list(store: CallbackStore, options: CallbacksOptions): Promise<void> {
  const { formatCallbackTable, toCallbackEntry } = await import('../../service/callbacks/report.js');
  const query: CallbackQuery = {
    ...options.filter,
    ...(options.eventState === undefined ? {} : { eventState: options.eventState }),
    limit: options.limit,
  };
  const entries = (await store.listCallbacks(query)).map(toCallbackEntry);
  if (options.json) return void process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  if (entries.length === 0) {
    const filtered = options.eventState !== undefined || Object.keys(options.filter).length > 0;
    return void process.stdout.write(`no callback events in ${options.db}${filtered ? ' match the filters' : ''}\n`);
  }
  process.stdout.write(formatCallbackTable(entries));
}

async function retry(store: CallbackStore, options: CallbacksOptions): Promise<void> {
  const count = await store.retryCallbacks(options.filter, Date.now());
  const line = `re-queued ${count} dead callback event${count === 1 ? '' : 's'}`;
  process.stdout.write(options.json ? `${JSON.stringify({ requeued: count })}\n` : `${line}\n`);
}

async function follow(store: CallbackStore, lastSeq: number, options: CallbacksOptions): Promise<void> {
  const { formatCallbackLine, toCallbackEntry } = await import('../../service/callbacks/report.js');
  let after = lastSeq;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  const stopListening = onStopRequest(() => {
    stopped = true;
    wakeUp?.();
  });
  process.stderr.write(`${pidLine('callbacks --follow')}: following the callback queue in ${options.db} from now on\n`);
  try {
    while (!stopped) {
      const events = await store.listCallbacks({ ...options.filter, afterSeq: after, limit: 1000 });
      for (const event of events) {
        after = Math.max(after, event.seq);
        if (options.eventState !== undefined && event.eventState !== options.eventState) continue;
        const entry = toCallbackEntry(event);
        process.stdout.write(`${options.json ? JSON.stringify(entry) : formatCallbackLine(entry)}\n`);
      }
      if (events.length < 1000)
        await new Promise<void>((resolve) => {
          wakeUp = resolve;
          setTimeout(resolve, options.intervalMs);
        });
    }
  } finally {
    stopListening();
  }
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validate(args);
  const { openAdministration } = await import('../../service/admin.js');
  const dbPath = requireExistingDb(options.db);
  let app: Administration;
  try {
    app = await openAdministration({ dbPath });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
    const store = app.store.callbacks;
    if (options.action === 'retry') await retry(store, options);
    else if (options.action === 'follow') await follow(store, await app.store.lastHistorySeq(), options);
    else await list(store, options);
    return EXIT_OK;
  } finally {
    await app.close();
  }
}

export const callbacksCommand: CliCommand = {
  command: 'callbacks',
  describe:
    "The callback queue: events waiting for an account's receiver (pending) or given up on (dead); re-queue, follow",
  builder,
  examples: [
    ['smskit callbacks', 'a table of the queued events, oldest first'],
    ['smskit callbacks --state dead --account app@example.com', "one account's events the sender gave up on"],
    ['smskit callbacks --retry --account app@example.com', 'put them back in the queue (sent again at once)'],
    ['smskit callbacks --follow --json', 'events as they are queued, one JSON object per line, until Ctrl-C'],
  ],
  exitCodes: COMMAND_EXIT_CODES.callbacks,
  run,
};
