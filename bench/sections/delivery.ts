/**
 * The delivery section: `smskit serve --routes` delivering over SMPP to the SMSC simulator
 * (`startSmsc` in its own process), window 10. Messages are sent over HTTP POST at full load for
 * a few seconds; then the run waits until every acknowledged message has its receipt. Every
 * figure is read back from the outbox and its history (durable state writes, as served):
 *   - acceptance msg/s with delivery running beside it (the load generator's 2xx rate), against
 *     the same load on `smskit serve` without routes in the same run;
 *   - end to end msg/s: messages / (last receipt recorded − first acceptance);
 *   - accepted msg/s: messages / (last `accepted` − first acceptance);
 *   - p50/p99 acceptance → accepted latency per message;
 * a run with every state change fsynced; and a run with a throughput cap of 100 msg/s on the
 * route: the submit rate once every message is queued (the route, not the arrivals, sets the
 * pace then) and that no message failed for throttling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Pool } from 'undici';
import { sendRequest } from '../lib/payloads.js';
import { stopChild } from '../lib/procs.js';
import { limitRow, ratioRow, type Row, type Settings } from '../lib/report.js';
import { median, roundOrder } from '../lib/stats.js';
import { ACCOUNT_INPUT, startService } from '../lib/serve.js';
import { startLoadGenerator } from '../lib/servers.js';
import { forkBenchSmsc, ROUTES_ENV, smscPort, writeBenchRoutes } from '../lib/smsc.js';

interface Timeline {
  readonly messages: number;
  readonly byState: Record<string, number>;
  readonly endToEndPerSecond: number;
  readonly acceptedPerSecond: number;
  readonly p50AcceptedMs: number;
  readonly p99AcceptedMs: number;
  readonly submitPerSecond: number;
  /** When the last message's receipt was recorded (ms since the epoch). */
  readonly lastDeliveredAt: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * What the outbox says about the run, once every message is final: the messages created at
 * `since` or later (the warm-up's were all final before it).
 */
function timeline(db: string, since = 0): Timeline {
  const handle = new Database(db, { readonly: true });
  try {
    const messages =
      handle.prepare<[number], { n: number }>('SELECT count(*) AS n FROM outbox WHERE created_at >= ?').get(since)?.n ??
      0;
    const byState = Object.fromEntries(
      handle
        .prepare<[number], { state: string; n: number }>(
          'SELECT state, count(*) AS n FROM outbox WHERE created_at >= ? GROUP BY state',
        )
        .all(since)
        .map((r) => [r.state, r.n]),
    );
    const first =
      handle
        .prepare<[number], { t: number }>('SELECT min(created_at) AS t FROM outbox WHERE created_at >= ?')
        .get(since)?.t ?? 0;
    const lastOf = (state: string): number =>
      handle
        .prepare<[string, number], { t: number }>('SELECT max(at) AS t FROM outbox_events WHERE state = ? AND at >= ?')
        .get(state, since)?.t ?? 0;
    const latencies = handle
      .prepare<[number], { ms: number }>(
        `SELECT e.at - o.created_at AS ms FROM outbox o JOIN outbox_events e ON e.message_id = o.id
         WHERE e.state = 'accepted' AND o.created_at >= ? ORDER BY ms`,
      )
      .all(since)
      .map((r) => r.ms);
    // The pace once every message is in the queue (the route, not the arrivals, sets it then).
    const lastCreated = handle.prepare<[], { t: number }>('SELECT max(created_at) AS t FROM outbox').get()?.t ?? 0;
    const paced = handle
      .prepare<[number], { at: number }>(`SELECT at FROM outbox_events WHERE state = 'accepted' AND at > ? ORDER BY at`)
      .all(lastCreated)
      .map((r) => r.at);
    const pacedSpan = ((paced.at(-1) ?? 0) - (paced[0] ?? 0)) / 1000;
    return {
      messages,
      byState,
      endToEndPerSecond: messages / ((lastOf('delivered') - first) / 1000),
      acceptedPerSecond: messages / ((lastOf('accepted') - first) / 1000),
      p50AcceptedMs: percentile(latencies, 50),
      p99AcceptedMs: percentile(latencies, 99),
      submitPerSecond: (paced.length - 1) / pacedSpan,
      lastDeliveredAt: lastOf('delivered'),
    };
  } finally {
    handle.close();
  }
}

async function waitUntilFinal(db: string, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = new Database(db, { readonly: true });
    const open =
      handle
        .prepare<[], { n: number }>(`SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'sending', 'accepted')`)
        .get()?.n ?? 0;
    const all = handle.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox').get()?.n ?? 0;
    handle.close();
    if (open === 0 && all >= expected) return;
    if (Date.now() > deadline) throw new Error(`${open} of ${all} messages still not final after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function undelivered(x: Timeline): number {
  return x.messages - (x.byState.delivered ?? 0);
}

/**
 * Sends `count` messages over HTTP POST, `concurrency` at a time, on as many keep-alive
 * connections; returns how many were acknowledged. (`fetch` cost this process ~750 µs of CPU a
 * request, more than the service it loads.)
 */
export async function sendCount(origin: string, count: number, concurrency: number): Promise<number> {
  const request = sendRequest('http-post', ACCOUNT_INPUT);
  const pool = new Pool(origin, { connections: concurrency });
  let next = 0;
  let ok = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const response = await pool.request({
        path: request.path,
        method: 'POST',
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} while filling the queue`);
      ok++;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  return ok;
}

type Load =
  | {
      readonly kind: 'timed';
      readonly seconds: number;
      readonly connections: number;
      /** The same load for this long first, every message of it final before the measured load starts. */
      readonly warmupSeconds?: number;
    }
  | { readonly kind: 'count'; readonly count: number };

export type { Load, Timeline };

/**
 * One delivery run on a fresh database. `serveArgs` are added to serve's; `ready` runs once the
 * service listens and before the load starts (the callbacks section gives the account its receiver).
 */
export async function run(
  throughput: number,
  loadSpec: Load,
  stateDurability: 'normal' | 'full' = 'normal',
  extra: {
    serveArgs?: readonly string[];
    ready?: (db: string) => Promise<void>;
    /** Runs once every message is final, before the service stops (e.g. waits for the callbacks). */
    final?: (acknowledged: number) => Promise<void>;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-delivery-'));
  const smsc = await forkBenchSmsc();
  try {
    const routes = writeBenchRoutes(dir, await smscPort(smsc), { throughput, stateDurability });
    const service = await startService(['--routes', routes, ...(extra.serveArgs ?? [])], ROUTES_ENV, dir);
    const load = await startLoadGenerator();
    try {
      await extra.ready?.(service.db);
      let warmedUp = 0;
      if (loadSpec.kind === 'timed' && loadSpec.warmupSeconds !== undefined) {
        const warm = await load.run({
          url: service.origin,
          request: sendRequest('http-post', ACCOUNT_INPUT),
          connections: loadSpec.connections,
          seconds: loadSpec.warmupSeconds,
        });
        warmedUp = warm.ok;
        await waitUntilFinal(service.db, warmedUp, 120_000);
      }
      // Ids and creation times come from the service's clock, the same machine's.
      const measuredFrom = Date.now();
      const r =
        loadSpec.kind === 'timed'
          ? await load.run({
              url: service.origin,
              request: sendRequest('http-post', ACCOUNT_INPUT),
              connections: loadSpec.connections,
              seconds: loadSpec.seconds,
            })
          : {
              rps: Number.NaN,
              p99Ms: Number.NaN,
              failures: 0,
              ok: await sendCount(service.origin, loadSpec.count, 16),
            };
      if (r.failures > 0) throw new Error(`${r.failures} failed requests under load`);
      await waitUntilFinal(service.db, warmedUp + r.ok, 120_000 + (throughput > 0 ? (r.ok / throughput) * 1000 : 0));
      await extra.final?.(r.ok);
      await service.stop();
      return {
        acceptedRps: r.rps,
        acknowledged: r.ok,
        p99HttpMs: r.p99Ms,
        timeline: timeline(service.db, measuredFrom),
      };
    } finally {
      load.child.kill('SIGTERM');
      await service.cleanup();
    }
  } finally {
    await stopChild(smsc);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same load on `smskit serve` without routes: what acceptance alone reaches in this run. */
async function acceptanceAlone(settings: Settings): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-delivery-'));
  const service = await startService([], {}, dir);
  const load = await startLoadGenerator();
  try {
    const spec = {
      url: service.origin,
      request: sendRequest('http-post', ACCOUNT_INPUT),
      connections: settings.connections,
    };
    await load.run({ ...spec, seconds: settings.warmupSeconds });
    const r = await load.run({ ...spec, seconds: settings.seconds });
    if (r.failures > 0) throw new Error(`${r.failures} failed requests under load`);
    return r.rps;
  } finally {
    load.child.kill('SIGTERM');
    await service.cleanup();
  }
}

/** Rounds of acceptance alone and with delivery, interleaved: half the bench's rounds (3 by default), at least one. */
export function deliveryRounds(settings: Settings): number {
  return Math.max(1, Math.ceil(settings.rounds / 2));
}

export async function runDeliverySection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const timed = {
    kind: 'timed',
    seconds: settings.seconds,
    connections: settings.connections,
    warmupSeconds: settings.warmupSeconds,
  } as const;
  // Interleaved, in alternating order, so the machine's drift falls on both alike; the figures
  // are the rounds' medians (a single pair read 0.44x to 0.52x on one quiet evening).
  const alones: number[] = [];
  const fulls: Awaited<ReturnType<typeof run>>[] = [];
  for (let round = 0; round < deliveryRounds(settings); round++) {
    for (const side of roundOrder(['alone', 'delivery'] as const, round)) {
      if (side === 'alone') {
        alones.push(await acceptanceAlone(settings));
        log(`  round ${round + 1}, acceptance without routes: ${Math.round(alones.at(-1) ?? 0)} msg/s`);
        continue;
      }
      const one = await run(0, timed);
      fulls.push(one);
      const t = one.timeline;
      log(
        `  round ${round + 1}, delivery: ${one.acknowledged} acknowledged at ${Math.round(one.acceptedRps)} msg/s; end to end ${Math.round(t.endToEndPerSecond)} msg/s, accepted ${Math.round(t.acceptedPerSecond)} msg/s, p99 accept→accepted ${t.p99AcceptedMs} ms; states ${JSON.stringify(t.byState)}`,
      );
    }
  }
  const alone = median(alones);
  const acceptedRps = median(fulls.map((r) => r.acceptedRps));
  const t: Timeline = {
    messages: Math.max(...fulls.map((r) => r.timeline.messages)),
    byState: {},
    endToEndPerSecond: median(fulls.map((r) => r.timeline.endToEndPerSecond)),
    acceptedPerSecond: median(fulls.map((r) => r.timeline.acceptedPerSecond)),
    p50AcceptedMs: median(fulls.map((r) => r.timeline.p50AcceptedMs)),
    p99AcceptedMs: median(fulls.map((r) => r.timeline.p99AcceptedMs)),
    submitPerSecond: median(fulls.map((r) => r.timeline.submitPerSecond)),
    lastDeliveredAt: Math.max(...fulls.map((r) => r.timeline.lastDeliveredAt)),
  };
  const undeliveredInRounds = fulls.reduce((sum, r) => sum + undelivered(r.timeline), 0);
  const fsynced = await run(0, timed, 'full');
  const f = fsynced.timeline;
  log(
    `  delivery, stateDurability full: end to end ${Math.round(f.endToEndPerSecond)} msg/s, p99 accept→accepted ${f.p99AcceptedMs} ms`,
  );
  // A backlog well above the cap, so the route (not the arrivals) sets the pace: 100 msg/s for ~6 s.
  const capped = await run(100, { kind: 'count', count: 600 });
  const c = capped.timeline;
  log(
    `  delivery, capped at 100 msg/s: ${capped.acknowledged} messages submitted at ${c.submitPerSecond.toFixed(1)} msg/s; states ${JSON.stringify(c.byState)}`,
  );
  const rows: Row[] = [
    limitRow(
      { section: 'delivery', name: 'end to end (HTTP → delivered)', figure: t.endToEndPerSecond, unit: 'msg/s' },
      { min: 5000 },
    ),
    { section: 'delivery', name: 'HTTP → accepted by the SMSC', figure: t.acceptedPerSecond, unit: 'msg/s' },
    ratioRow(
      {
        section: 'delivery',
        name: 'acceptance with delivery beside it',
        figure: acceptedRps,
        unit: 'msg/s',
        peer: 'no routes',
        peerFigure: alone,
      },
      { min: 0.5 },
    ),
    { section: 'delivery', name: 'p99 acceptance → accepted', figure: t.p99AcceptedMs, unit: 'ms' },
    {
      section: 'delivery',
      name: 'end to end, every state change fsynced',
      figure: f.endToEndPerSecond,
      unit: 'msg/s',
      peer: 'default (normal)',
      peerFigure: t.endToEndPerSecond,
      ratio: f.endToEndPerSecond / t.endToEndPerSecond,
    },
    limitRow(
      {
        section: 'delivery',
        name: 'not delivered (full load, every round)',
        figure: undeliveredInRounds,
        unit: 'messages',
      },
      { below: 1 },
    ),
    limitRow(
      {
        section: 'delivery',
        name: 'submit rate under a 100 msg/s cap',
        figure: Math.abs(c.submitPerSecond - 100),
        unit: 'msg/s off',
        note: `${c.submitPerSecond.toFixed(1)} msg/s`,
      },
      { below: 5 },
    ),
    limitRow(
      { section: 'delivery', name: 'not delivered under the cap', figure: undelivered(c), unit: 'messages' },
      { below: 1 },
    ),
  ];
  return { rows, figures: { alones, rounds: fulls, fsynced, capped } };
}
