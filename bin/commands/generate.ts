/**
 * `smskit generate`: WSDL -> model -> TypeScript files, written atomically or checked for drift.
 * The WSDL is a file or an http(s) URL (fetched once, bounded in size and time like every fetch
 * of the toolkit); without --wsdl, the built-in contract shipped in the package.
 */
import { relative, resolve, sep } from 'node:path';
import type { Argv } from 'yargs';
import { withoutCredentials } from '../../runtime/network/proxy.js';
import { BUILT_IN_WSDL_LABEL, builtInWsdlPath, isBuiltInWsdl } from '../built-in-contract.js';
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
  /** A file (as typed, relative to the working directory), a URL, or the built-in contract's path. */
  readonly wsdl: string;
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
  return Object.freeze({
    wsdl: args.wsdl === undefined ? builtInWsdlPath() : text('wsdl'),
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
  if (isBuiltInWsdl(wsdl)) return BUILT_IN_WSDL_LABEL;
  return relative(resolve(out), resolve(wsdl)).split(sep).join('/');
}

/** How messages name the WSDL: as the user typed it (a URL without credentials), or "the built-in contract". */
function shownWsdl(options: GenerateCommandOptions): string {
  if (options.wsdl === builtInWsdlPath()) return 'the built-in contract';
  return isUrl(options.wsdl) ? withoutCredentials(new URL(options.wsdl)) : options.wsdl;
}

function builder(yargs: Argv): Argv {
  return withContractFlags(withNetworkFlags(yargs))
    .option('wsdl', {
      type: 'string',
      defaultDescription: 'the built-in SMS contract',
      describe: 'WSDL 1.1 to read: a file (local imports are followed) or an http(s) URL such as <service>?wsdl',
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
  const { generateTree } = await import('../../generator/index.js');
  const started = performance.now();
  const [contract] = await readContractsWithFlags([options.wsdl], args, {
    timeoutMs: options.timeoutMs,
    maxBytes: MAX_WSDL_BYTES,
  });
  const { model } = contract!;
  const planWarnings: { source: { file: string; line: number }; message: string }[] = [];
  const { files, descriptors } = generateTree(model, {
    runtimeImport: options.runtimeImport,
    toolVersion: toolVersion(),
    source: sourceLabel(options.wsdl, options.out),
    imports: (model.imports ?? []).map((document) => sourceLabel(document, options.out)),
    onWarning: (w) => planWarnings.push(w),
  });
  const elapsed = Math.round(performance.now() - started);
  const wsdl = shownWsdl(options);
  if (options.check) {
    const current = readTree(options.out);
    const diff = diffTrees(options.out, current, files);
    if (diff === '') {
      process.stdout.write(`${options.out} is up to date with ${wsdl} (${files.size} files)\n`);
      return EXIT_OK;
    }
    process.stdout.write(`${await semanticChange(options, current, model, descriptors)}\n`);
    process.stdout.write(diff);
    const again = options.wsdl === builtInWsdlPath() ? '' : ` --wsdl ${shownWsdl(options)}`;
    process.stderr.write(
      `smskit: ${options.out} is stale: run \`smskit generate${again} --out ${options.out}\` and commit the result\n`,
    );
    return EXIT_FAILED;
  }
  replaceTreeAtomically(options.out, files);
  process.stdout.write(`wrote ${files.size} files to ${options.out} from ${wsdl} in ${elapsed} ms\n`);
  for (const warning of [...model.warnings, ...planWarnings]) {
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
  model: WsdlModel,
  descriptors: readonly ServiceDescriptor[],
): Promise<string> {
  try {
    const diff = await import('../../contract/diff/index.js');
    const committed = diff.readCommittedDescriptors(current);
    if (committed.length === 0) return `smskit: wire change: unknown (${options.out} holds no generated descriptor.ts)`;
    const report = diff.diffSides(
      { label: options.out, services: committed },
      { label: shownWsdl(options), model, services: descriptors },
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
    ['smskit generate --out src/sms', 'the built-in SMS contract'],
  ],
  exitCodes: COMMAND_EXIT_CODES.generate,
  run,
};
