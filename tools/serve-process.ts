/**
 * `smskit serve` (and other `smskit` commands) as real child processes, for the end-to-end and
 * reliability tests and the long-run scripts: the command users run, on an ephemeral port with a
 * temporary database. Every wait is bounded, so a server that never starts or never stops fails
 * the test with what it printed instead of hanging the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutboxEntry } from '../service/outbox/report.js';

/** The repository root: the working directory of every process started here. */
export const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const bin = fileURLToPath(new URL('../bin/smskit.js', import.meta.url));

/** What a finished `smskit <command>` process gave back. */
export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}
const LISTENING = /SMS service listening on (http:\/\/([^\s/:]+):(\d+)\/serviceapi\.asmx)/;

export interface ServeExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ServeProcess {
  /** The service address as printed, e.g. `http://127.0.0.1:41234/serviceapi.asmx`. */
  readonly url: string;
  readonly address: { readonly host: string; readonly port: number };
  readonly db: string;
  readonly pid: number;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Sends `signal` (default SIGTERM) and waits for the exit; SIGKILLs and rejects after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ServeExit>;
  /** SIGKILL, then the exit. */
  kill(): Promise<ServeExit>;
  /** Settles when the process has exited, whatever ended it. */
  readonly exited: Promise<ServeExit>;
}

export interface ServeOptions {
  readonly db: string;
  /** Extra `serve` flags, e.g. ['--max-segments', '3']. */
  readonly args?: readonly string[];
  /** How long the process may take to print its URL (default 20 s). */
  readonly startTimeoutMs?: number;
  /** Variables added to the process's environment (e.g. PGPASSWORD), none in this process's own. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Children still running when the test process exits are killed, never left behind. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startServe(options: ServeOptions): Promise<ServeProcess> {
  const args = [bin, 'serve', '--host', '127.0.0.1', '--port', '0', '--db', options.db, ...(options.args ?? [])];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...withoutPassword(process.env), ...options.env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<ServeExit>((resolve) => {
    child.once('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
    child.once('error', (error) => {
      running.delete(child);
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}\nspawn error: ${error.message}` });
    });
  });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 10_000): Promise<ServeExit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const result = await Promise.race([exited, delay(timeoutMs).then(() => undefined)]);
    if (result !== undefined) return result;
    child.kill('SIGKILL');
    const after = await exited;
    throw new Error(`smskit serve did not exit within ${timeoutMs} ms of ${signal}; stderr:\n${after.stderr}`);
  };

  return new Promise<ServeProcess>((resolve, reject) => {
    const timeoutMs = options.startTimeoutMs ?? 20_000;
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`smskit serve printed no URL within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    const onData = (): void => {
      const match = LISTENING.exec(stdout);
      if (match === null) return;
      cleanup();
      resolve({
        url: match[1]!,
        address: { host: match[2]!, port: Number(match[3]) },
        db: options.db,
        pid: child.pid!,
        output: () => ({ stdout, stderr }),
        stop,
        kill: () => stop('SIGKILL'),
        exited,
      });
    };
    const onEarlyExit = (exit: ServeExit): void => {
      cleanup();
      reject(
        new Error(
          `smskit serve exited before listening (code ${exit.code}, signal ${exit.signal}); stderr:\n${exit.stderr}`,
        ),
      );
    };
    let settled = false;
    const cleanup = (): void => {
      settled = true;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
    };
    child.stdout!.on('data', onData);
    void exited.then((exit) => {
      if (!settled) onEarlyExit(exit);
    });
  });
}

/** A fresh directory under `parent` (the OS temp dir unless given); `remove()` deletes it and everything in it. */
export function tempDir(prefix: string, parent = tmpdir()): { readonly path: string; remove(): void } {
  const path = mkdtempSync(join(parent, `smskit-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Runs `smskit <args>` as a real process without blocking the event loop (so several can run at
 * once, and a running test server keeps answering). Killed after `timeoutMs` (default 60 s).
 */
export function runCliAsync(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...withoutPassword(process.env), ...options.env },
    });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      stderr += `\n[test: killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ status: null, stdout, stderr: `${stderr}\nspawn error: ${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ status: code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface AccountSpec {
  readonly email: string;
  readonly keywords: readonly string[];
  readonly password: string;
}

/** `smskit account add` with the password in SMSKIT_PASSWORD (never in argv). Throws with the output on failure. */
export async function addAccount(db: string, account: AccountSpec, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const args = [
    'account',
    'add',
    '--db',
    db,
    '--email',
    account.email,
    ...account.keywords.flatMap((k) => ['--keyword', k]),
  ];
  const result = await runCliAsync(args, { env: { ...env, SMSKIT_PASSWORD: account.password } });
  if (result.status !== 0)
    throw new Error(`smskit account add ${account.email} failed (${result.status}):\n${result.stderr}`);
  return result;
}

/** The outbox as `smskit outbox --json` prints it. */
export type OutboxJsonEntry = OutboxEntry;

export async function readOutbox(db: string): Promise<{ entries: OutboxJsonEntry[]; raw: CliResult }> {
  const raw = await runCliAsync(['outbox', '--db', db, '--json']);
  if (raw.status !== 0) throw new Error(`smskit outbox failed (${raw.status}):\n${raw.stderr}`);
  return { entries: JSON.parse(raw.stdout) as OutboxJsonEntry[], raw };
}

/** Runs `tasks` with at most `limit` in flight, results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function withoutPassword(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { SMSKIT_PASSWORD: _ignored, ...rest } = env;
  return rest;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
