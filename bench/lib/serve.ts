/**
 * `smskit serve` as the user runs it: a temporary database with one account (added with
 * `smskit account add`), the server on an ephemeral loopback port.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTracked, stopChild } from './procs.js';
import type { SendInput } from './payloads.js';
import { profileArgs } from './servers.js';

const PASSWORD = 'bench-password-1';
/** The account's credentials and a valid message: every request is acknowledged. */
export const ACCOUNT_INPUT: SendInput = {
  keyword: 'BENCH',
  emailAddress: 'bench@example.com',
  password: PASSWORD,
  smsto: '+14155550123',
  carrierCode: 'ATT',
  smsmsg: 'Hello from the benchmark',
};

export interface RunningService {
  /** Origin, e.g. `http://127.0.0.1:41234` (the service path is /serviceapi.asmx). */
  readonly origin: string;
  readonly db: string;
  readonly child: ChildProcess;
  /** What it has printed so far (stdout and stderr), e.g. the metrics URL of `--metrics-port 0`. */
  printed(): string;
  /** Stops the server (SIGTERM: it commits what is queued and closes the database). */
  stop(): Promise<void>;
  /** Stops it and removes the temporary database. */
  cleanup(): Promise<void>;
}

export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawnTracked(process.execPath, ['bin/smskit.js', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`smskit ${args[0]} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** `extraArgs`/`extraEnv` are added to `smskit serve`'s own (e.g. `--routes` and its secret). */
export async function startService(
  extraArgs: readonly string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
  dir = mkdtempSync(join(tmpdir(), 'smskit-bench-')),
  /** Another database than a SQLite file in `dir` (e.g. a postgres:// URL); the account is added to it. */
  database?: string,
  /** False for a second instance on a database that has the account already. */
  addTheAccount = true,
): Promise<RunningService> {
  const db = database ?? join(dir, 'service.sqlite');
  const env = { ...process.env, ...extraEnv, SMSKIT_PASSWORD: PASSWORD };
  if (addTheAccount) {
    const added = await runCli(
      ['account', 'add', '--db', db, '--email', ACCOUNT_INPUT.emailAddress, '--keyword', ACCOUNT_INPUT.keyword],
      env,
    );
    if (added.code !== 0) throw new Error(`smskit account add failed: ${added.stderr}`);
  }
  const child = spawnTracked(
    process.execPath,
    [...profileArgs('serve'), 'bin/smskit.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--db', db, ...extraArgs],
    { ...process.env, ...extraEnv },
  );
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`smskit serve printed no URL within 30 s: ${output}`)), 30_000);
    const onData = (chunk: string): void => {
      output += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/serviceapi\.asmx/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`smskit serve exited (${code}): ${output}`)));
  });

  return {
    origin,
    db,
    child,
    printed: () => output,
    stop: () => stopChild(child, 10_000),
    cleanup: async () => {
      await stopChild(child, 10_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
