/**
 * `smskit record`: a recording reverse proxy in front of a live service (migrate/recorder.ts).
 * Clients are pointed at the proxy; it forwards every exchange to --upstream unchanged and
 * stores it under --out, secrets redacted by rule unless --keep-secrets. Runs until Ctrl-C or
 * SIGTERM (or --max-exchanges / --duration), then prints how many exchanges it stored.
 * The upstream may be HTTPS behind a company CA or a proxy: the TLS and proxy flags of
 * bin/network-flags.ts. Authentication flags are refused: clients send their own.
 */
import type { Argv } from 'yargs';
import { CliError, UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import {
  asFlagError,
  networkStdinReaders,
  resolveNetworkFlags,
  validateNetworkFlags,
  withNetworkFlags,
} from '../network-flags.js';
import { assertOneStdinReader } from '../secret-input.js';
import { onStopRequest } from '../stop-signals.js';
import { toolVersion } from '../tool-version.js';
import type { CliCommand } from './command.js';
import { hideAll } from './replay.js';

const MiB = 1024 * 1024;

export interface RecordOptions {
  readonly upstream: string;
  readonly port: number;
  readonly host: string;
  readonly out: string;
  readonly keepSecrets: boolean;
  readonly maxBodyBytes: number;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly timeoutMs: number;
  readonly maxExchanges: number | undefined;
  readonly durationS: number | undefined;
}

function integer(args: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

export function validateRecordOptions(args: Record<string, unknown>): RecordOptions {
  const upstream = args.upstream;
  if (typeof upstream !== 'string' || !/^https?:\/\/[^/]/i.test(upstream))
    throw new UsageError('--upstream needs the live service as an http(s) URL, e.g. https://old.corp/service.asmx');
  if (URL.parse(upstream) === null) throw new UsageError(`--upstream ${upstream} is not a URL`);
  const out = args.out;
  if (typeof out !== 'string' || out.trim() === '') throw new UsageError('--out needs the folder to record into');
  for (const flag of ['user', 'bearer', 'wsse-user'])
    if (args[flag] !== undefined && args[flag] !== false)
      throw new UsageError(`--${flag}: smskit record forwards the clients' own credentials and adds none`);
  return Object.freeze({
    upstream,
    port: integer(args, 'listen', 0, 65535) ?? 0,
    host: typeof args.host === 'string' && args.host !== '' ? args.host : '127.0.0.1',
    out,
    keepSecrets: args['keep-secrets'] === true,
    maxBodyBytes: integer(args, 'max-body-bytes', 1, 256 * MiB) ?? MiB,
    maxFileBytes: integer(args, 'max-file-bytes', 1024, 4096 * MiB) ?? 16 * MiB,
    maxFiles: integer(args, 'max-files', 1, 100_000) ?? 16,
    timeoutMs: integer(args, 'timeout', 1, 600_000) ?? 60_000,
    maxExchanges: integer(args, 'max-exchanges', 1, Number.MAX_SAFE_INTEGER),
    durationS: integer(args, 'duration', 1, 31 * 24 * 3600),
  });
}

/** Authentication flags: clients send their own through the recorder. */
const NOT_FOR_RECORD = [
  'user',
  'user-password-stdin',
  'bearer',
  'bearer-stdin',
  'wsse-user',
  'wsse-password-type',
  'wsse-password-stdin',
];

function builder(yargs: Argv): Argv {
  return hideAll(
    withNetworkFlags(
      yargs
        .option('upstream', { type: 'string', describe: 'The live service: its http(s) URL (e.g. its .asmx endpoint)' })
        .option('listen', { type: 'number', describe: 'Port to listen on (0: any free port, printed)', default: 0 })
        .option('host', { type: 'string', describe: 'Address to listen on', default: '127.0.0.1' })
        .option('out', { type: 'string', describe: 'Folder to record into (new or empty)' })
        .option('keep-secrets', {
          type: 'boolean',
          default: false,
          describe: 'Store passwords and HTTP authentication as sent (a private replay); default: redacted as ***',
        })
        .option('max-body-bytes', {
          type: 'number',
          describe: 'Bodies longer than this are stored cut, and not replayed (default 1 MiB)',
        })
        .option('max-file-bytes', {
          type: 'number',
          describe: 'Start a new exchanges file past this size (default 16 MiB)',
        })
        .option('max-files', { type: 'number', describe: 'Keep only the newest N exchanges files (default 16)' })
        .option('timeout', {
          type: 'number',
          describe: "Time limit for the upstream's connect, headers and body (ms, default 60000)",
        })
        .option('max-exchanges', { type: 'number', describe: 'Stop after storing this many exchanges' })
        .option('duration', { type: 'number', describe: 'Stop after this many seconds' }),
    ),
    NOT_FOR_RECORD,
  );
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateRecordOptions(args);
  const flags = validateNetworkFlags(args);
  assertOneStdinReader(networkStdinReaders(flags));
  const network = await resolveNetworkFlags(flags);
  const { startRecorder, RecordingError } = await import('../../migrate/index.js');
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  try {
    recorder = await startRecorder({
      upstream: options.upstream,
      out: options.out,
      host: options.host,
      port: options.port,
      ...(network.tls === undefined ? {} : { tls: network.tls }),
      ...(network.proxy === undefined ? {} : { proxy: network.proxy }),
      keepSecrets: options.keepSecrets,
      limits: { maxBodyBytes: options.maxBodyBytes, maxFileBytes: options.maxFileBytes, maxFiles: options.maxFiles },
      timeoutMs: options.timeoutMs,
      tool: `smskit ${toolVersion()}`,
      onExchange: (e) => {
        if (options.maxExchanges !== undefined && e.id >= options.maxExchanges) stop();
      },
      onWarning: (line) => void process.stderr.write(`smskit: ${line}\n`),
    });
  } catch (error) {
    if (error instanceof RecordingError) throw new CliError(error.message);
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE' || code === 'EACCES')
      throw new CliError(`cannot listen on ${options.host}:${options.port}: ${code}`);
    throw asFlagError(error);
  }
  const stopListening = onStopRequest(() => stop());
  process.stderr.write(
    `smskit record: ${recorder.url} -> ${options.upstream}; recording to ${options.out}${options.keepSecrets ? ' (secrets kept)' : ''}; pid ${process.pid}, Ctrl-C or kill ${process.pid} to stop\n`,
  );
  process.stdout.write(`${recorder.url}\n`);
  const timer = options.durationS === undefined ? undefined : setTimeout(stop, options.durationS * 1000);
  try {
    await stopped;
  } finally {
    stopListening();
    if (timer !== undefined) clearTimeout(timer);
    await recorder.close();
    // Stores run just after each answer; let the last one land before counting.
    await new Promise((resolve) => setImmediate(resolve));
  }
  process.stderr.write(`smskit record: ${recorder.recorded()} exchange(s) recorded in ${options.out}\n`);
  return EXIT_OK;
}

export const recordCommand: CliCommand = {
  command: 'record',
  describe: 'Record a live service: a reverse proxy that forwards every exchange and stores it (secrets redacted)',
  builder,
  examples: [
    [
      'smskit record --upstream http://old-host/service.asmx --listen 8080 --out rec/',
      'point clients at http://127.0.0.1:8080/service.asmx; Ctrl-C to stop',
    ],
    [
      'smskit record --upstream https://old.corp/service.asmx --ca corp-ca.pem --listen 8080 --out rec/ --duration 3600',
      'an HTTPS upstream behind a company CA, for one hour',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.record,
  run,
};
