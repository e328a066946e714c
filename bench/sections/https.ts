/**
 * The HTTPS section: what TLS costs the generated server and client, against the same limits
 * over TLS measured in the same run. Certificates are made with openssl for the run
 * (test/helpers/certificates.ts). Server: `listen` with `tls` (the generated listener, fixed
 * result) against a bare node:https server replaying its answers as prebuilt bytes, autocannon
 * over keep-alive TLS connections, one SMSSend per binding. Client: the generated client with
 * `tls.ca` against a raw undici Pool with the same CA, both calling the bare HTTPS server.
 * Rounds are interleaved, as in the other sections.
 */
import type { ChildProcess } from 'node:child_process';
import { Agent } from 'undici';
import type { Protocol } from '../../runtime/index.js';
import { freshCertificates } from '../../test/helpers/certificates.js';
import { PEERS } from '../../test/helpers/peers.js';
import { BINDINGS, FIXED_INPUT, sendRequest } from '../lib/payloads.js';
import { ask, cpuSeconds, forkChild, nextMessage, stopChild } from '../lib/procs.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import {
  captureResponses,
  type ChildServer,
  exchange,
  type LoadGenerator,
  startLoadGenerator,
  startServer,
} from '../lib/servers.js';
import { median } from '../lib/stats.js';

const CALLERS = 32;
const CLIENT_KINDS = ['generated', 'undici'] as const;

interface Side {
  readonly server: ChildServer;
  readonly binding: Protocol;
}

export async function runHttpsSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const skip = PEERS.openssl.probe();
  if (skip !== undefined) throw new Error(skip);
  const certs = freshCertificates();
  const tls = { certFile: certs.server.certFile, keyFile: certs.server.keyFile };
  const trusting = new Agent({ connect: { ca: certs.ca } });
  const children: ChildProcess[] = [];
  try {
    const generated = await startServer('generated', undefined, 'server.ts', tls);
    children.push(generated.child);
    const bare = await startServer('bare', await captureResponses(generated.url, trusting), 'server.ts', tls);
    children.push(bare.child);
    const load = await startLoadGenerator();
    children.push(load.child);
    const sides = await checkSides([generated, bare], trusting);
    const server = await measureServers(sides, load, settings, log);
    const clients = await measureClients(bare.url, certs.caFile, settings, log, children);
    return {
      rows: [...serverRows(server.rps), ...clientRows(clients)],
      figures: {
        rps: Object.fromEntries(server.rps),
        p99Ms: Object.fromEntries(server.p99),
        requestsPerCpuSecond: Object.fromEntries(server.perCpu),
        clientCallsPerSecond: Object.fromEntries(clients),
        callers: CALLERS,
      },
    };
  } finally {
    await Promise.all(children.map((c) => stopChild(c)));
    await trusting.close();
    certs.remove();
  }
}

/** Both servers answer every binding with 200 and the fixed result before anything is measured. */
async function checkSides(servers: readonly ChildServer[], dispatcher: Agent): Promise<Side[]> {
  const out: Side[] = [];
  for (const binding of BINDINGS)
    for (const server of servers) {
      const r = await exchange(server.url, sendRequest(binding, FIXED_INPUT), dispatcher);
      if (r.status !== 200 || !r.body.includes('ok-1'))
        throw new Error(`${server.kind} HTTPS server, ${binding}: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
      out.push({ server, binding });
    }
  return out;
}

const keyOf = (s: Side): string => `${s.server.kind}/${s.binding}`;

async function measureServers(
  sides: readonly Side[],
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rps: Map<string, number[]>; p99: Map<string, number[]>; perCpu: Map<string, number[]> }> {
  const measure = async (s: Side, seconds: number) => {
    const before = cpuSeconds(s.server.child.pid);
    const r = await load.run({
      url: s.server.url,
      request: sendRequest(s.binding, FIXED_INPUT),
      connections: settings.connections,
      seconds,
    });
    const after = cpuSeconds(s.server.child.pid);
    const perCpuSecond =
      before === undefined || after === undefined || after === before ? Number.NaN : r.ok / (after - before);
    return { ...r, perCpuSecond };
  };
  for (const s of sides) await measure(s, settings.warmupSeconds);
  const rps = new Map<string, number[]>(sides.map((s) => [keyOf(s), []]));
  const p99 = new Map<string, number[]>(sides.map((s) => [keyOf(s), []]));
  const perCpu = new Map<string, number[]>(sides.map((s) => [keyOf(s), []]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const s of sides) {
      const r = await measure(s, settings.seconds);
      if (r.failures > 0) throw new Error(`https ${keyOf(s)}: ${r.failures} failed requests under load`);
      rps.get(keyOf(s))!.push(r.rps);
      p99.get(keyOf(s))!.push(r.p99Ms);
      perCpu.get(keyOf(s))!.push(r.perCpuSecond);
      log(`  https server ${keyOf(s)} round ${round + 1}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms} ms`);
    }
  }
  return { rps, p99, perCpu };
}

async function measureClients(
  bareUrl: string,
  caFile: string,
  settings: Settings,
  log: (line: string) => void,
  children: ChildProcess[],
): Promise<Map<string, number[]>> {
  const clients = new Map<string, ChildProcess>();
  for (const kind of CLIENT_KINDS) {
    const child = await forkChild('client.ts', [kind, bareUrl, caFile]);
    children.push(child);
    await nextMessage(child, 30_000, `${kind} HTTPS client start`);
    clients.set(kind, child);
  }
  const run = async (kind: string, seconds: number): Promise<number> => {
    const r = await ask<{ cps: number; failures: number; error?: string }>(
      clients.get(kind)!,
      { seconds, callers: CALLERS },
      (seconds + 30) * 1000,
      `${kind} HTTPS client`,
    );
    if (r.error !== undefined || r.failures > 0)
      throw new Error(`${kind} HTTPS client: ${r.error ?? `${r.failures} failed calls`}`);
    return r.cps;
  };
  for (const kind of CLIENT_KINDS) await run(kind, settings.warmupSeconds);
  const cps = new Map<string, number[]>(CLIENT_KINDS.map((k) => [k, []]));
  for (let round = 0; round < settings.rounds; round++)
    for (const kind of CLIENT_KINDS) {
      const value = await run(kind, settings.seconds);
      cps.get(kind)!.push(value);
      log(`  https client ${kind} round ${round + 1}: ${Math.round(value)} calls/s`);
    }
  return cps;
}

function serverRows(rps: Map<string, number[]>): Row[] {
  const m = (k: string): number => median(rps.get(k) ?? []);
  return BINDINGS.map((binding) =>
    ratioRow(
      {
        section: 'https',
        name: `generated ${binding} over HTTPS req/s`,
        figure: m(`generated/${binding}`),
        unit: 'req/s',
        peer: `bare node:https ${binding}`,
        peerFigure: m(`bare/${binding}`),
      },
      { min: 0.7 },
    ),
  );
}

function clientRows(cps: Map<string, number[]>): Row[] {
  const m = (k: string): number => median(cps.get(k) ?? []);
  return [
    ratioRow(
      {
        section: 'https',
        name: 'generated client soap11 over HTTPS calls/s',
        figure: m('generated'),
        unit: 'calls/s',
        peer: 'raw undici over HTTPS',
        peerFigure: m('undici'),
      },
      { min: 0.7 },
    ),
  ];
}
