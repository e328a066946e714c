/**
 * `smskit conformance` flags: the yargs definitions and the one function that validates them
 * into a frozen `ConformanceCliOptions` (unknown values and conflicts are refused with a
 * CONFORMANCE_OPTIONS error, which the CLI reports as a usage error, exit 2).
 */
import type { Argv } from 'yargs';
import {
  BOUND_RANGES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RUN_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  formatBytes,
} from './bounds.js';
import { ConformanceError } from './errors.js';
import { REPORTERS, type ReporterName } from './report/index.js';
import { LEVELS, type CaseBinding, type Level } from './types.js';

export const DEFAULT_WSDL = 'wsdl/serviceapi.wsdl';
/** Environment variables read when the matching flag is absent (keeps secrets out of argv). */
export const INPUT_ENV: Readonly<Record<'keyword' | 'email' | 'password', string>> = {
  keyword: 'SMSKIT_KEYWORD',
  email: 'SMSKIT_EMAIL',
  password: 'SMSKIT_PASSWORD',
};
const BINDINGS: readonly CaseBinding[] = ['soap11', 'soap12', 'http-get', 'http-post', 'wsdl'];
const INPUT_FLAGS = ['keyword', 'email', 'password', 'to', 'carrier'] as const;

export interface ReporterTarget {
  readonly name: ReporterName;
  /** File to write; undefined: standard output. */
  readonly out?: string;
}

export interface ConformanceCliOptions {
  /** Undefined: start the built-in service (the embedded default). */
  readonly target?: string;
  readonly wsdl: string;
  /** Inputs by key (flags) and by exact parameter name or path (--param). */
  readonly inputs: Readonly<Record<string, string>>;
  /** `--inputs FILE`: values per operation and SOAP headers, JSON or YAML. */
  readonly inputsFile?: string;
  /** Every result element required in an answer; undefined: on for the built-in contract only. */
  readonly requireResults?: boolean;
  /** Stop sending after this many failing cases. */
  readonly maxFailures?: number;
  /** Known failures: gate on new ones only. */
  readonly baseline?: string;
  /** Write the run's failures as a baseline to this file. */
  readonly writeBaseline?: string;
  readonly binding?: readonly CaseBinding[];
  readonly operation?: readonly string[];
  readonly run: readonly string[];
  readonly skip: readonly string[];
  readonly level: Level;
  readonly failOn: Level;
  readonly list: boolean;
  readonly concurrency: number;
  /** Whole-exchange time limit of each request, the WSDL fetch included. */
  readonly timeoutMs: number;
  readonly retries: number;
  /** Largest response body read (any exchange, the WSDL fetch included). */
  readonly maxResponseBytes: number;
  /** Time limit of the whole run. */
  readonly runTimeoutMs: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly reporters: readonly ReporterTarget[];
  readonly maxBodyBytes?: number;
}

export function conformanceBuilder(yargs: Argv): Argv {
  return yargs
    .option('target', {
      type: 'string',
      describe: 'Service endpoint URL (e.g. http://host:8080/serviceapi.asmx); default: start the built-in service',
    })
    .option('wsdl', {
      type: 'string',
      default: DEFAULT_WSDL,
      describe: 'The contract: a WSDL file, or a URL such as <target>?wsdl',
    })
    .option('inputs', {
      type: 'string',
      describe:
        'Values per operation and SOAP header, JSON or YAML (docs/conformance.md); the rest is generated from the schema',
    })
    .option('param', {
      type: 'string',
      array: true,
      describe:
        'A value for every operation with that parameter: <name or path>=<value> (typed by the schema; JSON for arrays), repeatable',
    })
    .option('keyword', { type: 'string', describe: `Alias of --param keyword=… (or $${INPUT_ENV.keyword})` })
    .option('email', { type: 'string', describe: `Alias of --param email=… (or $${INPUT_ENV.email})` })
    .option('password', {
      type: 'string',
      describe: `Alias of --param password=… (prefer $${INPUT_ENV.password}); redacted in all output`,
    })
    .option('to', { type: 'string', describe: 'Alias of --param to=… (the SMS recipient)' })
    .option('carrier', { type: 'string', describe: 'Alias of --param carrier=…' })
    .option('binding', { type: 'string', array: true, choices: BINDINGS, describe: 'Only these bindings (repeatable)' })
    .option('operation', { type: 'string', array: true, describe: 'Only these operations (repeatable)' })
    .option('run', {
      type: 'string',
      array: true,
      describe: 'Only cases whose id matches a glob (* within a segment, ** across)',
    })
    .option('skip', { type: 'string', array: true, describe: 'Skip cases whose id matches a glob' })
    .option('level', {
      type: 'string',
      choices: LEVELS,
      default: 'compat',
      describe: 'Run checks (and cases) of this level and stricter',
    })
    .option('fail-on', {
      type: 'string',
      choices: LEVELS,
      default: 'must',
      describe: 'Exit 1 when a failure is at or above this level',
    })
    .option('max-failures', {
      type: 'number',
      describe: 'Stop sending after this many failing cases (the rest: not run)',
    })
    .option('baseline', {
      type: 'string',
      describe: 'Known failures (from --write-baseline): reported, not failing the run; exit 1 on new ones only',
    })
    .option('write-baseline', {
      type: 'string',
      describe: "Write this run's failures (at or above --fail-on) as a baseline file; exit 0 when the run completed",
    })
    .option('require-results', {
      type: 'boolean',
      describe:
        'Every result element must be in an answer even where the schema makes it optional (default: on for the built-in contract)',
    })
    .option('list', { type: 'boolean', default: false, describe: 'Print the planned cases and send nothing' })
    .option('concurrency', { type: 'number', default: 16, describe: 'Requests in flight (keep-alive connections)' })
    .option('timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUT_MS,
      describe: 'Time limit of each exchange, connect to last body byte (ms)',
    })
    .option('retries', {
      type: 'number',
      default: 1,
      describe: 'Retries after a transport error (never after an HTTP answer)',
    })
    .option('max-response-bytes', {
      type: 'number',
      default: DEFAULT_MAX_RESPONSE_BYTES,
      describe: `Largest response body read; a larger one fails its case (default ${formatBytes(DEFAULT_MAX_RESPONSE_BYTES)})`,
    })
    .option('run-timeout', {
      type: 'number',
      default: DEFAULT_RUN_TIMEOUT_MS,
      describe: 'Time limit of the whole run (ms); cases it cuts off are reported as not run, exit 2',
    })
    .option('header', {
      alias: 'H',
      type: 'string',
      array: true,
      describe: 'Extra request header name:value (repeatable)',
    })
    .option('reporter', {
      type: 'string',
      array: true,
      choices: REPORTERS,
      default: ['pretty'],
      describe: 'pretty | json | junit | html (repeatable)',
    })
    .option('out', {
      type: 'string',
      array: true,
      describe: 'Output file of each reporter but pretty, in the order given',
    })
    .option('max-body-bytes', {
      type: 'number',
      describe: "The server's body limit for the over-size cases (default 4 MiB)",
    });
}

function refuse(message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', message);
}

function strings(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'string' ? v : refuse(`--${name} needs a text value`)));
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string): T {
  return allowed.includes(value as T) ? (value as T) : refuse(`--${name} must be one of ${allowed.join(', ')}`);
}

function positive(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    refuse(`--${name} must be an integer >= ${min}`);
  return value;
}

function bounded(value: unknown, name: string, range: { readonly min: number; readonly max: number }): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max)
    refuse(`--${name} must be an integer from ${range.min} to ${range.max}`);
  return value;
}

function pairs(list: readonly string[], separator: string, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(separator);
    if (at <= 0) refuse(`--${name} ${JSON.stringify(item)}: expected <name>${separator}<value>`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

function inputsFrom(
  args: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const flag of INPUT_FLAGS) {
    const value = args[flag] ?? (flag in INPUT_ENV ? env[INPUT_ENV[flag as keyof typeof INPUT_ENV]] : undefined);
    if (value !== undefined) inputs[flag] = String(value);
  }
  return { ...inputs, ...pairs(strings(args.param, 'param'), '=', 'param') };
}

function reportersFrom(args: Record<string, unknown>): ReporterTarget[] {
  const names = [...new Set(strings(args.reporter, 'reporter').map((n) => oneOf(n, REPORTERS, 'reporter')))];
  const outs = strings(args.out, 'out');
  const filed = names.filter((n) => n !== 'pretty');
  if (outs.length > filed.length)
    refuse(`--out given ${outs.length} time(s) for ${filed.length} json/junit reporter(s)`);
  const targets = names.map((name) =>
    name === 'pretty'
      ? { name }
      : { name, ...(outs[filed.indexOf(name)] === undefined ? {} : { out: outs[filed.indexOf(name)]! }) },
  );
  if (targets.filter((t) => !('out' in t)).length > 1)
    refuse('only one reporter can write to standard output: give the others --out <file>');
  return targets;
}

/** Validates parsed yargs arguments; `env` supplies the SMSKIT_* fallbacks. */
export function validateConformanceArgs(
  args: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>> = {},
): ConformanceCliOptions {
  const inputs = inputsFrom(args, env);
  const target = typeof args.target === 'string' ? args.target : undefined;
  if (target === undefined && INPUT_FLAGS.some((f) => args[f] !== undefined)) {
    refuse(
      '--keyword/--email/--password/--to/--carrier apply to a --target; the built-in service uses an account it creates',
    );
  }
  const operation = strings(args.operation, 'operation');
  const single = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return refuse(`--${name} needs a file name`);
    return value;
  };
  const inputsFile = single('inputs');
  const baseline = single('baseline');
  const writeBaseline = single('write-baseline');
  const binding = strings(args.binding, 'binding').map((b) => oneOf(b, BINDINGS, 'binding'));
  const options: ConformanceCliOptions = {
    wsdl: typeof args.wsdl === 'string' && args.wsdl !== '' ? args.wsdl : DEFAULT_WSDL,
    inputs,
    run: strings(args.run, 'run'),
    skip: strings(args.skip, 'skip'),
    level: oneOf(args.level ?? 'compat', LEVELS, 'level'),
    failOn: oneOf(args['fail-on'] ?? args.failOn ?? 'must', LEVELS, 'fail-on'),
    list: args.list === true,
    concurrency: positive(args.concurrency ?? 16, 'concurrency', 1),
    timeoutMs: bounded(args.timeout ?? DEFAULT_TIMEOUT_MS, 'timeout', BOUND_RANGES.timeoutMs),
    retries: positive(args.retries ?? 1, 'retries', 0),
    maxResponseBytes: bounded(
      args['max-response-bytes'] ?? DEFAULT_MAX_RESPONSE_BYTES,
      'max-response-bytes',
      BOUND_RANGES.maxResponseBytes,
    ),
    runTimeoutMs: bounded(args['run-timeout'] ?? DEFAULT_RUN_TIMEOUT_MS, 'run-timeout', BOUND_RANGES.runTimeoutMs),
    headers: pairs(strings(args.header, 'header'), ':', 'header'),
    reporters: reportersFrom({ reporter: args.reporter ?? ['pretty'], out: args.out }),
    ...(target === undefined ? {} : { target }),
    ...(binding.length === 0 ? {} : { binding }),
    ...(operation.length === 0 ? {} : { operation }),
    ...(args['max-body-bytes'] === undefined
      ? {}
      : { maxBodyBytes: positive(args['max-body-bytes'], 'max-body-bytes', 1024) }),
    ...(args['max-failures'] === undefined ? {} : { maxFailures: positive(args['max-failures'], 'max-failures', 1) }),
    ...(typeof args['require-results'] === 'boolean' ? { requireResults: args['require-results'] } : {}),
    ...(inputsFile === undefined ? {} : { inputsFile }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(writeBaseline === undefined ? {} : { writeBaseline }),
  };
  if (options.list && writeBaseline !== undefined) refuse('--write-baseline needs a run: it cannot go with --list');
  if (options.maxFailures !== undefined && writeBaseline !== undefined)
    refuse('--write-baseline records every failure: it cannot go with --max-failures, which stops the run early');
  return Object.freeze(options);
}
