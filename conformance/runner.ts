/**
 * Running the selected cases against a target: one reachability probe first (so an unreachable
 * target is one clear error, not a hundred failed cases), then every case concurrently over the
 * keep-alive pool, each outcome evaluated as soon as its exchange is complete.
 */
import { ConformanceError } from './errors.js';
import { evaluateCase, transportFailure } from './evaluate.js';
import type { Redactor } from './redact.js';
import { Transport, TransportFailure } from './transport.js';
import type { Case, CaseOutcome, Check, Level } from './types.js';

export interface RunnerOptions {
  /** The target origin, e.g. `http://127.0.0.1:8080`. */
  readonly origin: string;
  /** A path to probe for reachability (any HTTP answer will do). */
  readonly probePath: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly level: Level;
  readonly checks: readonly Check[];
  readonly redact: Redactor;
  /** Called after each case, in completion order (for progress output). */
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

async function probe(transport: Transport, options: RunnerOptions): Promise<void> {
  try {
    await transport.send({ method: 'GET', path: options.probePath, headers: {} });
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
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

async function runOne(transport: Transport, testCase: Case, options: RunnerOptions): Promise<CaseOutcome> {
  const started = performance.now();
  try {
    const exchange = await transport.send(testCase.request);
    return evaluateCase(testCase, exchange, options.checks, options.level, options.redact);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    const request = { ...testCase.request, headers: { ...options.headers, ...testCase.request.headers }, url: `${options.origin}${testCase.request.path}` };
    return transportFailure(testCase, request, error.message, performance.now() - started, options.redact);
  }
}

export async function runCases(cases: readonly Case[], options: RunnerOptions): Promise<CaseOutcome[]> {
  const transport = new Transport(options);
  try {
    await probe(transport, options);
    let done = 0;
    return await mapConcurrent(cases, options.concurrency, async (testCase) => {
      const outcome = await runOne(transport, testCase, options);
      options.onCase?.(outcome, ++done, cases.length);
      return outcome;
    });
  } finally {
    await transport.close();
  }
}
