/**
 * The CLI's exit-code contract (0 ok, 1 checks failed, 2 usage or input error) and the one
 * place that turns any error into the `smskit: <message>` line.
 */

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** An error whose message is already fit for the user; `exitCode` says how to exit. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** Errors from our layers carry a stable `code` and a message that already names the location. */
function isLayerError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

/** Formats an error for stderr: one line, no stack unless verbose. */
export function formatCliError(error: unknown, verbose: boolean): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = `smskit: ${message}`;
  if (verbose && error instanceof Error && error.stack) return `${line}\n${error.stack}`;
  return line;
}

/** Exit code for an error escaping a command: input/usage errors are 2, anything else too. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (isLayerError(error)) return EXIT_USAGE;
  return EXIT_USAGE;
}
