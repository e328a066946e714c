import type { Argv } from 'yargs';

/** One CLI command: its yargs shape and a `run` that returns the exit code. */
export interface CliCommand {
  readonly command: string | readonly string[];
  readonly describe: string;
  // yargs builders are typed per command; the registry only needs to pass them through.
  readonly builder: (yargs: Argv) => Argv;
  readonly run: (args: Record<string, unknown>) => Promise<number>;
}
