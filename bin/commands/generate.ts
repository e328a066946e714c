/**
 * `smskit generate`: WSDL -> model -> TypeScript files, written atomically or checked for drift.
 * Each WSDL is a file or an http(s) URL (fetched once, bounded in size and time like every fetch
 * of the toolkit); several `--wsdl` make one tree (a folder per service, one index); without
 * --wsdl, the built-in contracts shipped in the package (the SMS and the status contract).
 */
import { relative, resolve, sep } from 'node:path';
import type { Argv } from 'yargs';
import { withoutCredentials } from '../../runtime/network/proxy.js';
import { BUILT_IN_WSDLS, builtInLabel } from '../built-in-contract.js';
import { packageFile } from '../package-files.js';
import { UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { diffTrees, readTree, replaceTreeAtomically } from '../file-tree.js';
import { toolVersion } from '../tool-version.js';
import type { CliCommand } from './command.js';
import type { WsdlModel } from '../../contract/model/index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { readContractsWithFlags, withContractFlags } from '../contract-flags.js';
import { withNetworkFlags } from '../network-flags.js';

/** Size limit of a fetched WSDL: the runtime's response limit (the largest real ASMX WSDLs are under 1 MiB). */
const MAX_WSDL_BYTES = 16 * 1024 * 1024;

export interface GenerateCommandOptions {
  /** Files (as typed, relative to the working directory), URLs, or the built-in contracts' paths. */
  readonly wsdls: readonly string[];
  /** No --wsdl was given: the built-in contracts. */
  readonly builtIn: boolean;
  readonly out: string;
  readonly check: boolean;
  readonly runtimeImport: string;
  readonly timeoutMs: number;
}

const isUrl = (wsdl: string): boolean => /^https?:\/\//i.test(wsdl);

/** The one place generate's flags are validated; the result is frozen and never mutated. */
export function validateGenerateOptions(args: Record<string, unknown>): GenerateCommandOptions {
  const text = (name: string): string => {
    const value = args[name];
    if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} needs a non-empty value`);
    return value;
  };
  const timeout = args.timeout;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 600_000)
    throw new UsageError('--timeout must be a number of milliseconds between 1 and 600000');
  const given = args.wsdl === undefined ? [] : Array.isArray(args.wsdl) ? args.wsdl : [args.wsdl];
  if (given.some((value) => typeof value !== 'string' || value.trim() === ''))
    throw new UsageError('--wsdl needs a non-empty value');
  return Object.freeze({
    wsdls: given.length === 0 ? BUILT_IN_WSDLS.map((wsdl) => packageFile(wsdl)) : (given as string[]),
    builtIn: given.length === 0,
    out: text('out'),
    check: args.check === true,
    runtimeImport: text('runtime-import'),
    timeoutMs: timeout,
  });
}

/**
 * How the provenance header names the WSDL: a URL as given (without credentials), the built-in
 * contract by its package path (a node_modules path would change with the install layout),
 * else the file's path relative to the output folder, with '/' on every system.
 */
export function sourceLabel(wsdl: string, out: string): string {
  if (isUrl(wsdl)) return withoutCredentials(new URL(wsdl));
  const builtIn = builtInLabel(wsdl);
  if (builtIn !== undefined) return builtIn;
  return relative(resolve(out), resolve(wsdl)).split(sep).join('/');
}

function shownOne(wsdl: string): string {
  return isUrl(wsdl) ? withoutCredentials(new URL(wsdl)) : wsdl;
}

/** How messages name the WSDLs: as the user typed them (URLs without credentials), or "the built-in contracts". */
function shownWsdl(options: GenerateCommandOptions): string {
  if (options.builtIn) return 'the built-in contracts';
  return options.wsdls.map(shownOne).join(', ');
}

function builder(yargs: Argv): Argv {
  return withContractFlags(withNetworkFlags(yargs))
    .option('wsdl', {
      type: 'string',
      array: true,
      defaultDescription: 'the built-in SMS and status contracts',
      describe:
        'WSDL 1.1 to read: a file (local imports are followed) or an http(s) URL such as <service>?wsdl; repeatable (one tree, a folder per service)',
    })
    .option('out', {
      type: 'string',
      default: 'generated',
      describe: 'Folder that receives the generated TypeScript (replaced as a whole)',
    })
    .option('check', {
      type: 'boolean',
      default: false,
      describe: 'Write nothing; exit 1 with a diff when the folder is stale',
    })
    .option('runtime-import', {
      type: 'string',
      default: 'smskit/runtime',
      describe: 'Module specifier generated code imports the runtime from',
    })
    .option('timeout', {
      type: 'number',
      default: 10_000,
      describe: `Time limit for fetching a WSDL URL (ms); a fetched WSDL may be at most ${MAX_WSDL_BYTES / 1024 / 1024} MiB`,
    });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateGenerateOptions(args);
  const { generateTrees } = await import('../../generator/index.js');
  const started = performance.now();
  const contracts = await readContractsWithFlags(options.wsdls, args, {
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_WSDL_BYTES,
  });
  const models = contracts.map((contract) => contract.model);
  const planWarnings: { source: { file: string; line: number }; message: string }[] = [];
  const { files, descriptors } = generateTrees(
    models.map((model, i) => ({
      model,
      source: sourceLabel(options.wsdls[i]!, options.out),
      imports: (model.imports ?? []).map((document) => sourceLabel(document, options.out)),
    })),
    { runtimeImport: options.runtimeImport, toolVersion: toolVersion(), onWarning: (w) => planWarnings.push(w) },
  );
  const elapsed = Math.round(performance.now() - started);
  const wsdl = shownWsdl(options);
  if (options.check) {
    const current = readTree(options.out);
    const diff = diffTrees(options.out, current, files);
    if (diff === '') {
      process.stdout.write(`${options.out} is up to date with ${wsdl} (${files.size} files)\n`);
      return EXIT_OK;
    }
    process.stdout.write(`${await semanticChange(options, current, models, descriptors)}\n`);
    process.stdout.write(diff);
    const again = options.builtIn ? '' : options.wsdls.map((wsdl) => ` --wsdl ${shownOne(wsdl)}`).join('');
    process.stderr.write(
      `smskit: ${options.out} is stale: run \`smskit generate${again} --out ${options.out}\` and commit the result\n`,
    );
    return EXIT_FAILED;
  }
  replaceTreeAtomically(options.out, files);
  process.stdout.write(`wrote ${files.size} files to ${options.out} from ${wsdl} in ${elapsed} ms\n`);
  for (const warning of [...models.flatMap((model) => model.warnings), ...planWarnings]) {
    process.stderr.write(`smskit: warning: ${warning.source.file}:${warning.source.line}: ${warning.message}\n`);
  }
  return EXIT_OK;
}

/**
 * What the stale output means on the wire, in one line: the descriptors committed in the
 * output folder (what deployed code runs with, read back as data) against the WSDL's. Never
 * fails the check: when the committed descriptors cannot be read, the line says so.
 */
async function semanticChange(
  options: GenerateCommandOptions,
  current: ReadonlyMap<string, string>,
  models: readonly WsdlModel[],
  descriptors: readonly ServiceDescriptor[],
): Promise<string> {
  // The definitions (documentation, messages) are compared only for one WSDL: several have no one model.
  const model = models.length === 1 ? models[0] : undefined;
  try {
    const diff = await import('../../contract/diff/index.js');
    const committed = diff.readCommittedDescriptors(current);
    if (committed.length === 0) return `smskit: wire change: unknown (${options.out} holds no generated descriptor.ts)`;
    const report = diff.diffSides(
      { label: options.out, services: committed },
      { label: shownWsdl(options), ...(model === undefined ? {} : { model }), services: descriptors },
    );
    return `smskit: wire change from ${options.out} to ${shownWsdl(options)}: ${diff.oneLineSummary(report)}`;
  } catch (error) {
    return `smskit: wire change: unknown (${error instanceof Error ? error.message : String(error)})`;
  }
}

export const generateCommand: CliCommand = {
  command: 'generate',
  describe: 'Generate TypeScript types, descriptor, client and server skeleton from a WSDL',
  builder,
  examples: [
    ['smskit generate --wsdl calc.wsdl --out src/calc', 'types, descriptor, client and server skeleton in src/calc/'],
    ['smskit generate --wsdl "http://host/calc.asmx?wsdl" --out src/calc', 'from a running service'],
    ['smskit generate --wsdl calc.wsdl --out src/calc --check', 'in CI: exit 1 with a diff when src/calc is stale'],
    ['smskit generate --wsdl a.wsdl --wsdl b.wsdl --out src/ab', 'two services in one tree (a folder each, one index)'],
    ['smskit generate --out src/sms', 'the built-in SMS and status contracts'],
  ],
  exitCodes: COMMAND_EXIT_CODES.generate,
  run,
};
