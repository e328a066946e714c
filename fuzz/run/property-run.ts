/**
 * One round of one property under fast-check: `numRuns` inputs from the round's seed, each sent
 * as a trial; on the first failure fast-check shrinks the input (every shrinking step is a trial
 * too) and the last failing trial is the finding, with the seed and path that replay it.
 *
 * A generated value the runtime refuses to encode (the generator's limit, not the server's) is
 * skipped with `fc.pre`; an input no mutation applies to likewise.
 */
import fc from 'fast-check';
import type { Case } from '../../conformance/types.js';
import { CodecError, valueToJson } from '../../runtime/index.js';
import type { CaseOf, FuzzInput, FuzzProperty } from '../properties.js';
import type { FuzzFinding } from '../types.js';
import { runTrial, TargetUnreachable, TrialInterrupted, type TrialContext, type TrialResult } from './trial.js';

export interface RoundPlan {
  readonly seed: number;
  readonly numRuns: number;
  /** A counterexample path to replay (fast-check's), with `seed` the finding's own. */
  readonly path?: string;
  /** Time left for this round (generation, trials and shrinking). */
  readonly timeLimitMs?: number;
}

export interface RoundResult {
  readonly cases: number;
  readonly refused: number;
  readonly finding?: FuzzFinding;
  /** The round stopped early for time, or the run was interrupted. */
  readonly interrupted: boolean;
  /** Why the property cannot go on (nearly every input it generates cannot be sent). */
  readonly exhausted?: string;
}

interface Failed {
  readonly input: FuzzInput;
  readonly testCase: Case;
  readonly mutation?: string;
  readonly result: TrialResult;
}

/** JSON for display: bigints and bytes as text (valueToJson), and the numbers JSON cannot write. */
export function displayValue(value: unknown): unknown {
  const json = valueToJson(value);
  const fix = (v: unknown): unknown => {
    if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'INF' : '-INF';
    if (Object.is(v, -0)) return '-0';
    if (Array.isArray(v)) return v.map(fix);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)]));
    return v;
  };
  return fix(json);
}

function findingOf(
  property: FuzzProperty,
  failed: Failed,
  seed: number,
  path: string,
  details: fc.RunDetails<[FuzzInput]>,
): FuzzFinding {
  const { outcome, differences } = failed.result;
  const first =
    outcome.failures[0]?.check ??
    (differences[0] === undefined
      ? 'unknown'
      : `reference:${differences[0].kind} ${differences[0].path.replace(/\[\d+\]/g, '')}`);
  const headers = failed.input.built.soapHeaders;
  return {
    key: `${property.id} ${first}`,
    property: property.id,
    operation: property.operation,
    binding: property.binding,
    mode: property.mode,
    failures: outcome.failures,
    differences,
    value: displayValue(failed.input.built.input),
    ...(Object.keys(headers).length === 0 ? {} : { headers: displayValue(headers) }),
    ...(failed.mutation === undefined ? {} : { mutation: failed.mutation }),
    trace: outcome.trace,
    seed,
    path: `${property.id}:${path}`,
    casesToFind: details.numRuns,
    shrinks: details.numShrinks,
  };
}

function caseFor(caseOf: CaseOf, property: FuzzProperty, input: FuzzInput): ReturnType<CaseOf> {
  try {
    return caseOf(property, input);
  } catch (error) {
    if (error instanceof CodecError) return undefined;
    throw error;
  }
}

/** Runs one round; rethrows an unreachable target, which ends the whole run. */
export async function runRound(
  ctx: TrialContext,
  caseOf: CaseOf,
  property: FuzzProperty,
  plan: RoundPlan,
): Promise<RoundResult> {
  let cases = 0;
  let refused = 0;
  let shrinking = false;
  let failed: Failed | undefined;
  const predicate = async (input: FuzzInput): Promise<boolean> => {
    const made = caseFor(caseOf, property, input);
    fc.pre(made !== undefined);
    const result = await runTrial(ctx, made!.testCase);
    if (!shrinking) {
      cases++;
      if (result.outcome.refused !== undefined) refused++;
    }
    if (!result.ok) {
      shrinking = true;
      failed = {
        input,
        testCase: made!.testCase,
        result,
        ...(made!.mutation === undefined ? {} : { mutation: made!.mutation }),
      };
    }
    return result.ok;
  };
  const details = await fc.check(fc.asyncProperty(property.arbitrary, predicate), {
    seed: plan.seed,
    numRuns: plan.numRuns,
    ...(plan.path === undefined ? {} : { path: plan.path }),
    ...(plan.timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: Math.max(1, Math.floor(plan.timeLimitMs)) }),
  });
  const error = details.errorInstance;
  if (error instanceof TargetUnreachable) throw error;
  // Interrupted: the cases sent count; a failure seen while the run was being stopped does not.
  if (error instanceof TrialInterrupted || ctx.signal?.aborted === true) return { cases, refused, interrupted: true };
  if (!details.failed) return { cases, refused, interrupted: details.interrupted };
  // A failure without a failing trial is an error in the fuzzer itself: say so, never hide it.
  if (failed === undefined && error === null)
    return {
      cases,
      refused,
      interrupted: false,
      exhausted: 'too many generated inputs could not be sent (fast-check: too many skipped runs)',
    };
  if (failed === undefined) throw error;
  return {
    cases,
    refused,
    interrupted: false,
    finding: findingOf(property, failed, plan.seed, details.counterexamplePath ?? '', details),
  };
}
