/**
 * `smskit fuzz --wsdl FILE|URL --target URL`: property-based testing of a SOAP service from its
 * WSDL (fuzz/): inputs generated from the contract, valid and mutated, sent on every binding;
 * each failure shrunk and printed with the seed and path that replay it. The process side lives
 * here: flags, the contract read through the contract layer, Ctrl-C (the first stops the run and
 * writes the reports of what ran, exit 130; a second exits at once), report files and the exit code.
 *
 * Safety is explicit, as for replay: fuzzing sends requests that may change data, so it needs
 * --allow-writes or an --operations allow-list; --concurrency and --rate bound the load.
 */
import type { Argv } from 'yargs';
import { REPORTERS } from '../../report/names.js';
import { CliError, UsageError } from '../cli-error.js';
import { readContractWith, validateImportHosts, withContractFlags } from '../contract-flags.js';
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
import { bounded, hideAll, reportersOf, sendableOperations, strings, url, writeReports } from './replay.js';

const BINDINGS = ['soap11', 'soap12', 'http-get', 'http-post'] as const;
const MODES = ['valid', 'invalid'] as const;

export interface FuzzCommandOptions {
  readonly wsdl: string;
  readonly target: string;
  readonly reference: string | undefined;
  readonly seed: number | undefined;
  readonly path: string | undefined;
  readonly runs: number | undefined;
  readonly budgetMs: number | undefined;
  readonly allowWrites: boolean;
  readonly operations: readonly string[];
  readonly bindings: readonly (typeof BINDINGS)[number][] | undefined;
  readonly modes: readonly (typeof MODES)[number][] | undefined;
  readonly concurrency: number;
  readonly rate: number;
  readonly timeoutMs: number;
  readonly ignore: readonly string[];
  readonly reporters: ReturnType<typeof reportersOf>;
  readonly baseline: string | undefined;
  readonly writeBaseline: string | undefined;
}

/** `60s`, `2m`, `1h`, `500ms`, or a number of seconds, as milliseconds. */
export function durationMs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (m === null) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  const ms = Math.round(Number(m[1]) * unit);
  return ms > 0 ? ms : undefined;
}

function choices<T extends string>(
  args: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T[] | undefined {
  const given = strings(args[name]).filter((v) => v !== '');
  if (given.length === 0) return undefined;
  const bad = given.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length > 0) throw new UsageError(`--${name} must be among ${allowed.join(', ')} (not ${bad.join(', ')})`);
  return given as T[];
}

function optionalFile(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value !== undefined && (typeof value !== 'string' || value === ''))
    throw new UsageError(`--${name} needs a file`);
  return value as string | undefined;
}

function seedOf(args: Record<string, unknown>): number | undefined {
  const seed = args.seed;
  if (seed === undefined) return undefined;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 31)
    throw new UsageError('--seed must be a whole number (a 32-bit integer, as a report prints it)');
  return seed;
}

function budgetOf(args: Record<string, unknown>): number | undefined {
  if (args.budget === undefined) return undefined;
  const ms = durationMs(String(args.budget));
  if (ms === undefined) throw new UsageError('--budget must be a duration such as 60s, 2m or 500ms');
  return ms;
}

export function validateFuzzArgs(args: Record<string, unknown>): FuzzCommandOptions {
  const wsdl = args.wsdl;
  if (typeof wsdl !== 'string' || wsdl.trim() === '')
    throw new UsageError('fuzz needs the contract: smskit fuzz --wsdl FILE|URL --target URL');
  const { allowWrites, operations } = sendableOperations(args, 'fuzzing sends requests that');
  if (args['wsse-user'] !== undefined)
    throw new UsageError('--wsse-user: fuzz sends the SOAP headers the contract declares');
  const path = args.path;
  if (path !== undefined && (typeof path !== 'string' || args.seed === undefined))
    throw new UsageError("--path needs the finding's path as printed, and its --seed");
  return Object.freeze({
    wsdl,
    target: url(args, 'target', true)!,
    reference: url(args, 'reference', false),
    seed: seedOf(args),
    path: path as string | undefined,
    runs: args.runs === undefined ? undefined : bounded(args, 'runs', 1, 100_000_000, 1),
    budgetMs: budgetOf(args),
    allowWrites,
    operations,
    bindings: choices(args, 'bindings', BINDINGS),
    modes: choices(args, 'mode', MODES),
    concurrency: bounded(args, 'concurrency', 1, 64, 4),
    rate: bounded(args, 'rate', 0, 10_000, 50),
    timeoutMs: bounded(args, 'timeout', 1, 600_000, 10_000),
    ignore: strings(args.ignore).filter((g) => g !== ''),
    reporters: reportersOf(args),
    baseline: optionalFile(args, 'baseline'),
    writeBaseline: optionalFile(args, 'write-baseline'),
  });
}

/** WS-Security flags are shared by every command that calls a service; fuzz sends the declared headers. */
const NOT_FOR_FUZZ = ['wsse-user', 'wsse-password-type', 'wsse-password-stdin'];

function builder(yargs: Argv): Argv {
  return hideAll(
    withNetworkFlags(withContractFlags(withReportFlags(withRunFlags(withTargetFlags(yargs))))),
    NOT_FOR_FUZZ,
  );
}

function withTargetFlags(yargs: Argv): Argv {
  return yargs
    .option('wsdl', { type: 'string', describe: 'The contract: a WSDL file or URL' })
    .option('target', { type: 'string', describe: 'The service endpoint, e.g. http://127.0.0.1:8080/Service.asmx' })
    .option('reference', {
      type: 'string',
      describe: "Compare valid inputs' answers with this server's (each input sent to it twice to learn noise)",
    });
}

function withRunFlags(yargs: Argv): Argv {
  return yargs
    .option('seed', { type: 'number', describe: 'The seed (default: from the clock; every report prints it)' })
    .option('path', { type: 'string', describe: 'Replay one finding: its path as printed, with its --seed' })
    .option('runs', { type: 'number', describe: 'Inputs in all, spread over the operations and bindings' })
    .option('budget', { type: 'string', describe: 'Time for the whole run: 60s, 5m (default 60s without --runs)' })
    .option('allow-writes', { type: 'boolean', default: false, describe: 'Send every operation, side effects and all' })
    .option('operations', {
      type: 'string',
      array: true,
      describe: 'Send only these operations; repeatable or comma-separated',
    })
    .option('bindings', {
      type: 'string',
      array: true,
      describe: 'Only these bindings: soap11, soap12, http-get, http-post',
    })
    .option('mode', { type: 'string', array: true, describe: 'valid, invalid (default both)' })
    .option('concurrency', { type: 'number', default: 4, describe: 'Properties checked at once (1-64)' })
    .option('rate', { type: 'number', default: 50, describe: 'Requests started per second at most (0: no limit)' })
    .option('timeout', {
      type: 'number',
      default: 10_000,
      describe: 'Time limit of each request (ms): a later answer is a finding',
    });
}

function withReportFlags(yargs: Argv): Argv {
  return yargs
    .option('ignore', {
      type: 'string',
      array: true,
      describe: 'With --reference: leave these answer paths out (globs); repeatable',
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
    .option('baseline', { type: 'string', describe: 'Findings listed in this file do not fail the run' })
    .option('write-baseline', { type: 'string', describe: "Write this run's findings to a baseline file and exit 0" });
}

type Fuzz = typeof import('../../fuzz/index.js');
type Report = Awaited<ReturnType<Fuzz['runFuzz']>>;

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateFuzzArgs(args);
  const flags = validateNetworkFlags(args);
  const allowImportHosts = validateImportHosts(args);
  assertOneStdinReader(networkStdinReaders(flags));
  const network = await resolveNetworkFlags(flags);
  const contract = await readContractWith(options.wsdl, network, allowImportHosts, { timeoutMs: options.timeoutMs });
  const fuzz = await import('../../fuzz/index.js');
  let baselineKeys: Set<string> | undefined;
  try {
    baselineKeys = options.baseline === undefined ? undefined : fuzz.readFuzzBaseline(options.baseline);
  } catch (error) {
    if (error instanceof fuzz.FuzzError) throw new CliError(error.message);
    throw error;
  }
  const interrupt = interruptOnSigint('finishing the requests in flight');
  let report: Report;
  try {
    report = await fuzz.runFuzz({
      wsdlModel: contract.model,
      wsdlSource: options.wsdl,
      target: options.target,
      reference: options.reference,
      seed: options.seed,
      path: options.path,
      runs: options.runs,
      budgetMs: options.budgetMs,
      concurrency: options.concurrency,
      ratePerSecond: options.rate,
      ...(options.allowWrites ? { allowWrites: true } : { operations: options.operations }),
      bindings: options.bindings,
      modes: options.modes,
      timeoutMs: options.timeoutMs,
      ignore: options.ignore,
      baseline: baselineKeys === undefined ? undefined : { file: options.baseline!, keys: baselineKeys },
      network: {
        ...(network.tls === undefined ? {} : { tls: network.tls }),
        ...(network.proxy === undefined ? {} : { proxy: network.proxy }),
        ...(network.auth === undefined ? {} : { auth: network.auth }),
      },
      signal: interrupt.signal,
      tool: `smskit ${toolVersion()}`,
    });
  } catch (error) {
    if (error instanceof fuzz.FuzzError) throw new CliError(error.message);
    throw asFlagError(error);
  } finally {
    interrupt.dispose();
  }
  writeReports(options.reporters, report, fuzz.renderFuzzReport, fuzz.summaryLine);
  return exitCodeOf(options, report, fuzz);
}

function exitCodeOf(options: FuzzCommandOptions, report: Report, fuzz: Fuzz): number {
  if (report.summary.interrupted) return EXIT_INTERRUPTED;
  if (options.writeBaseline !== undefined) {
    fuzz.writeFuzzBaseline(options.writeBaseline, report.findings);
    process.stderr.write(`smskit fuzz: ${report.findings.length} finding(s) written to ${options.writeBaseline}\n`);
    return EXIT_OK;
  }
  if (report.summary.unreachable !== undefined) return EXIT_USAGE;
  return report.summary.gating > 0 ? EXIT_FAILED : EXIT_OK;
}

export const fuzzCommand: CliCommand = {
  command: 'fuzz',
  describe: 'Property-based testing of a SOAP service from its WSDL: generated inputs, shrunk failures, replay by seed',
  builder,
  examples: [
    [
      'smskit fuzz --wsdl Service.wsdl --target http://127.0.0.1:8080/Service.asmx --operations GetStatus --budget 60s',
      'one read-only operation on every binding for a minute',
    ],
    [
      'smskit fuzz --wsdl Service.wsdl --target $NEW --reference $OLD --allow-writes --runs 5000 --ignore "**/Timestamp"',
      "a new server's answers compared with the old one's, input by input",
    ],
    [
      "smskit fuzz --wsdl Service.wsdl --target $NEW --allow-writes --seed 1234 --path 'Add/soap11/valid:4:1:0'",
      'replay one finding exactly, as its report printed it',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.fuzz,
  run,
};
