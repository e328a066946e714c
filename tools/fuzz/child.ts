/**
 * Starts `server-child.ts` in its own Node process (with `--expose-gc`) and talks to it over IPC.
 * Every wait is bounded; `close()` ends the child (SIGKILL when it does not exit in time) and
 * removes its temporary directory. A child still running when the test process exits is killed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildConfig, ChildReady, ChildStats } from './server-child.js';

export type { ChildStats } from './server-child.js';

const script = fileURLToPath(new URL('./server-child.ts', import.meta.url));
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface FuzzServer {
  /** `http://127.0.0.1:PORT/serviceapi.asmx` of the SMS service. */
  readonly sms: string;
  /** The same for the generated listener with checking handlers. */
  readonly checked: string;
  readonly pid: number;
  readonly password: string;
  readonly email: string;
  readonly keyword: string;
  stats(options?: { gc?: boolean }): Promise<ChildStats>;
  /** Everything the child wrote to stdout/stderr. */
  output(): string;
  /** The exit, if it happened (a crash when the test did not ask for it). */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  close(): Promise<void>;
}

export type FuzzServerOptions = Partial<
  Pick<ChildConfig, 'headersTimeoutMs' | 'bodyTimeoutMs' | 'maxBodyBytes' | 'password'>
>;

/** A password no request value, log line or message would contain by chance. */
export const DISTINCT_PASSWORD = 'Zq7-Pelican-Quartz-9041';

export async function startFuzzServer(options: FuzzServerOptions = {}): Promise<FuzzServer> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-fuzz-'));
  const config: ChildConfig = {
    dbPath: join(dir, 'fuzz.db'),
    email: 'fuzz@example.com',
    keyword: 'FUZZ',
    password: DISTINCT_PASSWORD,
    ...options,
  };
  const child = fork(script, [JSON.stringify(config)], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  running.add(child);
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      running.delete(child);
      resolve();
    });
  });
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true });

  const ready = await new Promise<ChildReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fuzz server did not start in 30 s:\n${output}`)), 30_000);
    child.once('message', (message: ChildReady) => {
      clearTimeout(timer);
      resolve(message);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`fuzz server exited while starting (${JSON.stringify(exit)}):\n${output}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    cleanup();
    throw error;
  });

  const stats = (opts: { gc?: boolean } = {}): Promise<ChildStats> =>
    new Promise((resolve, reject) => {
      if (exit !== undefined)
        return reject(new Error(`fuzz server has exited (${JSON.stringify(exit)}):\n${output.slice(-4000)}`));
      const timer = setTimeout(() => reject(new Error('fuzz server did not answer a stats request in 20 s')), 20_000);
      const onMessage = (message: ChildStats): void => {
        if (message.type !== 'stats') return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send({ type: 'stats', gc: opts.gc === true });
    });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      if (exit === undefined) {
        child.send({ type: 'close' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
    })());

  return {
    sms: ready.sms,
    checked: ready.checked,
    pid: ready.pid,
    password: config.password,
    email: config.email,
    keyword: config.keyword,
    stats,
    output: () => output,
    exit: () => exit,
    close,
  };
}
