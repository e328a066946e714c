/**
 * `smskit` command line. Commands live in bin/commands/, one module each; this file only wires
 * them into yargs and owns the process exit: nothing else in the toolkit calls process.exit.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { CliError, EXIT_USAGE, exitCodeFor, formatCliError } from './cli-error.js';
import { commands } from './commands/index.js';
import { toolVersion } from './tool-version.js';

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  let exitCode = 0;
  const parser = yargs(argv)
    .scriptName('smskit')
    .version(toolVersion())
    .option('verbose', { type: 'boolean', default: false, describe: 'Print stack traces for errors' })
    .strict()
    .demandCommand(1, 'Name a command: smskit <command> --help')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 100))
    .fail((message, error) => {
      throw error ?? new CliError(`${message} (see smskit --help)`, EXIT_USAGE);
    });
  skipHelpCache(parser);
  for (const command of commands) {
    parser.command({
      command: command.command,
      describe: command.describe,
      builder: command.builder,
      handler: async (args) => {
        exitCode = await command.run(args);
      },
    });
  }
  try {
    await parser.parseAsync();
    return exitCode;
  } catch (error) {
    process.stderr.write(`${formatCliError(error, verbose)}\n`);
    return exitCodeFor(error);
  }
}

/**
 * yargs renders the command's whole help text after starting every command handler, only so
 * that its own failure output could show it. Our .fail() throws instead, so that text is never
 * used, and rendering it (cliui measuring every cell's width) cost ~40 ms of each run.
 * Internal API, hence the guard: without it, yargs simply keeps caching.
 */
function skipHelpCache(parser: unknown): void {
  const usage = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

process.exitCode = await main(hideBin(process.argv));
