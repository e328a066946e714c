/**
 * The one place that turns any error into the `smskit: <message>` line and its exit code (the
 * codes themselves: bin/exit-codes.ts).
 */
import { EXIT_USAGE } from './exit-codes.js';

/** An error whose message is already fit for the user; `exitCode` says how to exit. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * A flag or argument the command cannot take (as opposed to input it cannot use): the message
 * goes out with a pointer to the command's help, like yargs' own usage errors.
 */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'UsageError';
  }
}

/**
 * better-sqlite3 is an optional dependency (native code only the built-in service needs): an
 * install that skipped or failed it shows up as Node's module-not-found error, which says what
 * is missing but not why, nor what to do.
 */
function missingOptionalDependency(error: unknown): string | undefined {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  if (!/['"]better-sqlite3['"]/.test(error.message)) return undefined;
  return 'the built-in SMS service needs better-sqlite3, an optional dependency of smskit that is not installed here (npm install better-sqlite3)';
}

/** Formats an error for stderr: one line, no stack unless verbose. */
export function formatCliError(error: unknown, verbose: boolean): string {
  const message = missingOptionalDependency(error) ?? (error instanceof Error ? error.message : String(error));
  const line = `smskit: ${message}`;
  if (verbose && error instanceof Error && error.stack) return `${line}\n${error.stack}`;
  return line;
}

/** Exit code for an error escaping a command: the CliError's own, else 2 (usage or input error). */
export function exitCodeFor(error: unknown): number {
  return error instanceof CliError ? error.exitCode : EXIT_USAGE;
}
