/** `smskit generate`: WSDL -> model -> TypeScript files, written atomically or checked for drift. */
import type { Argv } from 'yargs';
import { CliError, EXIT_FAILED, EXIT_OK } from '../cli-error.js';
import { diffTrees, readTree, replaceTreeAtomically } from '../file-tree.js';
import { toolVersion } from '../tool-version.js';
import type { CliCommand } from './command.js';
import type { WsdlModel } from '../../generator/model.js';

export interface GenerateCommandOptions {
  readonly wsdl: string;
  readonly out: string;
  readonly check: boolean;
  readonly runtimeImport: string;
}

/** The one place generate's flags are validated; the result is frozen and never mutated. */
export function validateGenerateOptions(args: Record<string, unknown>): GenerateCommandOptions {
  const text = (name: string): string => {
    const value = args[name];
    if (typeof value !== 'string' || value.trim() === '') throw new CliError(`--${name} needs a non-empty value`);
    return value;
  };
  return Object.freeze({
    wsdl: text('wsdl'),
    out: text('out'),
    check: args.check === true,
    runtimeImport: text('runtime-import'),
  });
}

function builder(yargs: Argv): Argv {
  return yargs
    .option('wsdl', { type: 'string', default: 'wsdl/serviceapi.wsdl', describe: 'WSDL 1.1 file to read (local imports are followed)' })
    .option('out', { type: 'string', default: 'generated', describe: 'Folder that receives the generated TypeScript (replaced as a whole)' })
    .option('check', { type: 'boolean', default: false, describe: 'Write nothing; exit 1 with a diff when the folder is stale' })
    .option('runtime-import', { type: 'string', default: 'smskit/runtime', describe: 'Module specifier generated code imports the runtime from' });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateGenerateOptions(args);
  const { generate, parseWsdl } = await import('../../generator/index.js');
  const started = performance.now();
  const model = parseWsdl(options.wsdl);
  const planWarnings: { source: { file: string; line: number }; message: string }[] = [];
  const files = generate(model, { runtimeImport: options.runtimeImport, toolVersion: toolVersion(), onWarning: (w) => planWarnings.push(w) });
  const elapsed = Math.round(performance.now() - started);
  if (options.check) {
    const current = readTree(options.out);
    const diff = diffTrees(options.out, current, files);
    if (diff === '') {
      process.stdout.write(`${options.out} is up to date with ${options.wsdl} (${files.size} files)\n`);
      return EXIT_OK;
    }
    process.stdout.write(`${await semanticChange(options, current, model)}\n`);
    process.stdout.write(diff);
    process.stderr.write(`smskit: ${options.out} is stale: run \`smskit generate --wsdl ${options.wsdl} --out ${options.out}\` and commit the result\n`);
    return EXIT_FAILED;
  }
  replaceTreeAtomically(options.out, files);
  process.stdout.write(`wrote ${files.size} files to ${options.out} from ${options.wsdl} in ${elapsed} ms\n`);
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
async function semanticChange(options: GenerateCommandOptions, current: ReadonlyMap<string, string>, model: WsdlModel): Promise<string> {
  try {
    const diff = await import('../../generator/diff/index.js');
    const committed = diff.readCommittedDescriptors(current);
    if (committed.length === 0) return `smskit: wire change: unknown (${options.out} holds no generated descriptor.ts)`;
    const report = diff.diffSides({ label: options.out, services: committed }, diff.sideFromModel(options.wsdl, model));
    return `smskit: wire change from ${options.out} to ${options.wsdl}: ${diff.oneLineSummary(report)}`;
  } catch (error) {
    return `smskit: wire change: unknown (${error instanceof Error ? error.message : String(error)})`;
  }
}

export const generateCommand: CliCommand = {
  command: 'generate',
  describe: 'Generate TypeScript types, descriptor, client and server skeleton from a WSDL',
  builder,
  run,
};
