/**
 * `smskit` command line. Commands live in bin/commands/, one module each; this file only wires
 * them into yargs and owns the process exit: nothing else in the toolkit calls process.exit.
 */
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { CliError, exitCodeFor, formatCliError, UsageError } from './cli-error.js';
import { type CliCommand, commandName } from './commands/command.js';
import { commands } from './commands/index.js';
import { COMMAND_EXIT_CODES, EXIT_OK, EXIT_USAGE, exitCodeHelp } from './exit-codes.js';
import { explainMissing, suggestFlags } from './suggest.js';
import { toolVersion } from './tool-version.js';
import { chooseWasmCompiler } from './wasm-compiler.js';

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  const chosenName = chosenCommand(argv);
  chooseWasmCompiler(chosenName);
  let exitCode: number = EXIT_OK;
  const parser = yargs(argv)
    .scriptName('smskit')
    .usage(
      'smskit <command> [options]\n\nWSDL → typed TypeScript client and server, the wire runtime, the SMS service and its conformance runner.',
    )
    .version(toolVersion())
    .help('help')
    .alias('help', 'h')
    .option('verbose', { type: 'boolean', default: false, describe: 'Print stack traces for errors' })
    .strict()
    .demandCommand(1, 'Name a command')
    .recommendCommands()
    .example(
      'smskit generate --wsdl calc.wsdl --out src/calc',
      'typed client, server skeleton and descriptor from a WSDL',
    )
    .example('smskit conformance', 'check the built-in service against the contract')
    .epilogue(
      `${exitCodeHelp(COMMAND_EXIT_CODES.smskit)}\n\nEach command's options and examples: smskit <command> --help`,
    )
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error) throw error;
      const help = chosenName === undefined ? 'smskit --help' : `smskit ${chosenName} --help`;
      const known = knownFlags(parser);
      const explained = explainMissing(message, argv, known);
      const text = explained !== message ? explained : `${message}${suggestFlags(message, known)}`;
      throw new CliError(`${text} (see ${help})`, EXIT_USAGE);
    });
  skipHelpCache(parser);
  for (const command of commands) {
    parser.command({
      command: command.command,
      describe: command.describe,
      builder: (y: Argv) => withHelp(command.builder(y), command),
      handler: async (args) => {
        exitCode = await command.run(args);
      },
    });
  }
  try {
    await parser.parseAsync();
    return exitCode;
  } catch (error) {
    const help =
      error instanceof UsageError ? ` (see smskit${chosenName === undefined ? '' : ` ${chosenName}`} --help)` : '';
    process.stderr.write(`${formatCliError(error, verbose)}${help}\n`);
    return exitCodeFor(error);
  }
}

/** Every command's help shows its examples and what its exit codes mean. */
function withHelp(yargs: Argv, command: CliCommand): Argv {
  for (const [line, what] of command.examples) yargs.example(line, what);
  return yargs.epilogue(exitCodeHelp(command.exitCodes));
}

/** The command the user named (first word that is a command name), for "see smskit <command> --help". */
function chosenCommand(argv: readonly string[]): string | undefined {
  const names = new Set(commands.map(commandName));
  return argv.find((arg) => names.has(arg));
}

/**
 * The long flags yargs knows at the point of failure: a command's builder runs on the same
 * instance, so its options are the chosen command's and the global ones.
 */
function knownFlags(parser: Argv): string[] {
  // A method of the yargs instance that @types/yargs leaves out, hence the guard: without it,
  // a failure simply comes without a suggestion.
  const options = (
    parser as unknown as { getOptions?: () => { key?: Record<string, unknown>; alias?: Record<string, string[]> } }
  ).getOptions?.();
  if (options === undefined) return [];
  const names = new Set(Object.keys(options.key ?? {}));
  for (const aliases of Object.values(options.alias ?? {})) for (const alias of aliases) names.add(alias);
  return [...names].filter((name) => name.length > 1 && !name.startsWith('$'));
}

/**
 * yargs renders the command's whole help text after starting every command handler, only so
 * that its own failure output could show it. Our .fail() throws instead, so that text is never
 * used, and rendering it (cliui measuring every cell's width) cost ~40 ms of each run.
 * Internal API, hence the guard: without it, yargs simply keeps caching.
 */
function skipHelpCache(parser: unknown): void {
  const usage = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

/**
 * A reader that goes away (`smskit conformance --list | head`) closes the pipe: the output is
 * no longer wanted, so the command ends there, quietly and successfully, as `head` intends.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    if (stream !== process.stderr) process.stderr.write(`smskit: cannot write the output: ${error.message}\n`);
    process.exit(EXIT_USAGE);
  });
}

endQuietlyOnClosedPipe(process.stdout);
endQuietlyOnClosedPipe(process.stderr);
process.exitCode = await main(hideBin(process.argv));
