/**
 * The gateway section: `smskit serve --routes` against Debian's Kannel, the gateway an operator
 * would otherwise run, on the same SMSC simulator and under the same HTTP load. Each side has its
 * own simulator process (same program, same settings: receipts on, no throttle), because the
 * simulator sends a receipt to the first session bound with its system_id and both sides bind as
 * the same ESME. smskit: one SMPP route, window 10, sends by HTTP GET (SMSSend). Kannel
 * (lib/kannel.ts): one transceiver, max-pending-submits 10, spool store, sends by smsbox's
 * /cgi-bin/sendsms with dlr-mask 1 (delivered) reported to a counting server
 * (lib/dlr-counter.ts). Interleaved rounds after a warm-up of each; per side and round:
 *   - acknowledged msg/s: the load generator's 2xx rate;
 *   - delivered msg/s: messages received by the SMSC ÷ (its last one − load start);
 *   - receipts recorded: smskit, messages of the round that reached `delivered` in its outbox;
 *     Kannel, type-1 delivery reports at its dlr-url;
 *   - p99 acceptance → accepted: smskit, acceptance → `accepted` in the outbox history; Kannel,
 *     in one more round with dlr-mask 9, request sent → its type-8 report (SMSC acknowledgement;
 *     includes the HTTP callback's own delay).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import { firstIdAt } from '../../service/store/ids.js';
import { type HttpRequestSpec, sendRequest } from '../lib/payloads.js';
import { stopChild, untilQuiet } from '../lib/procs.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import { ACCOUNT_INPUT, startService } from '../lib/serve.js';
import { type LoadGenerator, startLoadGenerator } from '../lib/servers.js';
import { BENCH_SMPP, forkBenchSmsc, ROUTES_ENV, smscPort, smscReport, writeBenchRoutes } from '../lib/smsc.js';
import { median, roundOrder } from '../lib/stats.js';
import { kannelPath, startKannel } from '../lib/kannel.js';
import { type DlrCounter, startDlrCounter } from '../lib/dlr-counter.js';

interface Sample {
  readonly acknowledged: number;
  readonly acknowledgedPerSecond: number;
  readonly received: number;
  readonly deliveredPerSecond: number;
  readonly receipts: number;
  readonly p99AcceptedMs: number;
}

/** What the side itself recorded for the messages sent since `since` (ms), once it has settled. */
interface SideRecord {
  readonly receipts: number;
  readonly p99AcceptedMs: number;
  /** True once every message the SMSC received has its final receipt recorded. */
  readonly settled: boolean;
}

interface Side {
  readonly name: 'smskit' | 'Kannel';
  readonly origin: string;
  readonly request: HttpRequestSpec;
  readonly stampAfter?: string;
  /** A request that also reports acceptance, for one more round that only times it (Kannel). */
  readonly latencyRequest?: HttpRequestSpec;
  readonly smsc: ChildProcess;
  readonly pids: readonly (number | undefined)[];
  record(since: number, received: number): SideRecord;
}

/** How long a count may stand still before the round is taken as settled (lost messages). */
const QUIET_MS = 3_000;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** smskit's own record of the round, from its outbox (messages created since `since`). */
function outboxRecord(db: string, since: number, received: number): SideRecord {
  const handle = new Database(db, { readonly: true });
  try {
    const from = firstIdAt(since);
    const states = handle
      .prepare<[string], { state: string; n: number }>(
        'SELECT state, count(*) AS n FROM outbox WHERE id >= ? GROUP BY state',
      )
      .all(from);
    const count = (state: string): number => states.find((s) => s.state === state)?.n ?? 0;
    const open = count('queued') + count('sending') + count('accepted');
    const latencies = handle
      .prepare<[string], { ms: number }>(
        `SELECT e.at - o.created_at AS ms FROM outbox o JOIN outbox_events e ON e.message_id = o.id
         WHERE o.id >= ? AND e.state = 'accepted'`,
      )
      .all(from)
      .map((r) => r.ms);
    const stored = states.reduce((a, s) => a + s.n, 0);
    return {
      receipts: count('delivered'),
      p99AcceptedMs: percentile(latencies, 99),
      settled: open === 0 && stored - open >= received,
    };
  } finally {
    handle.close();
  }
}

function dlrRecord(dlr: DlrCounter, received: number): SideRecord {
  const counts = dlr.counts();
  return {
    receipts: counts.delivered,
    p99AcceptedMs: percentile(counts.acceptedMs, 99),
    settled: counts.delivered + counts.failed >= received,
  };
}

/**
 * Waits until the SMSC has every acknowledged message and the side a final receipt for every
 * message the SMSC received (a few more than were acknowledged: requests unanswered when the load
 * stopped), or until both counts stand still for QUIET_MS.
 */
async function settle(side: Side, since: number, acknowledged: number) {
  let last = '';
  let changedAt = Date.now();
  for (;;) {
    const { received } = await smscReport(side.smsc);
    const record = side.record(since, received.count);
    if (received.count >= acknowledged && record.settled) return { received, record };
    const now = `${received.count}/${record.receipts}`;
    if (now !== last) [last, changedAt] = [now, Date.now()];
    else if (Date.now() - changedAt > QUIET_MS) return { received, record };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function measure(side: Side, load: LoadGenerator, seconds: number, connections: number): Promise<Sample> {
  await smscReport(side.smsc, true);
  const since = Date.now();
  const r = await load.run({
    url: side.origin,
    request: side.request,
    connections,
    seconds,
    ...(side.stampAfter === undefined ? {} : { stampAfter: side.stampAfter }),
  });
  const { received, record } = await settle(side, since, r.ok);
  await Promise.all(side.pids.map((pid) => untilQuiet(pid)));
  return {
    acknowledged: r.ok,
    acknowledgedPerSecond: r.rps,
    received: received.count,
    deliveredPerSecond: received.count / ((received.lastAt - since) / 1000),
    receipts: record.receipts,
    p99AcceptedMs: record.p99AcceptedMs,
  };
}

/**
 * Kannel's sendsms request: the same recipient and text as smskit's, delivery reports to `dlr`:
 * mask 1 (delivered) in the measured rounds, 9 (and the SMSC's acknowledgement) in the latency
 * round, since a second callback per message costs Kannel's delivery rate (~14% in one run).
 */
function kannelRequest(dlr: DlrCounter, mask: '1' | '9'): HttpRequestSpec {
  const query = new URLSearchParams({
    username: 'bench',
    password: 'bench-sendsms',
    from: ACCOUNT_INPUT.keyword,
    to: ACCOUNT_INPUT.smsto,
    text: ACCOUNT_INPUT.smsmsg,
    'dlr-mask': mask,
  }).toString();
  // dlr-url last: the load generator appends the send time to it (it ends in `sent=`).
  return { method: 'GET', path: `/cgi-bin/sendsms?${query}&dlr-url=${encodeURIComponent(dlr.url)}`, headers: {} };
}

export async function runGatewaySection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  if (kannelPath('bearerbox') === undefined || kannelPath('smsbox') === undefined) {
    log('  gateway: skipped, Kannel is not installed (apt-get install kannel)');
    return { rows: [], figures: { skipped: 'Kannel (bearerbox, smsbox) is not installed' } };
  }
  const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-gateway-'));
  const [smskitSmsc, kannelSmsc] = await Promise.all([forkBenchSmsc(), forkBenchSmsc()]);
  const dlr = await startDlrCounter();
  const load = await startLoadGenerator();
  const stops: (() => Promise<void>)[] = [];
  try {
    const routes = writeBenchRoutes(dir, await smscPort(smskitSmsc));
    const serviceDir = join(dir, 'smskit');
    mkdirSync(serviceDir);
    const service = await startService(['--routes', routes], ROUTES_ENV, serviceDir);
    stops.push(() => service.cleanup());
    const kannelPort = await smscPort(kannelSmsc);
    const kannel = await startKannel(
      {
        dir,
        smscPort: kannelPort,
        ...BENCH_SMPP,
        sendsmsUser: 'bench',
        sendsmsPassword: 'bench-sendsms',
      },
      async () => (await smscReport(kannelSmsc)).stats.binds > 0,
    );
    stops.push(() => kannel.stop());
    const sides: Side[] = [
      {
        name: 'smskit',
        origin: service.origin,
        request: sendRequest('http-get', ACCOUNT_INPUT),
        smsc: smskitSmsc,
        pids: [service.child.pid],
        record: (since, received) => outboxRecord(service.db, since, received),
      },
      {
        name: 'Kannel',
        origin: kannel.origin,
        request: kannelRequest(dlr, '1'),
        latencyRequest: kannelRequest(dlr, '9'),
        stampAfter: '',
        smsc: kannelSmsc,
        pids: [kannel.bearerbox.pid, kannel.smsbox.pid],
        record: (_since, received) => dlrRecord(dlr, received),
      },
    ];
    const result = await rounds(sides, load, settings, log, dlr);
    return { rows: result.rows, figures: { ...result.figures, kannelLog: kannelWarnings(dir) } };
  } finally {
    load.child.kill('SIGTERM');
    for (const stop of stops.reverse()) await stop();
    await dlr.close();
    await Promise.all([stopChild(smskitSmsc), stopChild(kannelSmsc)]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Kannel's warnings and errors of the run (log level 2), counted by their text: why a receipt went missing. */
function kannelWarnings(dir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const file of ['bearerbox.log', 'smsbox.log']) {
    let text = '';
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      // "2026-11-28 17:47:01 [1234] [6] WARNING: DLR[internal]: ..." → "bearerbox.log WARNING: DLR[internal]: ..."
      const message = /\] ((?:WARNING|ERROR|PANIC):.*)$/.exec(line)?.[1];
      if (message === undefined) continue;
      const key = `${file} ${message.replace(/\d+/g, 'N').slice(0, 160)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

async function rounds(
  sides: readonly Side[],
  load: LoadGenerator,
  settings: Settings,
  log: (line: string) => void,
  dlr: DlrCounter,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  for (const side of sides) {
    dlr.counts(true);
    await measure(side, load, settings.warmupSeconds, settings.connections);
  }
  const samples: Record<string, Sample[]> = { smskit: [], Kannel: [] };
  for (let round = 0; round < settings.rounds; round++) {
    for (const side of roundOrder(sides, round)) {
      dlr.counts(true);
      const sample = await measure(side, load, settings.seconds, settings.connections);
      samples[side.name]!.push(sample);
      log(
        `  gateway round ${round + 1}, ${side.name}: ${sample.acknowledged} acknowledged at ${Math.round(sample.acknowledgedPerSecond)} msg/s; ${sample.received} received by the SMSC at ${Math.round(sample.deliveredPerSecond)} msg/s; ${sample.receipts} receipts; p99 acceptance → accepted ${Number.isNaN(sample.p99AcceptedMs) ? 'not reported (dlr-mask 1)' : `${Math.round(sample.p99AcceptedMs)} ms`}`,
      );
    }
  }
  const kannel = sides.find((side) => side.latencyRequest !== undefined)!;
  dlr.counts(true);
  const latency = await measure(
    { ...kannel, request: kannel.latencyRequest! },
    load,
    settings.seconds,
    settings.connections,
  );
  log(`  gateway, Kannel with dlr-mask 9: p99 sent → SMSC acknowledgement ${Math.round(latency.p99AcceptedMs)} ms`);
  return {
    rows: gatewayRows(samples.smskit!, samples.Kannel!, latency.p99AcceptedMs),
    figures: { samples, kannelLatencyRound: latency },
  };
}

function gatewayRows(smskit: readonly Sample[], kannel: readonly Sample[], kannelP99Ms: number): Row[] {
  const m = (samples: readonly Sample[], key: keyof Sample): number => median(samples.map((s) => s[key]));
  const sum = (samples: readonly Sample[], key: keyof Sample): number => samples.reduce((a, s) => a + s[key], 0);
  // Of the messages the SMSC received (a few more than were acknowledged: requests still in
  // flight when the load stops are stored and sent, but not counted as acknowledged).
  const receiptShare = (samples: readonly Sample[]): number =>
    (100 * sum(samples, 'receipts')) / Math.max(1, sum(samples, 'received'));
  return [
    ratioRow(
      {
        section: 'gateway',
        name: 'smskit delivered (received by the SMSC)',
        figure: m(smskit, 'deliveredPerSecond'),
        unit: 'msg/s',
        peer: 'Kannel',
        peerFigure: m(kannel, 'deliveredPerSecond'),
      },
      { min: 2 },
    ),
    {
      section: 'gateway',
      name: 'smskit acknowledged',
      figure: m(smskit, 'acknowledgedPerSecond'),
      unit: 'msg/s',
      peer: 'Kannel',
      peerFigure: m(kannel, 'acknowledgedPerSecond'),
      ratio: m(smskit, 'acknowledgedPerSecond') / m(kannel, 'acknowledgedPerSecond'),
    },
    {
      section: 'gateway',
      name: 'smskit receipts recorded, share of received (all rounds)',
      figure: receiptShare(smskit),
      unit: '%',
      peer: 'Kannel',
      peerFigure: receiptShare(kannel),
    },
    {
      section: 'gateway',
      name: 'smskit p99 acceptance → accepted',
      figure: m(smskit, 'p99AcceptedMs'),
      unit: 'ms',
      peer: 'Kannel (sent → type-8 report, one round)',
      peerFigure: kannelP99Ms,
    },
  ];
}
