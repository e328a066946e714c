/**
 * Genuine SOAP stacks from Debian as peers: each serves its own small order service
 * (test/peers/stacks/<stack>/), and the test reads the service as a new user would — straight
 * from its URL: `smskit generate` (the shipped CLI) writes a client, every operation is called
 * through that generated client and the answers compared exactly, and the conformance runner
 * checks the service against its own WSDL. A stack that is not installed skips with one line, or fails in CI (test/helpers/peers.ts).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runConformance } from '../../../conformance/index.js';
import type { Report } from '../../../conformance/types.js';
import { readContract } from '../../../contract/read/index.js';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { waitFor } from '../../helpers/wait-for.js';

const BIN = fileURLToPath(new URL('../../../bin/smskit.js', import.meta.url));
const RUNTIME = fileURLToPath(new URL('../../../runtime/index.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface PeerProcess {
  /** Its service URL, from what it printed. */
  readonly url: string;
  /** Everything it wrote to stderr (for failure messages). */
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts a peer that prints its URL on the first line of stdout (or where `urlIn` finds it), and
 * waits for `ready(url)` to answer 200.
 */
export async function startPeer(
  command: string,
  args: readonly string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    /** What must answer 200 before the peer counts as started: one URL, or each of several. */
    ready: (url: string) => string | readonly string[];
    timeoutMs?: number;
    urlIn?: (stdout: string, stderr: string) => string | undefined;
  },
): Promise<PeerProcess> {
  const urlIn =
    options.urlIn ?? ((stdout: string) => (stdout.includes('\n') ? stdout.split('\n')[0]!.trim() : undefined));
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor('printing its URL', () => urlIn(out, err) !== undefined || child.exitCode !== null, {
      timeoutMs: options.timeoutMs ?? 60_000,
      state: () => `stderr: ${err.slice(-500)}`,
    });
    if (child.exitCode !== null) throw new Error(`${command} exited ${child.exitCode}: ${err.slice(-800)}`);
    const url = urlIn(out, err)!;
    const ready = options.ready(url);
    for (const readyUrl of typeof ready === 'string' ? [ready] : ready)
      await waitFor(
        `serving ${readyUrl}`,
        async () =>
          (await fetch(readyUrl).then(
            (r) => r.status === 200,
            () => false,
          )) as boolean,
        { timeoutMs: options.timeoutMs ?? 60_000, pollMs: 50, state: () => `stderr: ${err.slice(-500)}` },
      );
    return { url, stderr: () => err, close };
  } catch (error) {
    await close();
    throw error;
  }
}

const PHP_ROUTER = fileURLToPath(new URL('./php/server.php', import.meta.url));

/**
 * The PHP order service (php/server.php) under PHP's built-in web server, which prints its address
 * on stderr: one process serves every request, as a PHP deployment's FPM workers do. A PHP process
 * per request cost the fuzz test ~28 CPU-seconds for 100 cases; 200 now take ~6.
 */
export function startPhpPeer(): Promise<PeerProcess> {
  const started = /Development Server \((http:\/\/[^)\s]+)\) started/;
  return startPeer('php', ['-d', 'display_errors=0', '-d', 'log_errors=1', '-S', '127.0.0.1:0', PHP_ROUTER], {
    ready: (url) => `${url}?wsdl`,
    urlIn: (_stdout, stderr) => {
      const base = started.exec(stderr)?.[1];
      return base === undefined ? undefined : `${base}/orders.php`;
    },
  });
}

export interface GeneratedClient {
  /** The generated client class's instance (methods by operation). */
  readonly client: Record<string, (input: unknown) => Promise<unknown>> & { close(): Promise<void> };
  /** The CLI's stderr (warnings). */
  readonly warnings: string;
  dispose(): void;
}

/** `smskit generate --wsdl <url>` with the shipped CLI, then the generated client, imported. */
export async function generatedClient(
  wsdlUrl: string,
  options: { url?: string; binding?: string } = { binding: 'soap11' },
): Promise<GeneratedClient> {
  const out = mkdtempSync(join(tmpdir(), 'smskit-peer-gen-'));
  const run = await new Promise<{ status: number | null; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [BIN, 'generate', '--wsdl', wsdlUrl, '--out', out, '--runtime-import', pathToFileURL(RUNTIME).href],
      { cwd: ROOT, timeout: 60_000 },
      (error, _stdout, stderr) =>
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr }),
    ),
  );
  if (run.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    throw new Error(`smskit generate --wsdl ${wsdlUrl} failed: ${run.stderr}`);
  }
  const folder = readdirSync(out, { withFileTypes: true }).find((e) => e.isDirectory())!.name;
  const module = (await import(pathToFileURL(join(out, folder, 'client.ts')).href)) as Record<string, unknown>;
  const Client = Object.entries(module).find(([name]) => name.endsWith('Client'))![1] as new (
    options: object,
  ) => GeneratedClient['client'];
  return {
    client: new Client({
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.binding === undefined ? {} : { binding: options.binding }),
    }),
    warnings: run.stderr,
    dispose: () => rmSync(out, { recursive: true, force: true }),
  };
}

/** The conformance runner against the service, with the service's own WSDL as the contract. */
export async function conformanceOf(
  wsdlUrl: string,
  target: string,
  options: { binding?: ('soap11' | 'soap12')[]; skip?: string[]; concurrency?: number; timeoutMs?: number } = {},
): Promise<Report> {
  const { model } = await readContract(wsdlUrl);
  return runConformance({
    target,
    wsdlModel: model,
    retries: 0,
    ...(options.binding === undefined ? {} : { binding: options.binding }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    skip: ['wsdl', ...(options.skip ?? [])],
  });
}

/** The failures of a report at one level (what `--fail-on` counts), as `case: message` lines. */
export function failuresAt(report: Report, level: 'must' | 'should' | 'compat'): string[] {
  return report.cases.flatMap((c) => c.failures.filter((f) => f.level === level).map((f) => `${c.id}: ${f.message}`));
}

/** MUST failures: what fails `smskit conformance` with its default `--fail-on must`. */
export function mustFailures(report: Report): string[] {
  return failuresAt(report, 'must');
}

export { toDescriptor };
