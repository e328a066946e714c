/**
 * The rich section: the server and client comparisons of sections 1 and 3 on a complex payload
 * (test/fixtures/asmx/rich.wsdl, SOAP 1.1): EchoOrder with an order of 100 nested lines whose
 * Shape is a derived type (xsi:type), and EchoShapes with 100 derived shapes.
 *
 * Server side: the generated server against node-soap's (same WSDL, same echo) and the bare
 * node:http limit replaying the generated server's captured answer, all loaded with the same
 * request bytes. Client side: the generated client against node-soap's client and a raw undici
 * loop, all calling the bare server. Every server and every client is first checked to
 * round-trip the payload whole: a bench that measures errors or lossy echoes is worthless.
 */
import type { ChildProcess } from 'node:child_process';
import type { HttpRequestSpec } from '../lib/payloads.js';
import { ask, cpuSeconds, forkChild, nextMessage, peakRssMb, stopChild } from '../lib/procs.js';
import { RICH_ITEMS, RICH_OPS, type RichOp } from '../lib/rich-payloads.js';
import { echoMismatch, richRequest } from '../lib/rich-wire.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import {
  exchange,
  profileArgs,
  startLoadGenerator,
  startServer,
  type ChildServer,
  type FixedResponses,
  type LoadGenerator,
} from '../lib/servers.js';
import { median } from '../lib/stats.js';

const MODULE = 'rich-server.ts';
const CLIENT_KINDS = ['generated', 'node-soap', 'undici'] as const;
const CALLERS = 32;
type Log = (line: string) => void;
type Series = Map<string, number[]>;

const push = (series: Series, key: string, value: number): void =>
  void (series.get(key) ?? series.set(key, []).get(key)!).push(value);
const med = (series: Series, key: string): number => median(series.get(key) ?? []);
/** The median of the per-round ratios a/b: rounds are interleaved, so this is the steadier ratio when the machine's load drifts. */
const roundRatio = (series: Series, a: string, b: string): number => {
  const bs = series.get(b) ?? [];
  return median((series.get(a) ?? []).map((value, i) => value / bs[i]!));
};

export async function runRichSection(
  settings: Settings,
  log: Log,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const requests = new Map(RICH_OPS.map((op) => [op, richRequest(op)] as const));
  const generated = await startServer('generated', undefined, MODULE);
  const others: ChildProcess[] = [];
  try {
    const responses = await captureEchoes(generated.url, requests);
    const nodeSoap = await startServer('node-soap', undefined, MODULE);
    const bare = await startServer('bare', responses, MODULE);
    others.push(nodeSoap.child, bare.child);
    for (const server of [nodeSoap, bare]) await checkEchoes(server, requests);
    const load = await startLoadGenerator();
    others.push(load.child);
    const server = await measureServers([generated, bare, nodeSoap], requests, load, settings, log);
    await Promise.all([nodeSoap.child, load.child].map((c) => stopChild(c)));
    const client = await measureClients(generated.url, bare.url, settings, log);
    const sizes = Object.fromEntries(
      RICH_OPS.map((op) => [
        op,
        {
          requestBytes: Buffer.byteLength(requests.get(op)!.body!),
          responseBytes: Buffer.byteLength(responses[actionOf(requests.get(op)!)]!.body),
        },
      ]),
    );
    return {
      rows: [...serverRows(server), ...clientRows(client)],
      figures: {
        items: RICH_ITEMS,
        sizes,
        server: {
          rps: Object.fromEntries(server.rps),
          p99Ms: Object.fromEntries(server.p99),
          requestsPerCpuSecond: Object.fromEntries(server.perCpu),
          generatedPeakRssMb: server.rssMb,
        },
        client: {
          callers: CALLERS,
          callsPerSecond: Object.fromEntries(client.cps),
          callsPerCpuSecond: Object.fromEntries(client.perCpu),
        },
      },
    };
  } finally {
    await Promise.all([generated.child, ...others].map((c) => stopChild(c)));
  }
}

const actionOf = (request: HttpRequestSpec): string => request.headers.soapaction!;

/** The generated server's answers, checked to be correct echoes: the bare server replays these bytes. */
async function captureEchoes(url: string, requests: ReadonlyMap<RichOp, HttpRequestSpec>): Promise<FixedResponses> {
  const out: FixedResponses = {};
  for (const [op, request] of requests) {
    const r = await exchange(url, request);
    const mismatch = echoMismatch(op, r.status, r.contentType, r.body);
    if (mismatch !== undefined) throw new Error(`generated rich server, ${op}: ${mismatch}`);
    out[actionOf(request)] = { contentType: r.contentType, body: r.body };
  }
  return out;
}

async function checkEchoes(server: ChildServer, requests: ReadonlyMap<RichOp, HttpRequestSpec>): Promise<void> {
  for (const [op, request] of requests) {
    const r = await exchange(server.url, request);
    const mismatch = echoMismatch(op, r.status, r.contentType, r.body);
    if (mismatch !== undefined) throw new Error(`${server.kind} rich server, ${op}: ${mismatch}`);
  }
}

interface ServerFigures {
  readonly rps: Series;
  readonly p99: Series;
  readonly perCpu: Series;
  readonly rssMb: number | undefined;
}

/** Rounds interleaved over every server and operation, so machine noise falls on every side alike. */
async function measureServers(
  servers: readonly ChildServer[],
  requests: ReadonlyMap<RichOp, HttpRequestSpec>,
  load: LoadGenerator,
  settings: Settings,
  log: Log,
): Promise<ServerFigures> {
  const sides = RICH_OPS.flatMap((op) => servers.map((server) => ({ op, server, key: `${server.kind}/${op}` })));
  const measure = async (side: (typeof sides)[number], seconds: number) => {
    const before = cpuSeconds(side.server.child.pid);
    const r = await load.run({
      url: side.server.url,
      request: requests.get(side.op)!,
      connections: settings.connections,
      seconds,
    });
    const after = cpuSeconds(side.server.child.pid);
    const perCpuSecond =
      before === undefined || after === undefined || after === before ? Number.NaN : r.ok / (after - before);
    return { ...r, perCpuSecond };
  };
  for (const side of sides) await measure(side, settings.warmupSeconds);
  const figures: ServerFigures = { rps: new Map(), p99: new Map(), perCpu: new Map(), rssMb: undefined };
  for (let round = 0; round < settings.rounds; round++) {
    for (const side of sides) {
      const r = await measure(side, settings.seconds);
      if (r.failures > 0) throw new Error(`${side.key}: ${r.failures} failed requests under load`);
      push(figures.rps, side.key, r.rps);
      push(figures.p99, side.key, r.p99Ms);
      push(figures.perCpu, side.key, r.perCpuSecond);
      log(
        `  rich server ${side.key} round ${round + 1}: ${Math.round(r.rps)} req/s, p99 ${r.p99Ms} ms, ${Math.round(r.perCpuSecond)} req per server CPU-second`,
      );
    }
  }
  return { ...figures, rssMb: peakRssMb(servers.find((s) => s.kind === 'generated')?.child.pid) };
}

async function startClient(kind: string): Promise<ChildProcess> {
  const child = await forkChild('rich-client.ts', [kind], profileArgs(`rich-client-${kind}`));
  await nextMessage(child, 30_000, `${kind} rich client start`);
  return child;
}

interface ClientFigures {
  readonly cps: Series;
  /** Calls per CPU-second of the client process. */
  readonly perCpu: Series;
}

/** Each client is checked against the echoing generated server, then measured against the bare one. */
async function measureClients(echoUrl: string, bareUrl: string, settings: Settings, log: Log): Promise<ClientFigures> {
  const children = new Map<string, ChildProcess>();
  try {
    for (const kind of CLIENT_KINDS) {
      const child = await startClient(kind);
      children.set(kind, child);
      const { mismatch } = await ask<{ mismatch?: string }>(
        child,
        { check: echoUrl },
        60_000,
        `${kind} rich client check`,
      );
      if (mismatch !== undefined) throw new Error(`${kind} rich client: ${mismatch}`);
    }
    const run = async (kind: string, op: RichOp, seconds: number): Promise<{ cps: number; perCpuSecond: number }> => {
      const child = children.get(kind)!;
      const before = cpuSeconds(child.pid);
      const r = await ask<{ cps: number; failures: number; error?: string }>(
        child,
        { url: bareUrl, op, seconds, callers: CALLERS },
        (seconds + 30) * 1000,
        `${kind} rich client`,
      );
      const after = cpuSeconds(child.pid);
      if (r.error !== undefined || r.failures > 0)
        throw new Error(`${kind} rich client, ${op}: ${r.failures} failed calls: ${r.error ?? ''}`);
      const perCpuSecond =
        before === undefined || after === undefined || after === before
          ? Number.NaN
          : (r.cps * seconds) / (after - before);
      return { cps: r.cps, perCpuSecond };
    };
    for (const op of RICH_OPS) for (const kind of CLIENT_KINDS) await run(kind, op, settings.warmupSeconds);
    const figures: ClientFigures = { cps: new Map(), perCpu: new Map() };
    for (let round = 0; round < settings.rounds; round++) {
      for (const op of RICH_OPS) {
        for (const kind of CLIENT_KINDS) {
          const r = await run(kind, op, settings.seconds);
          push(figures.cps, `${kind}/${op}`, r.cps);
          push(figures.perCpu, `${kind}/${op}`, r.perCpuSecond);
          log(
            `  rich client ${kind}/${op} round ${round + 1}: ${Math.round(r.cps)} calls/s, ${Math.round(r.perCpuSecond)} calls per client CPU-second`,
          );
        }
      }
    }
    return figures;
  } finally {
    await Promise.all([...children.values()].map((c) => stopChild(c)));
  }
}

const roundNote = (series: Series, a: string, b: string): string =>
  `median of the per-round ratios: ${roundRatio(series, a, b).toFixed(2)}x`;

function serverRows(f: ServerFigures): Row[] {
  const rows: Row[] = [];
  for (const op of RICH_OPS) {
    const ours = med(f.rps, `generated/${op}`);
    const base = { section: 'rich', name: `generated server ${op} req/s`, figure: ours, unit: 'req/s' };
    rows.push(
      ratioRow(
        {
          ...base,
          peer: `node-soap ${op}`,
          peerFigure: med(f.rps, `node-soap/${op}`),
          note: roundNote(f.rps, `generated/${op}`, `node-soap/${op}`),
        },
        { min: 5 },
      ),
    );
    const bare = med(f.rps, `bare/${op}`);
    rows.push({
      ...base,
      peer: `bare ${op}`,
      peerFigure: bare,
      ratio: ours / bare,
      note: 'the bare server replays the captured answer: the most any server reaches here',
    });
    const cpu = (k: string): number => med(f.perCpu, `${k}/${op}`);
    rows.push({
      section: 'rich',
      name: `generated server ${op} req per CPU-s`,
      figure: cpu('generated'),
      unit: 'req',
      peer: `node-soap ${op}`,
      peerFigure: cpu('node-soap'),
      ratio: cpu('generated') / cpu('node-soap'),
    });
    rows.push({
      section: 'rich',
      name: `generated server ${op} p99`,
      figure: med(f.p99, `generated/${op}`),
      unit: 'ms',
      peer: `node-soap ${op}`,
      peerFigure: med(f.p99, `node-soap/${op}`),
    });
  }
  return rows;
}

function clientRows(f: ClientFigures): Row[] {
  const rows: Row[] = [];
  for (const op of RICH_OPS) {
    const base = {
      section: 'rich',
      name: `generated client ${op} calls/s`,
      figure: med(f.cps, `generated/${op}`),
      unit: 'calls/s',
    };
    rows.push(
      ratioRow(
        {
          ...base,
          peer: `node-soap client ${op}`,
          peerFigure: med(f.cps, `node-soap/${op}`),
          note: roundNote(f.cps, `generated/${op}`, `node-soap/${op}`),
        },
        { min: 5 },
      ),
    );
    const undici = med(f.cps, `undici/${op}`);
    rows.push({
      ...base,
      peer: `raw undici ${op}`,
      peerFigure: undici,
      ratio: base.figure / undici,
      note: 'prebuilt bytes, response read as text: the limit of any client',
    });
    const cpu = (k: string): number => med(f.perCpu, `${k}/${op}`);
    rows.push({
      section: 'rich',
      name: `generated client ${op} calls per CPU-s`,
      figure: cpu('generated'),
      unit: 'calls',
      peer: `node-soap client ${op}`,
      peerFigure: cpu('node-soap'),
      ratio: cpu('generated') / cpu('node-soap'),
    });
  }
  return rows;
}
