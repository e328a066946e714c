/**
 * Running the selected cases against a target: one reachability probe first (so an unreachable
 * target is one clear error, not a hundred failed cases), then every case concurrently over the
 * keep-alive pool, each outcome evaluated as soon as its exchange is complete.
 *
 * A run ends early in three ways, and in each the cases without a verdict are reported as not
 * run, with the reason:
 * - its deadline (`runTimeoutMs`): the exchanges in flight are abandoned at once;
 * - an interruption (`signal`, Ctrl-C in the CLI): nothing more is sent, the exchanges in flight
 *   get `graceMs` to finish, then they are abandoned;
 * - `maxFailures` failing cases: nothing more is sent, the exchanges in flight finish.
 */
import { setMaxListeners } from 'node:events';
import { runTimedOut } from './bounds.js';
import { ConformanceError } from '../errors.js';
import { evaluateCase, notRunCase, skippedCase, transportFailure } from '../validate/evaluate.js';
import type { RawNetwork } from '../../runtime/network/raw.js';
import type { Redactor } from '../../report/redact.js';
import { type PrepareRequest, Transport, TransportFailure } from './transport.js';
import { withServedImports } from './served-imports.js';
import { withUsernameToken } from './wsse.js';
import { atOrAbove, type Case, type CaseOutcome, type Check, type Level } from '../types.js';

/** How long an interrupted run waits for the exchanges in flight before abandoning them. */
const INTERRUPT_GRACE_MS = 1000;

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
  /** TLS, proxy, Authorization and a WS-Security UsernameToken (runtime/network/raw.ts). */
  readonly network?: RawNetwork | undefined;
  readonly level: Level;
  readonly checks: readonly Check[];
  readonly redact: Redactor;
  /** Stop sending once this many cases have failed at or above `failOn` (undefined: never). */
  readonly maxFailures?: number;
  readonly failOn?: Level;
  /** Aborted: stop sending, give the exchanges in flight `graceMs`, report the rest as not run. */
  readonly signal?: AbortSignal;
  readonly graceMs?: number;
  /** Applied to each outcome as it completes (the baseline marks known failures). */
  readonly annotate?: (outcome: CaseOutcome) => CaseOutcome;
  /** Called after each case, in completion order (for progress output). */
  readonly onCase?: (outcome: CaseOutcome, done: number, total: number) => void;
}

export type StopReason = 'timed-out' | 'interrupted' | 'max-failures';

export interface RunResult {
  readonly outcomes: CaseOutcome[];
  /** The run's deadline fired: some outcomes are `not-run`. */
  readonly timedOut: boolean;
  /** The run was interrupted (its `signal`): some outcomes may be `not-run`. */
  readonly interrupted: boolean;
  /** `maxFailures` stopped the run. */
  readonly stoppedAfterFailures: boolean;
}

/**
 * Resolves when the target answered; a response head is an answer, even if a bound then cut it
 * short. A probe that the run's stop (Ctrl-C, the run's deadline) ended says nothing about the
 * target: the run then reports every case as not run, for that reason.
 */
async function probe(transport: Transport, options: RunnerOptions, control: RunControl): Promise<void> {
  try {
    await transport.send({ method: 'GET', path: options.probePath, headers: {} }, control.abort.signal);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    if (error.partial !== undefined || error.reason === 'interrupted' || control.stop !== undefined) return;
    throw new ConformanceError(
      'TARGET_UNREACHABLE',
      options.redact(`target ${options.origin} unreachable: ${error.message}`),
    );
  }
}

/** Runs `work` over the items with at most `limit` in flight; results keep the items' order. */
async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
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

/** Why the run stopped early, as the reason a case without a verdict shows. */
function notRunReason(stop: StopReason, options: RunnerOptions): string {
  switch (stop) {
    case 'timed-out':
      return `not run: ${runTimedOut(options.runTimeoutMs).message}`;
    case 'interrupted':
      return 'not run: the run was interrupted (Ctrl-C)';
    case 'max-failures':
      return `not run: the run stopped after ${options.maxFailures} failing case(s) (--max-failures ${options.maxFailures})`;
  }
}

class RunControl {
  stop: StopReason | undefined;
  failures = 0;
  readonly abort = new AbortController();
  private grace: NodeJS.Timeout | undefined;

  constructor(private readonly options: RunnerOptions) {
    // Every exchange in flight listens on the run's signal: up to --concurrency of them, by design.
    setMaxListeners(0, this.abort.signal);
  }

  timeout(): void {
    this.stop ??= 'timed-out';
    this.abort.abort(runTimedOut(this.options.runTimeoutMs));
  }

  interrupt(): void {
    this.stop ??= 'interrupted';
    // The exchanges in flight may finish within the grace; then they are abandoned.
    this.grace ??= setTimeout(
      () => this.abort.abort(new Error('interrupted')),
      this.options.graceMs ?? INTERRUPT_GRACE_MS,
    );
  }

  counted(outcome: CaseOutcome): void {
    const { maxFailures, failOn = 'must' } = this.options;
    if (maxFailures === undefined || outcome.status !== 'failed') return;
    if (outcome.failures.some((f) => atOrAbove(f.level, failOn) && f.baseline !== 'known')) this.failures++;
    if (this.failures >= maxFailures) this.stop ??= 'max-failures';
  }

  dispose(): void {
    if (this.grace !== undefined) clearTimeout(this.grace);
  }
}

/** A SOAP case carries the run's UsernameToken, fresh on each attempt. */
function tokenFor(testCase: Case, options: RunnerOptions): PrepareRequest | undefined {
  const token = options.network?.wsse;
  if (token === undefined || (testCase.binding !== 'soap11' && testCase.binding !== 'soap12')) return undefined;
  const version = testCase.binding === 'soap11' ? '1.1' : '1.2';
  return (request) => withUsernameToken(request, version, token);
}

async function runOne(
  transport: Transport,
  testCase: Case,
  options: RunnerOptions,
  control: RunControl,
): Promise<CaseOutcome> {
  if (control.stop !== undefined) return notRunCase(testCase, notRunReason(control.stop, options));
  const started = performance.now();
  try {
    const sent = await transport.send(testCase.request, control.abort.signal, tokenFor(testCase, options));
    const exchange =
      testCase.expect.kind === 'wsdl' ? await withServedImports(transport, sent, control.abort.signal) : sent;
    return evaluateCase(testCase, exchange, options.checks, options.level, options.redact);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    if (error.reason === 'interrupted')
      return notRunCase(testCase, notRunReason(control.stop ?? 'interrupted', options));
    if (error.reason === 'no tunnel') return skippedCase(testCase, options.redact(error.message));
    const request = {
      ...testCase.request,
      headers: transport.headersOf(testCase.request),
      ...transport.shown(testCase.request),
    };
    return transportFailure(
      testCase,
      request,
      error.message,
      performance.now() - started,
      options.redact,
      error.partial,
    );
  }
}

export async function runCases(cases: readonly Case[], options: RunnerOptions): Promise<RunResult> {
  const transport = new Transport(options);
  const control = new RunControl(options);
  const timer = setTimeout(() => control.timeout(), options.runTimeoutMs);
  const onInterrupt = (): void => control.interrupt();
  if (options.signal?.aborted === true) control.interrupt();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  try {
    await probe(transport, options, control);
    let done = 0;
    const outcomes = await mapConcurrent(cases, options.concurrency, async (testCase) => {
      const raw = await runOne(transport, testCase, options, control);
      const outcome = options.annotate === undefined ? raw : options.annotate(raw);
      control.counted(outcome);
      options.onCase?.(outcome, ++done, cases.length);
      return outcome;
    });
    return {
      outcomes,
      timedOut: control.stop === 'timed-out',
      interrupted: control.stop === 'interrupted',
      stoppedAfterFailures: control.stop === 'max-failures',
    };
  } finally {
    clearTimeout(timer);
    control.dispose();
    options.signal?.removeEventListener('abort', onInterrupt);
    // After an abort nothing is waited for: a hostile target may hold connections open.
    await (control.abort.signal.aborted ? transport.destroy() : transport.close());
  }
}
