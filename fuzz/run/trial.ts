/**
 * One trial: a case sent to the target (and, for a valid input with a reference, to the
 * reference twice), judged by conformance's checks (conformance/validate/evaluate.ts) and, with a
 * reference, by the outline comparison (reference.ts). A request that gets no complete answer
 * within the timeout (a reset, a hang) is conformance's `transport` failure.
 */
import { ALL_CHECKS } from '../../conformance/validate/checks/index.js';
import { evaluateCase, transportFailure } from '../../conformance/validate/evaluate.js';
import { TransportFailure, type Transport } from '../../conformance/run/transport.js';
import type { Case, CaseOutcome, Exchange, Level } from '../../conformance/types.js';
import type { Difference } from '../../migrate/compare.js';
import type { Redactor } from '../../report/redact.js';
import { judgeAgainstReference, type ReferenceJudge } from './reference.js';

export interface TrialContext {
  readonly target: Transport;
  readonly reference?: {
    readonly transport: Transport;
    readonly judge: ReferenceJudge;
    readonly rebase: (path: string) => string;
  };
  readonly gate: () => Promise<void>;
  readonly level: Level;
  readonly redact: Redactor;
  readonly signal: AbortSignal | undefined;
  /** Counts: requests sent; set when any exchange got an answer (the target is reachable). */
  readonly stats: { requests: number; answered: boolean; noise: number };
}

export interface TrialResult {
  readonly outcome: CaseOutcome;
  readonly differences: readonly Difference[];
  /** The property holds for this input. */
  readonly ok: boolean;
}

/** The run was interrupted (Ctrl-C or the caller's signal): the trial has no verdict. */
export class TrialInterrupted extends Error {
  override readonly name = 'TrialInterrupted';
}

/** The target refused the connection before it ever answered: there is no server to judge. */
export class TargetUnreachable extends Error {
  override readonly name = 'TargetUnreachable';
}

const aborted = (ctx: TrialContext): boolean => ctx.signal?.aborted === true;

async function send(ctx: TrialContext, transport: Transport, testCase: Case): Promise<Exchange | TransportFailure> {
  // Checked before the rate gate too: a stopped run must not queue behind it.
  if (aborted(ctx)) throw new TrialInterrupted('interrupted');
  await ctx.gate();
  if (aborted(ctx)) throw new TrialInterrupted('interrupted');
  ctx.stats.requests++;
  try {
    return await transport.send(testCase.request, ctx.signal);
  } catch (error) {
    if (!(error instanceof TransportFailure)) throw error;
    if (error.reason === 'interrupted' || aborted(ctx)) throw new TrialInterrupted('interrupted');
    return error;
  }
}

export async function runTrial(ctx: TrialContext, testCase: Case): Promise<TrialResult> {
  const started = performance.now();
  const got = await send(ctx, ctx.target, testCase);
  if (got instanceof TransportFailure) {
    if (!ctx.stats.answered && (got.reason === 'refused' || got.reason === 'DNS'))
      throw new TargetUnreachable(got.message);
    const shown = {
      ...testCase.request,
      headers: ctx.target.headersOf(testCase.request),
      ...ctx.target.shown(testCase.request),
    };
    const outcome = transportFailure(
      testCase,
      shown,
      got.message,
      performance.now() - started,
      ctx.redact,
      got.partial,
    );
    return { outcome, differences: [], ok: false };
  }
  ctx.stats.answered = true;
  const outcome = evaluateCase(testCase, got, ALL_CHECKS, ctx.level, ctx.redact);
  const differences =
    ctx.reference === undefined || testCase.expect.kind !== 'success' ? [] : await againstReference(ctx, testCase, got);
  return { outcome, differences, ok: outcome.failures.length === 0 && differences.length === 0 };
}

async function againstReference(ctx: TrialContext, testCase: Case, target: Exchange): Promise<readonly Difference[]> {
  const reference = ctx.reference!;
  const moved: Case = { ...testCase, request: { ...testCase.request, path: reference.rebase(testCase.request.path) } };
  const first = await send(ctx, reference.transport, moved);
  const second = first instanceof TransportFailure ? first : await send(ctx, reference.transport, moved);
  if (first instanceof TransportFailure || second instanceof TransportFailure) {
    const failure = first instanceof TransportFailure ? first : (second as TransportFailure);
    return [
      { kind: 'changed', path: 'reference', want: 'an answer from the reference', got: `none: ${failure.message}` },
    ];
  }
  const verdict = judgeAgainstReference(reference.judge, testCase, target, first, second);
  ctx.stats.noise += verdict.noise;
  return verdict.differences;
}
