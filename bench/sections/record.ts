/**
 * The record section: what `smskit record` costs a client. The generated SMS server (a child
 * process) is called directly and through `smskit record` in front of it (another child, the
 * CLI as users run it, storing every exchange to a temporary folder), in the same run, rounds
 * interleaved: one caller's sequential latency (median and p99 over the four bindings) and the
 * throughput of 16 concurrent callers. The added latency is the recorder's hop: a second
 * keep-alive HTTP exchange on loopback, plus reading the request before forwarding it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BINDINGS, FIXED_INPUT, type HttpRequestSpec, SERVICE_PATH, sendRequest } from '../lib/payloads.js';
import { repoRoot, spawnTracked, stopChild } from '../lib/procs.js';
import { limitRow, ratioRow, type Row, type Settings } from '../lib/report.js';
import { startServer } from '../lib/servers.js';
import { median } from '../lib/stats.js';

const CALLERS = 16;
const SIDES = ['direct', 'recorded'] as const;
type Side = (typeof SIDES)[number];

function startRecorder(upstream: string, out: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawnTracked(process.execPath, [
    join(repoRoot, 'bin', 'smskit.js'),
    'record',
    '--upstream',
    `${upstream}${SERVICE_PATH}`,
    '--listen',
    '0',
    '--out',
    out,
    '--max-files',
    '4',
  ]);
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('smskit record did not start in 30 s')), 30_000);
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      const line = /^(http:\/\/\S+)\n/.exec(text);
      if (line !== null) {
        clearTimeout(timer);
        resolve({ url: line[1]!, child });
      }
    });
    child.on('exit', (code) => reject(new Error(`smskit record exited ${code}`)));
  });
}

async function once(pool: Pool, spec: HttpRequestSpec): Promise<void> {
  const res = await pool.request({
    path: spec.path,
    method: spec.method,
    headers: spec.headers,
    body: spec.body ?? null,
  });
  const body = await res.body.text();
  if (res.statusCode !== 200 || !body.includes('ok-1'))
    throw new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`);
}

const SPECS = BINDINGS.map((b) => sendRequest(b, FIXED_INPUT));

/** One caller, one request at a time, for `seconds`: every latency in ms. */
async function latencies(pool: Pool, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const started = performance.now();
    await once(pool, SPECS[i % SPECS.length]!);
    out.push(performance.now() - started);
  }
  return out;
}

/** CALLERS callers for `seconds`: requests per second. */
async function throughput(pool: Pool, seconds: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, c) => {
      for (let i = c; performance.now() < end; i++) {
        await once(pool, SPECS[i % SPECS.length]!);
        done++;
      }
    }),
  );
  return done / seconds;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
};

export async function runRecordSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const out = mkdtempSync(join(tmpdir(), 'smskit-bench-record-'));
  const children: ChildProcess[] = [];
  const pools: Pool[] = [];
  try {
    const upstream = await startServer('generated');
    children.push(upstream.child);
    const recorder = await startRecorder(upstream.url, join(out, 'rec'));
    children.push(recorder.child);
    const origin: Record<Side, string> = { direct: upstream.url, recorded: recorder.url };
    const pool = (side: Side, connections: number): Pool => {
      const p = new Pool(origin[side], { connections });
      pools.push(p);
      return p;
    };
    const single = { direct: pool('direct', 1), recorded: pool('recorded', 1) };
    const many = { direct: pool('direct', CALLERS), recorded: pool('recorded', CALLERS) };
    for (const side of SIDES) await latencies(single[side], settings.warmupSeconds);
    const lat: Record<Side, number[]> = { direct: [], recorded: [] };
    const medians: Record<Side, number[]> = { direct: [], recorded: [] };
    const rps: Record<Side, number[]> = { direct: [], recorded: [] };
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? SIDES : ([...SIDES].reverse() as Side[]);
      for (const side of order) {
        const values = await latencies(single[side], settings.seconds);
        lat[side].push(...values);
        medians[side].push(median(values));
        rps[side].push(await throughput(many[side], settings.seconds));
      }
      log(
        `  round ${round + 1}: median latency direct ${median(medians.direct).toFixed(3)} ms, recorded ${median(medians.recorded).toFixed(3)} ms; ${CALLERS} callers: ${Math.round(median(rps.direct))} vs ${Math.round(median(rps.recorded))} req/s`,
      );
    }
    const stored = readdirSync(join(out, 'rec')).filter((f) => f.endsWith('.jsonl')).length;
    if (stored === 0) throw new Error('the recorder stored nothing');
    const direct = median(medians.direct);
    const recorded = median(medians.recorded);
    const added = recorded - direct;
    const p99 = { direct: percentile(lat.direct, 0.99), recorded: percentile(lat.recorded, 0.99) };
    return {
      rows: [
        {
          section: 'record',
          name: 'median latency, direct (1 caller, 4 bindings)',
          figure: direct,
          unit: 'ms',
        },
        {
          // A second HTTP hop on loopback cannot cost nothing next to a ~50 µs exchange: the ratio
          // is shown, and the added time itself is what is judged.
          section: 'record',
          name: 'median latency through smskit record',
          figure: recorded,
          unit: 'ms',
          peer: 'direct',
          peerFigure: direct,
          ratio: recorded / direct,
          note: `p99 ${p99.recorded.toFixed(2)} vs ${p99.direct.toFixed(2)} ms`,
        },
        limitRow(
          { section: 'record', name: 'latency the recorder adds (median)', figure: added, unit: 'ms' },
          { below: 0.5 },
        ),
        ratioRow(
          {
            section: 'record',
            name: `throughput through smskit record (${CALLERS} callers)`,
            figure: median(rps.recorded),
            unit: 'req/s',
            peer: 'direct',
            peerFigure: median(rps.direct),
          },
          // On two cores the recorder is a third process sharing them with the callers and the
          // server (its profile under this load: a third idle, a quarter in socket writes).
          { min: 0.33 },
        ),
      ],
      figures: {
        medianLatencyMs: { direct, recorded, added },
        p99LatencyMs: p99,
        requestsPerSecond: { direct: median(rps.direct), recorded: median(rps.recorded) },
        callers: CALLERS,
        exchangesFiles: stored,
      },
    };
  } finally {
    for (const p of pools) await p.close();
    await Promise.all(children.map((c) => stopChild(c)));
    rmSync(out, { recursive: true, force: true });
  }
}
