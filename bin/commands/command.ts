import type { Argv } from 'yargs';
import type { ExitCodes } from '../exit-codes.js';

/** One CLI command: its yargs shape, its help (examples, exit codes) and a `run` that returns the exit code. */
export interface CliCommand {
  readonly command: string | readonly string[];
  readonly describe: string;
  // yargs builders are typed per command; the registry only needs to pass them through.
  readonly builder: (yargs: Argv) => Argv;
  /** `[command line, what it does]`, shown under "Examples" in the command's help. */
  readonly examples: readonly (readonly [string, string])[];
  /** Its entry of COMMAND_EXIT_CODES (bin/exit-codes.ts), shown under "Exit codes" in its help. */
  readonly exitCodes: ExitCodes;
  readonly run: (args: Record<string, unknown>) => Promise<number>;
}

/** The name a user types for the command (`generate` of `generate [wsdl]`). */
export function commandName(command: CliCommand): string {
  return String(Array.isArray(command.command) ? command.command[0] : command.command).split(' ')[0]!;
}
