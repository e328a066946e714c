/**
 * `smskit replay DIR --target URL`: sends the requests `smskit record` stored to a new server
 * and reports where its answers differ structurally from the recorded ones (or, with
 * --reference, from a second live server's, noise learned by asking it twice): migrate/replay.ts.
 * Exit codes as conformance's: 0 no (new) difference, 1 differences, 2 not judged, 130 Ctrl-C.
 *
 * Safety is explicit: a replay sends requests that may change data, so it needs --allow-writes
 * or an --operations allow-list; recorded credentials stay on the recorded host unless
 * --send-credentials; --concurrency and --rate bound the load on the target.
 */
import { writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { REPORTERS, type ReporterName } from '../../report/names.js';
import { CliError, UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { interruptOnSigint } from '../interrupt.js';
import {
  asFlagError,
  networkStdinReaders,
  resolveNetworkFlags,
  validateNetworkFlags,
  withNetworkFlags,
} from '../network-flags.js';
import { assertOneStdinReader } from '../secret-input.js';
import { toolVersion } from '../tool-version.js';
import type { CliCommand } from './command.js';

export interface ReplayCommandOptions {
  readonly dir: string;
  readonly target: string;
  readonly reference: string | undefined;
  readonly allowWrites: boolean;
  readonly operations: readonly string[];
  readonly sendCredentials: boolean;
  readonly concurrency: number;
  readonly rate: number;
  readonly timeoutMs: number;
  readonly ignore: readonly string[];
  readonly reporters: readonly { readonly name: ReporterName; readonly out: string | undefined }[];
  readonly baseline: string | undefined;
  readonly writeBaseline: string | undefined;
  readonly wsdl: string | undefined;
}

/** A repeatable or comma-separated flag's values. */
export const strings = (value: unknown): string[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String).flatMap((v) => v.split(','));

export function url(args: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = args[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !/^https?:\/\/[^/]/i.test(value) || URL.parse(value) === null)
    throw new UsageError(`--${name} needs the server's http(s) URL, e.g. http://127.0.0.1:8080`);
  return value;
}

export function bounded(
  args: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = args[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new UsageError(`--${name} must be a number from ${min} to ${max}`);
  return value;
}

/**
 * Each reporter's text to its file or to standard output, and the one-line summary on standard
 * error unless the pretty report already went to standard output.
 */
export function writeReports<R>(
  reporters: ReplayCommandOptions['reporters'],
  report: R,
  render: (name: ReporterName, report: R) => string,
  summaryLine: (report: R) => string,
): void {
  for (const reporter of reporters) {
    const text = render(reporter.name, report);
    if (reporter.out === undefined) process.stdout.write(text);
    else writeFileSync(reporter.out, text);
  }
  if (!reporters.some((r) => r.name === 'pretty' && r.out === undefined))
    process.stderr.write(`${summaryLine(report)}\n`);
}

/** `--reporter` and `--out`, paired: at most one reporter writes to standard output. */
export function reportersOf(args: Record<string, unknown>): ReplayCommandOptions['reporters'] {
  const names = [...new Set(strings(args.reporter ?? 'pretty'))];
  const bad = names.filter((n) => !(REPORTERS as readonly string[]).includes(n));
  if (bad.length > 0) throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')} (not ${bad.join(', ')})`);
  const outs = strings(args.out);
  const filed = names.filter((n) => n !== 'pretty');
  if (outs.length > filed.length)
    throw new UsageError(`--out given ${outs.length} time(s) for ${filed.length} file reporter(s) (json, junit, html)`);
  const reporters = names.map((name) => ({
    name: name as ReporterName,
    out: name === 'pretty' ? undefined : outs[filed.indexOf(name)],
  }));
  if (reporters.filter((r) => r.out === undefined).length > 1)
    throw new UsageError('only one reporter can write to standard output: give the others --out <file>');
  return reporters;
}

/**
 * What a command that sends requests to someone else's server may send: every operation only
 * with --allow-writes, else just the --operations named safe, never both. `sends` opens the
 * refusal: what the command sends, up to "may change data".
 */
export function sendableOperations(
  args: Record<string, unknown>,
  sends: string,
): { allowWrites: boolean; operations: string[] } {
  const operations = strings(args.operations).filter((o) => o !== '');
  const allowWrites = args['allow-writes'] === true;
  if (!allowWrites && operations.length === 0)
    throw new UsageError(
      `${sends} may change data on the target: give --allow-writes, or --operations with the operations that are safe to send`,
    );
  if (allowWrites && operations.length > 0)
    throw new UsageError('--allow-writes and --operations cannot be used together');
  return { allowWrites, operations };
}

export function validateReplayOptions(args: Record<string, unknown>): ReplayCommandOptions {
  const dir = args.dir;
  if (typeof dir !== 'string' || dir.trim() === '')
    throw new UsageError('replay needs the recording folder: smskit replay DIR --target URL');
  const { allowWrites, operations } = sendableOperations(args, 'a replay sends recorded requests, which');
  if (args['wsse-user'] !== undefined)
    throw new UsageError('--wsse-user: replay sends the recorded SOAP headers as they are');
  const baseline = args.baseline;
  const writeBaseline = args['write-baseline'];
  const wsdl = args.wsdl;
  for (const [name, value] of [
    ['baseline', baseline],
    ['write-baseline', writeBaseline],
    ['wsdl', wsdl],
  ] as const)
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new UsageError(`--${name} needs a file`);
  return Object.freeze({
    dir,
    target: url(args, 'target', true)!,
    reference: url(args, 'reference', false),
    allowWrites,
    operations,
    sendCredentials: args['send-credentials'] === true,
    concurrency: bounded(args, 'concurrency', 1, 64, 4),
    rate: bounded(args, 'rate', 0, 10_000, 50),
    timeoutMs: bounded(args, 'timeout', 1, 600_000, 30_000),
    ignore: strings(args.ignore).filter((g) => g !== ''),
    reporters: reportersOf(args),
    baseline: baseline as string | undefined,
    writeBaseline: writeBaseline as string | undefined,
    wsdl: wsdl as string | undefined,
  });
}

/** WS-Security flags are shared by every command that calls a service; replay sends recorded headers as they are. */
const NOT_FOR_REPLAY = ['wsse-user', 'wsse-password-type', 'wsse-password-stdin'];

/** Leaves flags out of the help (they stay refused with one line if given). */
export function hideAll(yargs: Argv, flags: readonly string[]): Argv {
  return flags.reduce((y, flag) => y.hide(flag), yargs);
}

function builder(yargs: Argv): Argv {
  return hideAll(withNetworkFlags(withReportFlags(withSafetyFlags(withTargetFlags(yargs)))), NOT_FOR_REPLAY);
}

/** What is replayed, and against what: the recording, the new server, a reference server. */
function withTargetFlags(yargs: Argv): Argv {
  return yargs
    .positional('dir', { type: 'string', describe: 'The recording folder (smskit record --out)' })
    .option('target', {
      type: 'string',
      describe: 'The new server: its http(s) origin, e.g. http://127.0.0.1:8080',
    })
    .option('reference', {
      type: 'string',
      describe: 'Compare with this live server instead of the recording (each request sent to it twice to learn noise)',
    });
}

/** What may be sent and how fast: writes, an operations allow-list, credentials, load and time limits. */
function withSafetyFlags(yargs: Argv): Argv {
  return yargs
    .option('allow-writes', {
      type: 'boolean',
      default: false,
      describe: 'Send every recorded operation, side effects and all',
    })
    .option('operations', {
      type: 'string',
      array: true,
      describe: 'Send only these operations (safe to repeat); repeatable or comma-separated',
    })
    .option('send-credentials', {
      type: 'boolean',
      default: false,
      describe: 'Send credentials kept in the recording (--keep-secrets) to a host other than the recorded one',
    })
    .option('concurrency', { type: 'number', default: 4, describe: 'Exchanges in flight at once (1-64)' })
    .option('rate', { type: 'number', default: 50, describe: 'Requests started per second at most (0: no limit)' })
    .option('timeout', { type: 'number', default: 30_000, describe: 'Time limit of each request (ms)' });
}

/** How answers are compared and reported: ignored paths, reporters, the WSDL, a baseline. */
function withReportFlags(yargs: Argv): Argv {
  return yargs
    .option('ignore', {
      type: 'string',
      array: true,
      describe: 'Leave these answer paths out (globs: **/Timestamp, status); repeatable',
    })
    .option('reporter', {
      type: 'string',
      array: true,
      choices: REPORTERS,
      describe: 'pretty (default), json, junit, html; repeatable',
    })
    .option('out', {
      type: 'string',
      array: true,
      describe: 'Output file of each reporter but pretty, in the order given',
    })
    .option('wsdl', {
      type: 'string',
      describe: "The service's WSDL file, for canonical parsing by declared type (default: the recorded ?wsdl, if any)",
    })
    .option('baseline', { type: 'string', describe: 'Differences listed in this file do not fail the run' })
    .option('write-baseline', {
      type: 'string',
      describe: "Write this run's differences to a baseline file and exit 0",
    });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateReplayOptions(args);
  const flags = validateNetworkFlags(args);
  assertOneStdinReader(networkStdinReaders(flags));
  const network = await resolveNetworkFlags(flags);
  const migrate = await import('../../migrate/index.js');
  const { authorizationValue } = await import('../../runtime/network/auth.js');
  let recording: ReturnType<typeof migrate.readRecording>;
  let baselineKeys: Set<string> | undefined;
  let descriptor: Parameters<typeof migrate.replay>[0]['descriptor'];
  try {
    recording = migrate.readRecording(options.dir);
    baselineKeys = options.baseline === undefined ? undefined : migrate.readReplayBaseline(options.baseline);
    descriptor =
      options.wsdl === undefined ? undefined : { descriptor: migrate.readWsdlFile(options.wsdl), from: options.wsdl };
  } catch (error) {
    if (error instanceof migrate.RecordingError) throw new CliError(error.message);
    throw error;
  }
  const interrupt = interruptOnSigint('finishing the requests in flight');
  let report: Awaited<ReturnType<typeof migrate.replay>>;
  try {
    report = await migrate.replay({
      recording,
      recordingDir: options.dir,
      target: options.target,
      reference: options.reference,
      network: {
        tls: network.tls,
        proxy: network.proxy,
        authorization: network.auth === undefined ? undefined : authorizationValue(network.auth),
        timeoutMs: options.timeoutMs,
      },
      allowWrites: options.allowWrites,
      operations: options.operations,
      sendCredentials: options.sendCredentials,
      concurrency: options.concurrency,
      ratePerSecond: options.rate,
      ignore: options.ignore,
      descriptor,
      baseline: baselineKeys === undefined ? undefined : { file: options.baseline!, keys: baselineKeys },
      signal: interrupt.signal,
      tool: `smskit ${toolVersion()}`,
    });
  } catch (error) {
    throw asFlagError(error);
  } finally {
    interrupt.dispose();
  }
  const written = writeBaseline(options, report, migrate);
  writeReports(options.reporters, written, migrate.renderReplayReport, migrate.summaryLine);
  return exitCodeOf(options, written);
}

type Migrate = typeof import('../../migrate/index.js');
type Report = Awaited<ReturnType<Migrate['replay']>>;

/** `--write-baseline` after a run that was not interrupted: the file, and the report saying so. */
function writeBaseline(options: ReplayCommandOptions, report: Report, migrate: Migrate): Report {
  if (options.writeBaseline === undefined || report.summary.interrupted) return report;
  migrate.writeReplayBaseline(options.writeBaseline, report.groups);
  return { ...report, summary: { ...report.summary, baselineWritten: options.writeBaseline } };
}

function exitCodeOf(options: ReplayCommandOptions, report: Report): number {
  if (report.summary.interrupted) return EXIT_INTERRUPTED;
  if (options.writeBaseline !== undefined) return EXIT_OK;
  if (report.summary.unreachable || report.summary.replayed === 0 || report.summary.notJudged > 0) return EXIT_USAGE;
  return report.summary.gating > 0 ? EXIT_FAILED : EXIT_OK;
}

export const replayCommand: CliCommand = {
  command: 'replay <dir>',
  describe:
    "Replay a recording against a new server and report where its answers differ structurally (a migration's gate)",
  builder,
  examples: [
    [
      'smskit replay rec/ --target http://127.0.0.1:8080 --allow-writes',
      'every recorded request; differences from the recorded answers',
    ],
    [
      'smskit replay rec/ --target http://new:8080 --reference http://old:8080 --operations GetStatus,ListMessages',
      'only two read operations, compared with the old server live (ids and timestamps learned as noise)',
    ],
    [
      'smskit replay rec/ --target $NEW --allow-writes --baseline accepted.json --reporter pretty --reporter junit --out replay.xml',
      'a CI gate: exit 1 on new differences only',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.replay,
  run,
};
