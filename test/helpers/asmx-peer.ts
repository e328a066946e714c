/**
 * Starts a genuine ASP.NET ASMX service (test/peers/asmx/<site>, run on Mono by
 * ../shared/asmx-host) for tests that compare smskit with what ASMX really publishes and answers.
 *
 * Every peer gets a fresh temporary work folder, runs with TZ=UTC (ASMX writes DateTimes it parsed
 * with an offset as local time), and is stopped by stop(); peers a test forgot are stopped when the
 * test process exits.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PEERS } from './peers.js';

/** The peer services with captures and a TypeScript mirror. */
export type AsmxSite = 'echo' | 'rich';
/**
 * Every peer service: also `stamp`, whose answers carry a fresh id and time (the replay tests'
 * noise), `header`, whose operation needs its SOAP header (the conformance header tests), and
 * `status`, the status contract as ASMX publishes it (wsdl/statusapi.wsdl is taken from it).
 */
export type AsmxPeerSite = AsmxSite | 'stamp' | 'header' | 'status';

export interface AsmxPeer {
  /** The service endpoint, e.g. http://127.0.0.1:41234/rich.asmx. */
  readonly url: string;
  /** Scheme, host and port, e.g. http://127.0.0.1:41234. */
  readonly origin: string;
  /** Stops the peer and removes its work folder; safe to call more than once. */
  stop(): Promise<void>;
}

const repoRoot = new URL('../..', import.meta.url);
const hostScript = fileURLToPath(new URL('../shared/asmx-host/asmx-host', repoRoot));

/** The .asmx file each site serves (the site folder's only one). */
const ASMX_FILE: Record<AsmxPeerSite, string> = {
  echo: 'serviceapi.asmx',
  rich: 'rich.asmx',
  stamp: 'stamp.asmx',
  header: 'header.asmx',
  status: 'statusapi.asmx',
};

/** The fixed address the committed WSDL fixtures use in place of the peer's random port. */
export const FIXTURE_ORIGIN = 'http://localhost';

/** Rewrites the peer's own addresses in a served WSDL to the fixed one the fixtures use. */
export function toFixtureAddresses(wsdl: string, origin: string): string {
  return wsdl.split(`"${origin}/`).join(`"${FIXTURE_ORIGIN}/`);
}

function runHost(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(hostScript, args, { env: { ...process.env, TZ: 'UTC' }, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`asmx-host ${args[0] ?? ''} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Work folders of peers not stopped yet, stopped synchronously if the test process exits first. */
const running = new Set<string>();
let exitHookInstalled = false;

function stopOnExit(work: string): void {
  running.add(work);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const dir of running) {
      spawnSync(hostScript, ['stop', '--work', dir], { stdio: 'ignore', timeout: 15_000 });
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** Builds and starts the site's ASMX service on a free port; resolves once its ?WSDL answers. */
export async function startAsmxPeer(site: AsmxPeerSite): Promise<AsmxPeer> {
  const reason = PEERS.asmx.probe();
  if (reason !== undefined) throw new Error(`cannot start the ASMX peer: ${reason}`);
  const siteDir = fileURLToPath(new URL(`test/peers/asmx/${site}`, repoRoot));
  const work = mkdtempSync(join(tmpdir(), `smskit-asmx-${site}-`));
  stopOnExit(work);

  let stopping: Promise<void> | undefined;
  let pid: number | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      try {
        await runHost(['stop', '--work', work]);
      } finally {
        // asmx-host stop waits for the process; make sure of it before the folder goes.
        if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL');
        running.delete(work);
        rmSync(work, { recursive: true, force: true });
      }
    })();
    return stopping;
  };

  let stdout: string;
  try {
    stdout = await runHost(['start', '--site', siteDir, '--work', work]);
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
  // start prints one line: "<pid> http://127.0.0.1:<port>".
  const match = /^(\d+) (http:\/\/\S+)\s*$/.exec(stdout);
  if (match === null) {
    await stop();
    throw new Error(`asmx-host start printed an unexpected line: ${JSON.stringify(stdout)}`);
  }
  pid = Number(match[1]);
  const origin = match[2]!;
  return { url: `${origin}/${ASMX_FILE[site]}`, origin, stop };
}
