/**
 * A systemd unit in the docs (an `ini` fence marked `unit`), checked the way systemd would run
 * it, without systemd: the [Service] section's ExecStart is split into argv and started directly
 * (no shell, as systemd does) in WorkingDirectory, with its Environment; the process must print
 * its own pid (so the pid systemd tracks is smskit itself, not a wrapper), and KillSignal must stop
 * it within TimeoutStopSec with an exit status systemd counts as success (0 or SuccessExitStatus).
 *
 * The unit's absolute paths are mapped into the consumer project: WorkingDirectory becomes the
 * project, /var/lib/<StateDirectory> a folder in it. Anything systemd itself would interpret
 * (quotes, `$VAR`, specifiers such as `%h`) is refused, so the line run here is the line systemd runs.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Unit {
  readonly service: ReadonlyMap<string, readonly string[]>;
}

/** `Key=value` lines per section; a key may repeat (Environment). */
export function parseUnit(text: string): Unit {
  const service = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header !== null) {
      section = header[1]!;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`unit: cannot read "${line}"`);
    if (section !== 'Service') continue;
    const key = line.slice(0, eq).trim();
    service.set(key, [...(service.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return { service };
}

function one(unit: Unit, key: string): string | undefined {
  const values = unit.service.get(key);
  if (values !== undefined && values.length > 1) throw new Error(`unit: ${key} is given ${values.length} times`);
  return values?.[0];
}

/** systemd's time span for TimeoutStopSec: plain seconds or `30s`, `1min`, `90s`. */
function seconds(value: string | undefined): number {
  if (value === undefined) return 90;
  const match = /^(\d+)\s*(s|sec|min)?$/.exec(value);
  if (match === null) throw new Error(`unit: TimeoutStopSec=${value} is not a time span this check reads`);
  return Number(match[1]) * (match[2] === 'min' ? 60 : 1);
}

export interface UnitRun {
  readonly argv: readonly string[];
  readonly pid: number;
  readonly signal: NodeJS.Signals;
  readonly exit: { readonly code: number | null; readonly signal: NodeJS.Signals | null };
  readonly output: string;
}

/** Runs the unit's ExecStart in `project`, stops it with KillSignal; throws naming what systemd would do differently. */
export async function runUnit(text: string, project: string): Promise<UnitRun> {
  const unit = parseUnit(text);
  const workingDirectory = one(unit, 'WorkingDirectory');
  const execStart = one(unit, 'ExecStart');
  if (workingDirectory === undefined || execStart === undefined)
    throw new Error('unit: [Service] needs WorkingDirectory and ExecStart');
  if (/["'$%\\;]/.test(execStart)) throw new Error(`unit: ExecStart holds something systemd interprets: ${execStart}`);
  const stateDirectory = one(unit, 'StateDirectory');
  const state = join(project, 'state');
  mkdirSync(state, { recursive: true });
  const local = (path: string): string => {
    let mapped = path.replaceAll(workingDirectory, project);
    if (stateDirectory !== undefined) mapped = mapped.replaceAll(`/var/lib/${stateDirectory}`, state);
    return mapped;
  };
  const argv = execStart.split(/\s+/).map(local);
  if (!argv[0]!.startsWith(project)) throw new Error(`unit: ExecStart must start the installed binary: ${execStart}`);
  const env: Record<string, string> = {};
  for (const assignment of unit.service.get('Environment') ?? []) {
    const eq = assignment.indexOf('=');
    env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  const signal = (one(unit, 'KillSignal') ?? 'SIGTERM') as NodeJS.Signals;
  const timeoutMs = seconds(one(unit, 'TimeoutStopSec')) * 1000;
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: local(workingDirectory),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<UnitRun['exit']>((resolve) =>
    child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal })),
  );
  const pid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`unit: no pid printed in 60 s:\n${output}`)), 60_000);
    const look = (): void => {
      const printed = /\bpid:?\s+(\d+)/.exec(output);
      if (printed === null) return;
      clearTimeout(timer);
      resolve(Number(printed[1]));
    };
    child.stdout.on('data', look);
    void exited.then(() => reject(new Error(`unit: ExecStart exited before it printed its pid:\n${output}`)));
  });
  if (pid !== child.pid) {
    process.kill(pid, 'SIGTERM');
    child.kill('SIGKILL');
    throw new Error(`unit: the pid printed (${pid}) is not the process ExecStart started (${child.pid})`);
  }
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exit = await exited;
  clearTimeout(timer);
  const success = new Set([0, ...(one(unit, 'SuccessExitStatus') ?? '').split(/\s+/).filter(Boolean).map(Number)]);
  if (exit.signal !== null || !success.has(exit.code ?? -1))
    throw new Error(
      `unit: ${signal} ended ExecStart with ${exit.signal ?? `exit ${exit.code}`}, a failure for systemd:\n${output}`,
    );
  return { argv, pid, signal, exit, output };
}
