/**
 * Reads a secret (an account password, an HTTP or WS-Security password, a bearer token, a key
 * passphrase): from a named environment variable, from standard input (`--…-stdin`), or from an
 * interactive prompt without echo. Never from argv, where it would land in shell history and
 * `ps` output. Standard input can carry one secret per run: assertOneStdinReader says so.
 */
import { CliError, UsageError } from './cli-error.js';

export interface SecretSource {
  /** Environment variable to read first (e.g. SMSKIT_PASSWORD). */
  readonly envName: string;
  /** Read the first line of standard input. */
  readonly fromStdin: boolean;
  readonly prompt: string;
  /** What is read, for the message when it cannot be (default "password"). */
  readonly what?: string;
  /** The flag that reads it from standard input (default --password-stdin). */
  readonly stdinFlag?: string;
}

/**
 * Standard input is read whole by the first reader: two flags that both want it (two `--…-stdin`
 * flags, or one and `--input @-`) would leave the second with nothing. Refuse that up front.
 */
export function assertOneStdinReader(flags: readonly string[]): void {
  if (flags.length > 1)
    throw new UsageError(
      `${flags.join(' and ')} both read standard input, which holds one value: give the other through its environment variable`,
    );
}

/** The first line of standard input, as piped (a secret's `--…-stdin` flag). */
export async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.split(/\r?\n/, 1)[0] ?? '';
}

async function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          return;
        }
        if (char === '\u0003') {
          finish(new CliError('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

export async function readSecret(source: SecretSource): Promise<string> {
  // The explicit flag wins over a variable that may be set for other runs.
  if (source.fromStdin) return readStdinLine();
  const fromEnv = process.env[source.envName];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (!process.stdin.isTTY) {
    throw new CliError(
      `no ${source.what ?? 'password'}: set ${source.envName}, pass ${source.stdinFlag ?? '--password-stdin'} and pipe it, or run in a terminal to be prompted`,
    );
  }
  return promptHidden(source.prompt);
}
