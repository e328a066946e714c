/**
 * What an accepted message costs `smskit serve` without routes: the load generator's HTTP POST
 * `SMSSend` (32 connections) for a few 4-second runs after a warm-up, and the CPU each process and
 * each of serve's threads spent per acknowledged request (user + system, from /proc).
 *   npx tsx bench/profile-acceptance.ts [runs]
 * BENCH_PROFILE=<dir> also writes serve's --cpu-prof profiles into <dir>/serve.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sendRequest } from './lib/payloads.js';
import { cpuSeconds, installCleanup } from './lib/procs.js';
import { ACCOUNT_INPUT, startService } from './lib/serve.js';
import { startLoadGenerator } from './lib/servers.js';

installCleanup();
const runs = Number(process.argv[2] ?? 3);
const SECONDS = 4;

/** CPU seconds per thread of a live process, by name (the event loop is `main`). */
function threadCpu(pid: number): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = task === String(pid) ? 'main' : `thread ${task}`;
      byThread.set(name, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byThread;
}

const service = await startService([], {}, mkdtempSync(join(tmpdir(), 'smskit-profile-acceptance-')));
const load = await startLoadGenerator();
const request = sendRequest('http-post', ACCOUNT_INPUT);
const servePid = service.child.pid!;
const loadPid = load.child.pid!;
try {
  await load.run({ url: service.origin, request, connections: 32, seconds: 1 });
  for (let run = 0; run < runs; run++) {
    const threadsBefore = threadCpu(servePid);
    const [serveBefore, loadBefore] = [cpuSeconds(servePid)!, cpuSeconds(loadPid)!];
    const r = await load.run({ url: service.origin, request, connections: 32, seconds: SECONDS });
    const [serveAfter, loadAfter] = [cpuSeconds(servePid)!, cpuSeconds(loadPid)!];
    const perRequest = (seconds: number) => `${((seconds / r.ok) * 1e6).toFixed(1)} µs`;
    const threads = [...threadCpu(servePid)]
      .map(([name, seconds]) => [name, seconds - (threadsBefore.get(name) ?? 0)] as const)
      .filter(([, seconds]) => seconds > 0)
      .map(([name, seconds]) => `${name} ${perRequest(seconds)}`);
    console.log(
      `${r.rps.toFixed(0)} req/s: serve ${perRequest(serveAfter - serveBefore)} per request (${threads.join(', ')}), ` +
        `load generator ${perRequest(loadAfter - loadBefore)}`,
    );
  }
} finally {
  load.child.kill('SIGTERM');
  await service.cleanup();
}
