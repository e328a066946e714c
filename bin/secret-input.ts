/**
 * Reads a password for `account add` and `send`: from a named environment variable, from
 * standard input (`--password-stdin`), or from an interactive prompt without echo. Never from
 * argv, where it would land in shell history and `ps` output.
 */
import { CliError } from './cli-error.js';

export interface SecretSource {
  /** Environment variable to read first (e.g. SMSKIT_PASSWORD). */
  readonly envName: string;
  /** Read the first line of standard input. */
  readonly fromStdin: boolean;
  readonly prompt: string;
}

async function readStdinLine(): Promise<string> {
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
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new CliError('cancelled'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}

export async function readSecret(source: SecretSource): Promise<string> {
  const fromEnv = process.env[source.envName];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (source.fromStdin) return readStdinLine();
  if (!process.stdin.isTTY) {
    throw new CliError(
      `no password: set ${source.envName}, pass --password-stdin and pipe it, or run in a terminal to be prompted`,
    );
  }
  return promptHidden(source.prompt);
}
