/**
 * `smskit diff OLD NEW`: compares two versions of a WSDL (files or http(s) URLs) and reports
 * what the change breaks for deployed clients and servers, per binding. Exit 0 when nothing at
 * or above --fail-on changed, 1 when something did, 2 when an input cannot be read.
 */
import { writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { DiffReporterName } from '../../contract/diff/index.js';
import { UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import type { CliCommand } from './command.js';
import { readContractsWithFlags, withContractFlags } from '../contract-flags.js';
import { withNetworkFlags } from '../network-flags.js';

const FAIL_ON = ['breaking', 'client', 'server', 'any'] as const;

export interface DiffCommandOptions {
  readonly old: string;
  readonly new: string;
  /** The report on stdout; junit goes to the --junit file only. */
  readonly format: Exclude<DiffReporterName, 'junit'>;
  readonly junit: string | undefined;
  readonly failOn: (typeof FAIL_ON)[number];
  readonly ignoreDocs: boolean;
  readonly timeoutMs: number;
}

/** The one place diff's flags are validated; the result is frozen and never mutated. */
export function validateDiffOptions(args: Record<string, unknown>): DiffCommandOptions {
  const text = (name: string): string => {
    const value = args[name];
    if (typeof value !== 'string' || value.trim() === '')
      throw new UsageError(`${name} needs a WSDL file or an http(s) URL`);
    return value;
  };
  if (args.json === true && args.markdown === true)
    throw new UsageError('--json and --markdown cannot be combined: choose one format for stdout');
  const failOn = args['fail-on'] ?? 'breaking';
  if (!FAIL_ON.includes(failOn as (typeof FAIL_ON)[number]))
    throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  const junit = args.junit;
  if (junit !== undefined && (typeof junit !== 'string' || junit.trim() === ''))
    throw new UsageError('--junit needs a file name');
  const timeout = args.timeout ?? 10_000;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 600_000)
    throw new UsageError('--timeout must be a number of milliseconds between 1 and 600000');
  return Object.freeze({
    old: text('old'),
    new: text('new'),
    format: args.json === true ? 'json' : args.markdown === true ? 'markdown' : 'pretty',
    junit: junit as string | undefined,
    failOn: failOn as DiffCommandOptions['failOn'],
    ignoreDocs: args['ignore-docs'] === true,
    timeoutMs: timeout,
  });
}

function builder(yargs: Argv): Argv {
  return withContractFlags(withNetworkFlags(yargs))
    .positional('old', {
      type: 'string',
      describe: "The WSDL deployed peers were built from: a file or an http(s) URL (e.g. a server's ?wsdl)",
    })
    .positional('new', { type: 'string', describe: 'The changed WSDL: a file or an http(s) URL' })
    .option('fail-on', {
      type: 'string',
      choices: FAIL_ON,
      default: 'breaking',
      describe: 'Exit 1 on: breaking (clients or servers), client, server, any change',
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print the report as JSON' })
    .option('markdown', {
      type: 'boolean',
      default: false,
      describe: 'Print the report as Markdown (a pull-request comment)',
    })
    .option('junit', { type: 'string', describe: 'Also write a JUnit XML report to this file' })
    .option('ignore-docs', {
      type: 'boolean',
      default: false,
      describe: 'Leave documentation-only and formatting-only changes out',
    })
    .option('timeout', {
      type: 'number',
      default: 10_000,
      describe: 'Time limit for fetching a URL (ms); a fetched WSDL may be at most 16 MiB',
    });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateDiffOptions(args);
  const diff = await import('../../contract/diff/index.js');
  const [oldContract, newContract] = await readContractsWithFlags([options.old, options.new], args, {
    timeoutMs: options.timeoutMs,
  });
  const old = diff.sideFromModel(options.old, oldContract!.model);
  const now = diff.sideFromModel(options.new, newContract!.model);
  const report = diff.diffSides(old, now, { ignoreDocs: options.ignoreDocs });
  process.stdout.write(diff.renderDiffReport(options.format, report, options.failOn));
  if (options.junit !== undefined) writeFileSync(options.junit, diff.renderDiffReport('junit', report, options.failOn));
  return diff.gatingChanges(report, options.failOn).length > 0 ? EXIT_FAILED : EXIT_OK;
}

export const diffCommand: CliCommand = {
  command: 'diff <old> <new>',
  describe: 'Compare two versions of a WSDL: what the change breaks for deployed clients and servers, per binding',
  builder,
  examples: [
    ['smskit diff old.wsdl new.wsdl', 'what the change breaks, per binding and direction'],
    [
      'smskit diff http://prod/service.asmx?wsdl service.wsdl --markdown --fail-on any',
      'a pull-request comment; exit 1 on any change',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.diff,
  run,
};
