/**
 * The fuzz driver shared by `test/reliability/fuzz.test.ts` (bounded, CI) and
 * `scripts/fuzz-long.ts` (large counts): sends `count` seeded cases to a `FuzzServer` over
 * several keep-alive connections per target, checks every answer, and measures the server's
 * memory after a forced GC at the start (after a warm-up) and at the end.
 */
import { Pool } from 'undici';
import { checkResponse, describeRequest, type Answer } from './check.js';
import type { FuzzServer } from './child.js';
import { fuzzCase, type FuzzRequest, type Target } from './mutate.js';

export interface FuzzOptions {
  readonly seed: number;
  readonly count: number;
  /** Requests in flight at once (spread over the two targets' pools). */
  readonly concurrency?: number;
  /** Longest acceptable time for one answer (default 30 s): a bound on a hang, far above a busy machine's worst case. */
  readonly timeLimitMs?: number;
  /** Only this case (replay). */
  readonly only?: number;
  /** The server's body limit: a bigger body may be answered 413 and cut off before it is sent. */
  readonly maxBodyBytes?: number;
  readonly onProgress?: (done: number, report: FuzzReport) => void;
}

export interface FuzzFailure {
  readonly index: number;
  readonly problems: string[];
  readonly request: string;
}

export interface FuzzReport {
  readonly seed: number;
  sent: number;
  readonly byStatus: Record<string, number>;
  readonly byMutation: Record<string, number>;
  readonly failures: FuzzFailure[];
  /** Over-limit bodies whose connection the server closed before the whole body was sent. */
  earlyClosed: number;
  /**
   * Requests reset before any answer on a reused keep-alive connection, then answered on a retry:
   * the server closed the idle connection (its keep-alive timer) as the request arrived, which
   * happens when its event loop was busy for seconds with a worst-case body (docs/reliability.md).
   */
  retriedResets: number;
  maxMs: number;
  durationMs: number;
  heapBaseline: number;
  heapFinal: number;
  rssFinal: number;
  /** Log lines the server wrote (Server faults); checked for the password. */
  logLines: number;
}

const WARM_UP = 400;

export async function runFuzz(server: FuzzServer, options: FuzzOptions): Promise<FuzzReport> {
  const timeLimitMs = options.timeLimitMs ?? 30_000;
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const secrets = [server.password];
  const report: FuzzReport = {
    seed: options.seed,
    sent: 0,
    byStatus: {},
    byMutation: {},
    failures: [],
    earlyClosed: 0,
    retriedResets: 0,
    maxMs: 0,
    durationMs: 0,
    heapBaseline: 0,
    heapFinal: 0,
    rssFinal: 0,
    logLines: 0,
  };
  const pools: Record<Target, Pool> = {
    sms: new Pool(new URL(server.sms).origin, {
      connections: 4,
      headersTimeout: timeLimitMs,
      bodyTimeout: timeLimitMs,
      keepAliveTimeout: 2_000,
    }),
    checked: new Pool(new URL(server.checked).origin, {
      connections: 4,
      headersTimeout: timeLimitMs,
      bodyTimeout: timeLimitMs,
      keepAliveTimeout: 2_000,
    }),
  };
  const started = performance.now();
  const checkLogs = async (gc: boolean): Promise<number> => {
    const stats = await server.stats({ gc });
    report.logLines += stats.logs.length;
    if (stats.logs.some((line) => line.includes(server.password)))
      report.failures.push({ index: -1, problems: ['a server log line contains the password'], request: '(log)' });
    for (const error of stats.inputErrors)
      report.failures.push({
        index: -1,
        problems: [`a handler got a malformed input: ${error}`],
        request: '(handler)',
      });
    report.rssFinal = stats.rss;
    return stats.heapUsed;
  };
  try {
    const indices = options.only === undefined ? Array.from({ length: options.count }, (_, i) => i) : [options.only];
    const warmUp = Math.min(WARM_UP, indices.length);
    await sendAll(indices.slice(0, warmUp));
    report.heapBaseline = await checkLogs(true);
    await sendAll(indices.slice(warmUp));
    report.heapFinal = await checkLogs(true);
  } finally {
    report.durationMs = performance.now() - started;
    await Promise.all([pools.sms.close(), pools.checked.close()]).catch(() => {});
  }
  return report;

  async function sendAll(indices: number[]): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < indices.length && report.failures.length < 20 && server.exit() === undefined) {
        const index = indices[next++]!;
        await sendOne(fuzzCase(options.seed, index, server));
        if (report.sent % 1000 === 0) options.onProgress?.(report.sent, report);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
    if (server.exit() !== undefined)
      report.failures.push({
        index: -1,
        problems: [`the server process exited: ${JSON.stringify(server.exit())}\n${server.output().slice(-3000)}`],
        request: '(process)',
      });
  }

  async function exchange(req: FuzzRequest, t0: number): Promise<Answer> {
    const res = await pools[req.target].request({
      method: req.method as 'GET',
      path: req.path,
      headers: req.headers,
      body: req.body ?? null,
      signal: AbortSignal.timeout(timeLimitMs + 1_000),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) chunks.push(chunk);
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - t0 };
  }

  async function sendOne(req: FuzzRequest): Promise<void> {
    for (const m of req.mutations) report.byMutation[m] = (report.byMutation[m] ?? 0) + 1;
    const t0 = performance.now();
    let answer: Answer | undefined;
    let problems: string[];
    try {
      answer = await exchange(req, t0).catch(async (error: unknown) => {
        if (!isReset(error) || (req.body?.length ?? 0) > maxBodyBytes) throw error;
        report.retriedResets++;
        return exchange(req, performance.now());
      });
      problems = checkResponse(req, answer, secrets, timeLimitMs);
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as Error).name;
      if (
        (req.body?.length ?? 0) > maxBodyBytes &&
        (isReset(error) || code === 'EPIPE' || code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH')
      ) {
        report.earlyClosed++;
        problems = [];
      } else {
        problems = [`no answer: ${code}: ${(error as Error).message}`];
      }
    }
    report.sent++;
    const ms = performance.now() - t0;
    if (ms > report.maxMs) report.maxMs = ms;
    const key = answer === undefined ? 'closed' : String(answer.status);
    report.byStatus[key] = (report.byStatus[key] ?? 0) + 1;
    if (problems.length > 0)
      report.failures.push({ index: req.index, problems, request: describeRequest(req, secrets) });
  }
}

function isReset(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/** The failure text a test or the script prints: the seed, how to replay, and each request. */
export function formatFailures(report: FuzzReport): string {
  return [
    `fuzz seed ${report.seed}: ${report.failures.length} failure(s) in ${report.sent} requests (replay one with FUZZ_SEED=${report.seed} FUZZ_ONLY=<index>)`,
    ...report.failures.map((f) => `- case ${f.index}: ${f.problems.join('; ')}\n  ${f.request}`),
  ].join('\n');
}

export function formatSummary(report: FuzzReport): string {
  const statuses = Object.entries(report.byStatus)
    .sort()
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  return (
    `fuzz seed ${report.seed}: ${report.sent} requests in ${(report.durationMs / 1000).toFixed(1)} s, statuses ${statuses}, early-closed ${report.earlyClosed}, resets retried ${report.retriedResets}, slowest ${Math.round(report.maxMs)} ms, ` +
    `heap after GC ${(report.heapBaseline / 1048576).toFixed(1)} -> ${(report.heapFinal / 1048576).toFixed(1)} MiB, rss ${(report.rssFinal / 1048576).toFixed(0)} MiB, ${report.logLines} server log lines, ${report.failures.length} failures`
  );
}
