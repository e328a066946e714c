/**
 * Debian's Kannel (`bearerbox` + `smsbox`) as the gateway section runs it: configured in a
 * temporary folder the way an operator would set it up against one SMSC — messages spooled to
 * disk (store-type = spool), one SMPP transceiver, at most 10 submits unanswered, sendsms over
 * HTTP on smsbox — and both boxes stopped with the run. The bench installs nothing: `kannelPath`
 * says why the section cannot run when the boxes are missing.
 */
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { spawnTracked, stopChild } from './procs.js';

/** Where Debian puts the boxes (/usr/sbin is not on every user's PATH). */
const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin'];

/** The full path of `command` (bearerbox, smsbox), or undefined when it is not installed. */
export function kannelPath(command: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter((d) => d !== ''), ...SBIN_DIRS];
  for (const dir of dirs) {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** A TCP port nothing listens on now (Kannel takes fixed ports, never 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface KannelSettings {
  readonly dir: string;
  readonly smscPort: number;
  readonly systemId: string;
  readonly password: string;
  readonly adminPort: number;
  readonly smsboxPort: number;
  readonly sendsmsPort: number;
  readonly sendsmsUser: string;
  readonly sendsmsPassword: string;
}

/**
 * kannel.conf for `settings`. Log level 2 (warnings) and no access log: neither side under test
 * writes a line per message. DLRs are kept in memory (dlr-storage = internal, Kannel's default).
 */
export function kannelConfig(s: KannelSettings): string {
  return [
    'group = core',
    `admin-port = ${s.adminPort}`,
    'admin-interface = 127.0.0.1',
    'admin-password = bench-admin',
    `smsbox-port = ${s.smsboxPort}`,
    'box-allow-ip = 127.0.0.1',
    `log-file = "${join(s.dir, 'bearerbox.log')}"`,
    'log-level = 2',
    'store-type = spool',
    `store-location = "${join(s.dir, 'spool')}"`,
    'dlr-storage = internal',
    '',
    'group = smsc',
    'smsc = smpp',
    'smsc-id = simulator',
    'host = 127.0.0.1',
    `port = ${s.smscPort}`,
    'transceiver-mode = true',
    `smsc-username = ${s.systemId}`,
    `smsc-password = ${s.password}`,
    'system-type = ""',
    'max-pending-submits = 10',
    '',
    'group = smsbox',
    'bearerbox-host = 127.0.0.1',
    `bearerbox-port = ${s.smsboxPort}`,
    'sendsms-interface = 127.0.0.1',
    `sendsms-port = ${s.sendsmsPort}`,
    `log-file = "${join(s.dir, 'smsbox.log')}"`,
    'log-level = 2',
    '',
    'group = sendsms-user',
    `username = ${s.sendsmsUser}`,
    `password = ${s.sendsmsPassword}`,
    '',
  ].join('\n');
}

export interface RunningKannel {
  /** smsbox's sendsms origin, e.g. http://127.0.0.1:13013. */
  readonly origin: string;
  readonly bearerbox: ChildProcess;
  readonly smsbox: ChildProcess;
  stop(): Promise<void>;
}

/** Keeps the last few KB a box printed, for the error when it exits early. */
function tail(child: ChildProcess): () => string {
  let text = '';
  const keep = (chunk: Buffer): void => {
    text = (text + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

async function until(what: string, ready: () => Promise<boolean>, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${what}: exited (${child.exitCode}): ${output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready within 30 s: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts bearerbox, waits until `bound()` says it is bound to the SMSC, then smsbox, and waits
 * until sendsms answers. Both print only errors on their console (`-v 4`).
 */
export async function startKannel(
  settings: Omit<KannelSettings, 'adminPort' | 'smsboxPort' | 'sendsmsPort'>,
  bound: () => Promise<boolean>,
): Promise<RunningKannel> {
  const [bearerboxBin, smsboxBin] = [kannelPath('bearerbox'), kannelPath('smsbox')];
  if (bearerboxBin === undefined || smsboxBin === undefined) throw new Error('Kannel is not installed');
  const full: KannelSettings = {
    ...settings,
    adminPort: await freePort(),
    smsboxPort: await freePort(),
    sendsmsPort: await freePort(),
  };
  mkdirSync(join(full.dir, 'spool'), { recursive: true });
  const conf = join(full.dir, 'kannel.conf');
  writeFileSync(conf, kannelConfig(full));
  const bearerbox = spawnTracked(bearerboxBin, ['-v', '4', conf]);
  const bearerboxOutput = tail(bearerbox);
  const origin = `http://127.0.0.1:${full.sendsmsPort}`;
  const stop = async (): Promise<void> => {
    await stopChild(smsbox, 10_000);
    await stopChild(bearerbox, 10_000);
  };
  let smsbox = bearerbox;
  try {
    await until('bearerbox', bound, bearerbox, bearerboxOutput);
    smsbox = spawnTracked(smsboxBin, ['-v', '4', conf]);
    const smsboxOutput = tail(smsbox);
    await until('smsbox', () => answers(origin), smsbox, smsboxOutput);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, bearerbox, smsbox, stop };
}

async function answers(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/cgi-bin/sendsms`);
    await response.text();
    return true;
  } catch {
    return false;
  }
}
