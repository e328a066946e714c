import type { Argv } from 'yargs';

/** What each exit code means for one command (0 ok, 1 checks failed, 2 usage or input error). */
export interface ExitCodes {
  readonly 0: string;
  readonly 1?: string;
  readonly 2: string;
}

/** One CLI command: its yargs shape, its help (examples, exit codes) and a `run` that returns the exit code. */
export interface CliCommand {
  readonly command: string | readonly string[];
  readonly describe: string;
  // yargs builders are typed per command; the registry only needs to pass them through.
  readonly builder: (yargs: Argv) => Argv;
  /** `[command line, what it does]`, shown under "Examples" in the command's help. */
  readonly examples: readonly (readonly [string, string])[];
  readonly exitCodes: ExitCodes;
  readonly run: (args: Record<string, unknown>) => Promise<number>;
}
