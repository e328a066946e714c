/**
 * The backlog section: what `smskit serve --routes` does with a large queue, as an SMSC outage
 * leaves it (an hour down at 500 msg/s queues 1.8 million). The bench queues the messages straight
 * into a SQLite store (lib/backlog-fill.ts: the store's own schema, INSERT and row shape), starts
 * `serve --routes` against the SMSC simulator (one SMPP route, window 10) and measures:
 *   - drain rate over the first 10,000 messages received by the SMSC (first → 10,000th), with
 *     10,000 queued and with the large backlog (1,000,000; --quick 100,000) queued: the same
 *     stretch of work, serve's ramp-up (JIT, page cache) included at both sizes. The sizes
 *     alternate over the rounds (the small one first and last; the large one's later rounds
 *     start from a copy of its first round's filled store); the figure is the ratio of the
 *     medians. And,
 *     for information, the large drain's rate over its first minute (it holds one of the
 *     engine's minutely expiry sweeps; a full drain would take many minutes), with nothing else
 *     asking serve for anything;
 *   - time from spawning `serve` to the SMSC receiving the first message;
 *   - serve's RSS while draining (VmRSS sampled from /proc twice a second; the peak);
 *   - in a second window (20 s) of the same drain: GET /metrics, one scrape after another, 4 a
 *     second, their p99; and `smskit outbox --limit 20` (a fresh process, as an operator runs
 *     it) once a second, against the same listing before serve started;
 *   - the /metrics count per state and the expiry sweep's select, each run once on the full
 *     backlog from another connection (what they cost a scrape and a sweep at that size).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openSqliteStore } from '../../service/store/index.js';
import { fillBacklog } from '../lib/backlog-fill.js';
import { stopChild } from '../lib/procs.js';
import { limitRow, ratioRow, type Row, type Settings } from '../lib/report.js';
import { runCli, startService, type RunningService } from '../lib/serve.js';
import { forkBenchSmsc, ROUTES_ENV, smscPort, smscReport, writeBenchRoutes } from '../lib/smsc.js';
import { median } from '../lib/stats.js';
import type { ChildProcess } from 'node:child_process';
import { arrivalOf } from '../children/smsc.js';

const SMALL_BACKLOG = 10_000;
/** The run's temporary folders, removed when the section ends (the large store is read after its drain). */
const removeLater: string[] = [];

interface Drain {
  readonly backlog: number;
  readonly fillSeconds: number;
  readonly firstSubmitSeconds: number;
  readonly received: number;
  /** Over everything received (the whole small backlog; the large one's window). */
  readonly drainPerSecond: number;
  /** Over the first SMALL_BACKLOG messages: the same stretch of work at either size, ramp-up included. */
  readonly firstSmallPerSecond: number;
}

interface DuringDrain {
  readonly peakRssMb: number;
  readonly medianRssMb: number;
  readonly scrapesMs: readonly number[];
  readonly listingsMs: readonly number[];
  /** The same listing on the same backlog before serve started. */
  readonly idleListingsMs: readonly number[];
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** VmRSS (not the peak VmHWM: the sample says what the process holds while draining), MB. */
function rssMb(pid: number | undefined): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

interface DrainPlan {
  readonly backlog: number;
  /** Drain for `drainMs` from the first message, then watch for `watchMs`; without: to the end. */
  readonly windows?: { readonly drainMs: number; readonly watchMs: number };
  /** Stop once this many messages have reached the SMSC (a rate over the first ones only). */
  readonly stopAt?: number;
  /** Copy this store, filled by an earlier drain, instead of filling afresh (seconds, not minutes). */
  readonly filledStore?: string;
  /** Keep a copy of the freshly filled store here, before serve touches it, for later rounds. */
  readonly keepFilledAt?: string;
}

/**
 * Fills the store (or copies a filled one), starts serve, waits for the SMSC's first message and
 * measures the drain rate: to the end (or `stopAt`), or for `drainMs` from the first message with
 * only RSS sampled (scrapes and listings cost CPU the drain would otherwise have); then `during`
 * runs for `watchMs` more.
 */
async function drain(plan: DrainPlan): Promise<{ drain: Drain; during: DuringDrain | undefined; db: string }> {
  const { backlog, windows } = plan;
  const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-backlog-'));
  removeLater.push(dir);
  const db = join(dir, 'service.sqlite');
  const smsc = await forkBenchSmsc();
  let service: RunningService | undefined;
  try {
    const routes = writeBenchRoutes(dir, await smscPort(smsc));
    let fillSeconds = Number.NaN;
    if (plan.filledStore !== undefined) copyFileSync(plan.filledStore, db);
    else fillSeconds = await fillBacklog(db, backlog);
    if (plan.keepFilledAt !== undefined) copyFileSync(db, plan.keepFilledAt);
    const idleListingsMs: number[] = [];
    for (let i = 0; windows !== undefined && i < 3; i++) idleListingsMs.push(await listing(db));
    await smscReport(smsc, true);
    const spawned = Date.now();
    service = await startService(['--routes', routes, '--metrics-port', '0'], ROUTES_ENV, dir, db, false);
    const first = await untilFirst(smsc, spawned);
    const rss = new RssSampler(service.child.pid);
    const last = await untilDrained(
      smsc,
      Math.min(backlog, plan.stopAt ?? backlog),
      windows === undefined ? undefined : first + windows.drainMs,
    );
    const seen = windows === undefined ? undefined : await watch(service, rss, windows.watchMs, idleListingsMs);
    rss.stop();
    return {
      drain: {
        backlog,
        fillSeconds,
        firstSubmitSeconds: (first - spawned) / 1000,
        received: last.count,
        drainPerSecond: last.count / ((last.lastAt - last.firstAt) / 1000),
        firstSmallPerSecond: SMALL_BACKLOG / (((arrivalOf(last, SMALL_BACKLOG) ?? Number.NaN) - last.firstAt) / 1000),
      },
      during: seen,
      db,
    };
  } finally {
    await service?.stop();
    await stopChild(smsc);
  }
}

/** serve's VmRSS twice a second from its first submit until `stop()`. */
class RssSampler {
  readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;
  constructor(pid: number | undefined) {
    this.timer = setInterval(() => {
      const mb = rssMb(pid);
      if (mb !== undefined) this.samples.push(mb);
    }, 500);
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

function removeDirs(): void {
  for (const dir of removeLater.splice(0)) rmSync(dir, { recursive: true, force: true });
}

async function untilFirst(smsc: ChildProcess, spawned: number): Promise<number> {
  for (;;) {
    const { received } = await smscReport(smsc);
    if (received.count > 0) return received.firstAt;
    if (Date.now() - spawned > 60_000) throw new Error('no message reached the SMSC within 60 s of starting serve');
    await sleep(20);
  }
}

/** Until the SMSC has `backlog` messages, or `deadline` (ms since the epoch) passes, or nothing arrives for 5 s. */
async function untilDrained(smsc: ChildProcess, backlog: number, deadline: number | undefined) {
  let last = (await smscReport(smsc)).received;
  let changedAt = Date.now();
  for (;;) {
    await sleep(100);
    const now = (await smscReport(smsc)).received;
    if (now.count >= backlog || (deadline !== undefined && Date.now() >= deadline)) return now;
    if (now.count !== last.count) [last, changedAt] = [now, Date.now()];
    else if (Date.now() - changedAt > 5_000) return now;
  }
}

/** /metrics scrapes and `smskit outbox` listings for `ms` while the drain goes on. */
async function watch(
  service: RunningService,
  rss: RssSampler,
  ms: number,
  idleListingsMs: readonly number[],
): Promise<DuringDrain> {
  const metrics = await metricsUrl(service);
  // The bench's own HTTP client starts on its first request (undici compiles its parser then:
  // 60-180 ms here, which was the slowest "scrape" of a run). Started on serve's other port, so
  // the first timed scrape is serve's first answer to /metrics, not the client's start.
  await (await fetch(`${service.origin}/serviceapi.asmx?wsdl`)).text();
  const until = Date.now() + ms;
  const scrapesMs: number[] = [];
  const listingsMs: number[] = [];
  const scrape = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(metrics);
      await response.text();
      if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
      scrapesMs.push(performance.now() - started);
      await sleep(250);
    }
  };
  const list = async () => {
    while (Date.now() < until) {
      listingsMs.push(await listing(service.db));
      await sleep(1_000);
    }
  };
  await Promise.all([scrape(), list()]);
  return {
    peakRssMb: Math.max(...rss.samples),
    medianRssMb: median(rss.samples),
    scrapesMs,
    listingsMs,
    idleListingsMs,
  };
}

/** `smskit outbox --limit 20` as an operator runs it (a fresh process): its wall time, ms. */
async function listing(db: string): Promise<number> {
  const listed = await runCli(['outbox', '--db', db, '--limit', '20'], process.env, 60_000);
  if (listed.code !== 0) throw new Error(`smskit outbox failed: ${listed.stderr}`);
  return listed.ms;
}

async function metricsUrl(service: RunningService): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const match = /(http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(service.printed());
    if (match !== null) return match[1]!;
    await sleep(50);
  }
  throw new Error(`smskit serve printed no metrics URL: ${service.printed().slice(0, 500)}`);
}

/**
 * The store's two reads that once went through the whole queue or outbox, timed once each on the
 * filled store as the service runs them: the count per state (every /metrics scrape and /healthz)
 * and the expiry sweep (at engine start and every minute; a cut-off before every message expires
 * nothing, so the select alone is timed).
 */
async function timeWholeOutboxReads(db: string): Promise<{ countByStateMs: number; expirySelectMs: number }> {
  const store = openSqliteStore({ path: db });
  try {
    const time = async (run: () => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    return {
      countByStateMs: await time(() => store.countByState()),
      expirySelectMs: await time(() => store.delivery.expireOverdue(0, Date.now())),
    };
  } finally {
    await store.close();
  }
}

export async function runBacklogSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const quick = settings.rounds === 1;
  const large = quick ? 100_000 : 1_000_000;
  // A minute of drain: the engine's expiry sweep (every 60 s) falls inside it, as in a real drain.
  const windows = quick ? { drainMs: 8_000, watchMs: 6_000 } : { drainMs: 60_000, watchMs: 20_000 };
  try {
    /** A drain whose store is not read afterwards (removed at once): a small one, or a large one's start again. */
    const shortDrain = async (plan: DrainPlan): Promise<Drain> => {
      const { drain: run, db } = await drain(plan);
      rmSync(dirname(db), { recursive: true, force: true });
      const rate =
        plan.filledStore === undefined
          ? `${run.received} drained at ${Math.round(run.drainPerSecond)} msg/s`
          : `the first ${SMALL_BACKLOG} at ${Math.round(run.firstSmallPerSecond)} msg/s`;
      log(
        `  backlog ${plan.backlog}${plan.filledStore === undefined ? '' : ' (again)'}: first submit ${run.firstSubmitSeconds.toFixed(2)} s after start; ${rate}`,
      );
      return run;
    };
    const smallDrain = () => shortDrain({ backlog: SMALL_BACKLOG });
    // Small and large alternate, the small first and last, so the machine's drift over the
    // minutes weighs on both sides alike; a rate over ~3 s moves by a fifth from one run to the
    // next here, so the ratio is of medians over the rounds.
    const smalls = [await smallDrain()];
    const templateDir = mkdtempSync(join(tmpdir(), 'smskit-bench-backlog-filled-'));
    removeLater.push(templateDir);
    const filledStore = join(templateDir, 'service.sqlite');
    const big = await drain({ backlog: large, windows, keepFilledAt: filledStore });
    const reads = await timeWholeOutboxReads(big.db);
    const d = big.during!;
    log(
      `  backlog ${large}: filled in ${big.drain.fillSeconds.toFixed(1)} s; first submit ${big.drain.firstSubmitSeconds.toFixed(2)} s after start; the first ${SMALL_BACKLOG} at ${Math.round(big.drain.firstSmallPerSecond)} msg/s; ${big.drain.received} drained in the first ${windows.drainMs / 1000} s at ${Math.round(big.drain.drainPerSecond)} msg/s; RSS peak ${Math.round(d.peakRssMb)} MB; ${d.scrapesMs.length} scrapes, median ${median(d.scrapesMs).toFixed(1)} ms, p99 ${percentile(d.scrapesMs, 99).toFixed(1)} ms; ${d.listingsMs.length} listings, median ${Math.round(median(d.listingsMs))} ms; count per state ${reads.countByStateMs.toFixed(0)} ms, expiry select ${reads.expirySelectMs.toFixed(0)} ms`,
    );
    const starts = [big.drain];
    if (!quick) {
      smalls.push(await smallDrain());
      for (let round = 2; round <= settings.rounds; round++) {
        starts.push(await shortDrain({ backlog: large, stopAt: SMALL_BACKLOG, filledStore }));
        smalls.push(await smallDrain());
      }
    }
    const smallRate = median(smalls.map((s) => s.firstSmallPerSecond));
    const largeRate = median(starts.map((s) => s.firstSmallPerSecond));
    const rows = backlogRows(
      large,
      windows.drainMs / 1000,
      { largeRate, smallRate, largeRuns: starts.length, smallRuns: smalls.length },
      big.drain,
      d,
      reads,
    );
    return {
      rows,
      figures: { small: smalls, largeStarts: starts, large: { ...big.drain, ...d }, wholeOutboxReads: reads },
    };
  } finally {
    removeDirs();
  }
}

function backlogRows(
  large: number,
  windowSeconds: number,
  rates: {
    readonly largeRate: number;
    readonly smallRate: number;
    readonly largeRuns: number;
    readonly smallRuns: number;
  },
  big: Drain,
  d: DuringDrain,
  reads: Awaited<ReturnType<typeof timeWholeOutboxReads>>,
): Row[] {
  const n = large.toLocaleString('en-US');
  const first = SMALL_BACKLOG.toLocaleString('en-US');
  return [
    ratioRow(
      {
        section: 'backlog',
        name: `drain rate, first ${first} of ${n} queued`,
        figure: rates.largeRate,
        unit: 'msg/s',
        peer:
          rates.largeRuns === 1
            ? `${first} queued`
            : `${first} queued (medians: ${rates.smallRuns} runs, the large ${rates.largeRuns})`,
        peerFigure: rates.smallRate,
      },
      { min: 0.9 },
    ),
    {
      section: 'backlog',
      name: `drain rate, first ${windowSeconds} s of ${n} queued (past the ramp-up)`,
      figure: big.drainPerSecond,
      unit: 'msg/s',
    },
    limitRow(
      { section: 'backlog', name: `serve RSS while draining ${n} (peak)`, figure: d.peakRssMb, unit: 'MB' },
      { below: 300 },
    ),
    limitRow(
      { section: 'backlog', name: `first submit after start, ${n} queued`, figure: big.firstSubmitSeconds, unit: 's' },
      { below: 5 },
    ),
    limitRow(
      {
        section: 'backlog',
        name: '/metrics scrape p99 while draining',
        figure: percentile(d.scrapesMs, 99),
        unit: 'ms',
      },
      { below: 200 },
    ),
    {
      section: 'backlog',
      name: '`smskit outbox --limit 20` while draining (median, whole process)',
      figure: median(d.listingsMs),
      unit: 'ms',
      peer: 'same, before serve started',
      peerFigure: median(d.idleListingsMs),
      ratio: median(d.listingsMs) / median(d.idleListingsMs),
    },
    { section: 'backlog', name: `count per state (/metrics) at ${n}, once`, figure: reads.countByStateMs, unit: 'ms' },
    { section: 'backlog', name: `expiry sweep select at ${n}, once`, figure: reads.expirySelectMs, unit: 'ms' },
    { section: 'backlog', name: `filling ${n} queued (one transaction)`, figure: big.fillSeconds, unit: 's' },
  ];
}
