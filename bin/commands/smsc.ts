/**
 * `smskit smsc`: a local SMSC simulator for tests of anything that speaks SMPP 3.4 (the SMS
 * service's SMPP route first). It runs until SIGINT, SIGTERM or SIGHUP; SIGUSR1 drops every connection.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Argv } from 'yargs';
import { CliError, UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { onStopRequest } from '../stop-signals.js';
import type { CliCommand } from './command.js';

export const SMSC_PASSWORD_ENV = 'SMSKIT_SMSC_PASSWORD';

export interface SmscCommandOptions {
  readonly host: string;
  readonly port: number;
  readonly systemId: string;
  readonly receiptDelayMs: number;
  readonly outcomes: string;
  readonly throttle: number;
  readonly dropAfter: number;
  readonly gsmPacking: 'unpacked' | 'packed';
  readonly log: string | undefined;
  readonly print: boolean;
  /** Numeric ids in this base in submit_sm_resp, and in receipts (undefined: the default hex ids). */
  readonly ids: 'hex' | 'decimal' | undefined;
  readonly receiptIds: 'hex' | 'decimal' | undefined;
}

function base(args: Record<string, unknown>, name: string): 'hex' | 'decimal' | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (value !== 'hex' && value !== 'decimal') throw new UsageError(`--${name} must be hex or decimal`);
  return value;
}

function integer(args: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw new UsageError(`--${name} must be an integer from 0 to ${max}`);
  }
  return value;
}

export function validateSmscOptions(args: Record<string, unknown>): SmscCommandOptions {
  const systemId = String(args['system-id'] ?? 'smskit');
  if (systemId === '' || systemId.length > 15)
    throw new UsageError('--system-id must be 1 to 15 characters (SMPP 3.4)');
  return Object.freeze({
    host: String(args.host ?? '127.0.0.1'),
    port: integer(args, 'port', 2775, 65535),
    systemId,
    receiptDelayMs: integer(args, 'receipt-delay', 1000, 86_400_000),
    outcomes: String(args.outcomes ?? 'delivered=100'),
    throttle: integer(args, 'throttle', 0, 1_000_000),
    dropAfter: integer(args, 'drop-after', 0, 2 ** 31),
    gsmPacking: args['gsm-packing'] === 'packed' ? 'packed' : 'unpacked',
    log: typeof args.log === 'string' ? args.log : undefined,
    print: args.print === true,
    ids: base(args, 'ids') ?? (args['receipt-ids'] === undefined ? undefined : 'hex'),
    receiptIds: base(args, 'receipt-ids'),
  });
}

function builder(yargs: Argv): Argv {
  return yargs
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
    .option('port', { type: 'number', default: 2775, describe: 'TCP port (0 picks a free one; the URL is printed)' })
    .option('system-id', {
      type: 'string',
      default: 'smskit',
      describe: `system_id clients must bind with (the password comes from ${SMSC_PASSWORD_ENV})`,
    })
    .option('receipt-delay', { type: 'number', default: 1000, describe: 'Milliseconds before each delivery receipt' })
    .option('outcomes', {
      type: 'string',
      default: 'delivered=100',
      describe: 'Receipt outcome weights, e.g. delivered=90,undeliverable=5,expired=5 (also rejected)',
    })
    .option('throttle', {
      type: 'number',
      default: 0,
      describe: 'Answer ESME_RTHROTTLED above this many submit_sm/s (0 = never)',
    })
    .option('drop-after', {
      type: 'number',
      default: 0,
      describe: 'Drop every connection on the N-th submit_sm, once (0 = never)',
    })
    .option('gsm-packing', {
      type: 'string',
      choices: ['unpacked', 'packed'],
      default: 'unpacked',
      describe: 'How clients send data_coding 0 text',
    })
    .option('ids', {
      type: 'string',
      choices: ['hex', 'decimal'],
      describe: 'Numeric message ids in submit_sm_resp, in this base (default: hex ids with a random prefix)',
    })
    .option('receipt-ids', {
      type: 'string',
      choices: ['hex', 'decimal'],
      describe:
        'The base receipts write ids in (default: as --ids); hex ids receipted in decimal mimic SMSCs that mix them',
    })
    .option('log', { type: 'string', describe: 'Append each received message, decoded, as a JSON line to FILE' })
    .option('print', {
      type: 'boolean',
      default: false,
      describe: 'Print each received message, decoded, as a JSON line',
    });
}

function waitForStop(onDrop: () => void): Promise<string> {
  return new Promise((resolve) => {
    process.on('SIGUSR1', onDrop);
    const dispose = onStopRequest((reason) => {
      dispose();
      process.off('SIGUSR1', onDrop);
      resolve(reason);
    });
  });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateSmscOptions(args);
  const password = process.env[SMSC_PASSWORD_ENV];
  if (password === undefined || password === '') {
    throw new UsageError(`set ${SMSC_PASSWORD_ENV} to the password clients must bind with`);
  }
  const { parseOutcomeMix, startSmsc } = await import('../../service/delivery/simulator/index.js');
  let outcomes: ReturnType<typeof parseOutcomeMix>;
  try {
    outcomes = parseOutcomeMix(options.outcomes);
  } catch (error) {
    throw new UsageError(`--outcomes: ${(error as Error).message}`);
  }
  const event = (line: string): void => void process.stderr.write(`smskit smsc: ${line}\n`);
  const log: WriteStream | undefined =
    options.log === undefined ? undefined : createWriteStream(options.log, { flags: 'a' });
  log?.on('error', (error) => event(`--log ${options.log}: ${error.message}`));
  const writeMessage = (line: string): void => {
    log?.write(line);
    if (options.print) process.stdout.write(line);
  };
  const smsc = await startSmsc({
    host: options.host,
    port: options.port,
    systemId: options.systemId,
    password,
    receiptDelayMs: options.receiptDelayMs,
    outcomes,
    throttlePerSecond: options.throttle,
    dropAfter: options.dropAfter,
    gsmPacking: options.gsmPacking,
    keep: 0,
    onEvent: event,
    ...(options.ids === undefined ? {} : { ids: options.ids }),
    ...(options.receiptIds === undefined ? {} : { receiptIds: options.receiptIds }),
    ...(log === undefined && !options.print
      ? {}
      : { onMessage: (message) => writeMessage(`${JSON.stringify(message)}\n`) }),
  }).catch((error: Error) => {
    throw new CliError(`cannot listen on ${options.host}:${options.port}: ${error.message}`);
  });
  const stopRequest = waitForStop(() => {
    event('SIGUSR1: dropping every connection');
    smsc.dropConnections();
  });
  process.stdout.write(
    `SMSC simulator listening on ${smsc.url} (system_id ${options.systemId}, password from ${SMSC_PASSWORD_ENV}); ` +
      `pid ${process.pid}: kill -USR1 ${process.pid} drops every connection, Ctrl-C or kill ${process.pid} stops\n`,
  );
  const signal = await stopRequest;
  await smsc.close();
  if (log !== undefined) await new Promise<void>((resolve) => log.end(resolve));
  const { stats } = smsc;
  event(
    `${signal}: stopped after ${stats.submits} submit_sm (${stats.throttled} throttled), ` +
      `${stats.receiptsAcknowledged}/${stats.receiptsSent} receipts acknowledged, ${stats.refusedBinds} binds refused`,
  );
  return EXIT_OK;
}

export const smscCommand: CliCommand = {
  command: 'smsc',
  describe:
    'Run a local SMSC simulator (SMPP 3.4) for tests: binds, submit_sm ids, delivery receipts, throttling, drops',
  builder,
  examples: [
    [
      'SMSKIT_SMSC_PASSWORD=secret smskit smsc --port 0 --print',
      'a free port, each received message printed as a JSON line',
    ],
    [
      'SMSKIT_SMSC_PASSWORD=secret smskit smsc --receipt-delay 5000 --outcomes delivered=90,undeliverable=5,expired=5 --throttle 100',
      'receipts after 5 s with a mix of outcomes, ESME_RTHROTTLED above 100 submit_sm/s',
    ],
    [
      'SMSKIT_SMSC_PASSWORD=secret smskit smsc --ids hex --receipt-ids decimal',
      'ids in hex in submit_sm_resp and in decimal in receipts (a route needs receiptIds: hex-to-decimal)',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.smsc,
  run,
};
