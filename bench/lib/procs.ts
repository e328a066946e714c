/**
 * Child processes of the benchmark: every one is tracked and killed when the run ends, however
 * it ends (normal exit, an exception, Ctrl-C), so a failed run leaves no server behind.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statCpuSeconds } from '../../tools/proc-stat.js';
import { bundleFolder, bundleModule } from './bundle.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const live = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** SIGKILLs every child still running (synchronous: safe in an 'exit' handler). */
export function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

let installed = false;
/** Kills the children on exit, Ctrl-C, SIGTERM and uncaught errors. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

const bundles = new Map<string, Promise<string>>();
let bundleDir: { dir: string; remove(): void } | undefined;

/** The bundle of a bench/children module of `root` (built once per run, removed at exit). */
function childBundle(module: string, root: string): Promise<string> {
  const entry = join(root, 'bench', 'children', module);
  let bundle = bundles.get(entry);
  if (bundle === undefined) {
    if (bundleDir === undefined) {
      bundleDir = bundleFolder(repoRoot, 'bench');
      process.once('exit', () => bundleDir?.remove());
    }
    bundle = bundleModule(entry, { root, outDir: bundleDir.dir });
    bundles.set(entry, bundle);
  }
  return bundle;
}

/**
 * A TypeScript module of bench/children run as its own process (its bundle: lib/bundle.ts, with
 * an IPC channel); `root` runs another checkout's copy of it (`--before`: lib/before.ts).
 */
export async function forkChild(
  module: string,
  args: readonly string[] = [],
  execArgv: readonly string[] = [],
  root: string = repoRoot,
): Promise<ChildProcess> {
  const bundle = await childBundle(module, root);
  return track(
    fork(bundle, [...args], {
      cwd: root,
      execArgv: [...execArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
}

export function spawnTracked(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  return track(spawn(command, [...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** The next IPC message from `child`, or a rejection if it exits or `timeoutMs` passes first. */
export function nextMessage<T>(child: ChildProcess, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown): void => done(undefined, message as T);
    const onExit = (code: number | null): void => done(new Error(`${what}: process exited (${code})`));
    function done(error?: Error, value?: T): void {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
      else resolve(value as T);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Sends `request` and waits for the answer (children answer one request at a time). */
export function ask<T>(child: ChildProcess, request: unknown, timeoutMs: number, what: string): Promise<T> {
  const answer = nextMessage<T>(child, timeoutMs, what);
  child.send(request as object);
  return answer;
}

/** Sends SIGTERM and waits up to `timeoutMs` for the exit, then SIGKILL. */
export async function stopChild(child: ChildProcess, timeoutMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** Peak resident set size of a live process in MB (VmHWM), from /proc; undefined elsewhere. */
export function peakRssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) a live process has used so far, from /proc; undefined elsewhere. */
export function cpuSeconds(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : statCpuSeconds(pid, 11, 12);
}

/**
 * Resolves once a process has used no CPU for `quietMs` (its garbage collected, its connections
 * closed), or after `limitMs`: the next side is measured on a CPU nothing else is still using.
 */
export async function untilQuiet(pid: number | undefined, quietMs = 100, limitMs = 2_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  let last = cpuSeconds(pid);
  while (last !== undefined && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = cpuSeconds(pid);
    if (now === last) return;
    last = now;
  }
}

/**
 * Pins a live process (all its threads) to one CPU with taskset, when the machine has two or
 * more and taskset is there; false otherwise. The HTTP sections put the servers on one CPU and
 * the side that loads them on the other, so a side never competes with its own load for a core
 * and interleaved rounds compare like with like.
 */
export function pinToCpu(pid: number | undefined, cpu: number): boolean {
  if (pid === undefined || os.cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
