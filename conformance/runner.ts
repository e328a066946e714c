/**
 * Running the selected cases against a target: one reachability probe first (so an unreachable
 * target is one clear error, not a hundred failed cases), then every case concurrently over the
 * keep-alive pool, each outcome evaluated as soon as its exchange is complete.
 *
 * The run has its own deadline (`runTimeoutMs`): when it fires, the exchanges in flight are
 * abandoned, nothing more is sent, and every case without a verdict is reported as not run.
 */
import { runTimedOut } from './bounds.js';
import { ConformanceError } from './errors.js';
import { evaluateCase, notRunCase, transportFailure } from './evaluate.js';
import type { Redactor } from './redact.js';
import { Transport, TransportFailure } from './transport.js';
import type { Case, CaseOutcome, Check, Level } from './types.js';

export interface RunnerOptions {
  /** The target origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  /** A path to probe for reachability (any HTTP answer will do). */
  readonly probePath: string;
  readonly concurrency: number;
  /** Whole-exchange time limit of each request. */
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxResponseBytes: number;
  /** Time limit of the whole run, probe included. */
  readonly runTimeoutMs: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly level: Level;
  readonly checks: readonly Check[];
  readonly redact: Redactor;
  /** Called after each case, in completion order (for progress output). */
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

export interface RunResult {
  readonly outcomes: CaseOutcome[];
  /** The run's deadline fired: some outcomes are `not-run`. */
  readonly timedOut: boolean;
}

/** Resolves when the target answered; a response head is an answer, even if a bound then cut it short. */
async function probe(transport: Transport, options: RunnerOptions, run: AbortSignal): Promise<void> {
  try {
    await transport.send({ method: 'GET', path: options.probePath, headers: {} }, run);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    if (error.partial !== undefined || error.reason === 'interrupted') return;
    throw new ConformanceError('TARGET_UNREACHABLE', `target ${options.origin} unreachable: ${error.message}`);
  }
}

/** Runs `work` over the items with at most `limit` in flight; results keep the items' order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function runOne(transport: Transport, testCase: Case, options: RunnerOptions, run: AbortSignal): Promise<CaseOutcome> {
  if (run.aborted) return notRunCase(testCase, notRunReason(options));
  const started = performance.now();
  try {
    const exchange = await transport.send(testCase.request, run);
    return evaluateCase(testCase, exchange, options.checks, options.level, options.redact);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    if (error.reason === 'interrupted') return notRunCase(testCase, notRunReason(options));
    const request = { ...testCase.request, headers: { ...options.headers, ...testCase.request.headers }, url: `${options.origin}${testCase.request.path}` };
    return transportFailure(testCase, request, error.message, performance.now() - started, options.redact, error.partial);
  }
}

function notRunReason(options: RunnerOptions): string {
  return `not run: ${runTimedOut(options.runTimeoutMs).message}`;
}

export async function runCases(cases: readonly Case[], options: RunnerOptions): Promise<RunResult> {
  const transport = new Transport(options);
  const run = new AbortController();
  const timer = setTimeout(() => run.abort(runTimedOut(options.runTimeoutMs)), options.runTimeoutMs);
  try {
    await probe(transport, options, run.signal);
    let done = 0;
    const outcomes = await mapConcurrent(cases, options.concurrency, async (testCase) => {
      const outcome = await runOne(transport, testCase, options, run.signal);
      options.onCase?.(outcome, ++done, cases.length);
      return outcome;
    });
    return { outcomes, timedOut: outcomes.some((o) => o.status === 'not-run') };
  } finally {
    clearTimeout(timer);
    // After the deadline nothing is waited for: a hostile target may hold connections open.
    await (run.signal.aborted ? transport.destroy() : transport.close());
  }
}
