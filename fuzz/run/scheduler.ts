/**
 * How a run spends its cases and its time: each property is checked in rounds of ROUND_RUNS
 * inputs, round-robin, `concurrency` rounds at once, until its share of `--runs` is spent, the
 * `--budget` is over, or it fails (a property stops at its first finding, shrunk). Each round's
 * seed is derived from the run's seed, the property and the round number, so a run is the same
 * whatever the concurrency, and a finding's own seed and path replay it alone.
 */
import type { CaseOf, FuzzProperty } from '../properties.js';
import type { FuzzFinding, PropertyResult } from '../types.js';
import { runRound } from './property-run.js';
import { TargetUnreachable, TrialInterrupted, type TrialContext } from './trial.js';

const ROUND_RUNS = 100;

export interface Schedule {
  readonly seed: number;
  /** Inputs per property in all; undefined: until the deadline. */
  readonly runsPerProperty: number | undefined;
  /** performance.now() after which no round starts and running ones stop. */
  readonly deadline: number | undefined;
  readonly concurrency: number;
  /** Replay one finding: its property, fast-check path, and `seed` is its own. */
  readonly replay?: { readonly property: string; readonly path: string };
  readonly onRound?: ((property: string, cases: number) => void) | undefined;
}

export interface ScheduleResult {
  readonly properties: readonly PropertyResult[];
  readonly findings: readonly FuzzFinding[];
  readonly interrupted: boolean;
  readonly unreachable?: string;
}

/** A 32-bit seed from the run's seed and a name (FNV-1a): the same inputs give the same seed everywhere. */
export function deriveSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

interface State {
  readonly property: FuzzProperty;
  cases: number;
  refused: number;
  rounds: number;
  finding?: FuzzFinding;
  exhausted?: string;
  done: boolean;
}

function resultOf(state: State, runsPerProperty: number | undefined): PropertyResult {
  const { property } = state;
  const status =
    state.finding !== undefined
      ? 'failed'
      : state.exhausted !== undefined
        ? 'skipped'
        : state.cases === 0
          ? 'not-run'
          : 'passed';
  const short = runsPerProperty !== undefined && state.cases < runsPerProperty && state.finding === undefined;
  return {
    id: property.id,
    operation: property.operation,
    binding: property.binding,
    mode: property.mode,
    status,
    cases: state.cases,
    refused: state.refused,
    ...(state.exhausted !== undefined
      ? { reason: state.exhausted }
      : status === 'not-run'
        ? { reason: 'the run ended before this property got a case' }
        : short
          ? { reason: `${state.cases} of ${runsPerProperty} cases before the run ended` }
          : {}),
  };
}

async function oneRound(ctx: TrialContext, caseOf: CaseOf, schedule: Schedule, state: State): Promise<boolean> {
  const left = schedule.runsPerProperty === undefined ? ROUND_RUNS : schedule.runsPerProperty - state.cases;
  const timeLimitMs = schedule.deadline === undefined ? undefined : schedule.deadline - performance.now();
  if (left <= 0 || (timeLimitMs !== undefined && timeLimitMs <= 0)) return false;
  const replay = schedule.replay;
  const round = await runRound(ctx, caseOf, state.property, {
    seed: replay === undefined ? deriveSeed(schedule.seed, `${state.property.id}#${state.rounds}`) : schedule.seed,
    numRuns: replay === undefined ? Math.min(ROUND_RUNS, left) : 1,
    ...(replay === undefined ? {} : { path: replay.path }),
    ...(timeLimitMs === undefined ? {} : { timeLimitMs }),
  });
  state.rounds++;
  state.cases += round.cases;
  state.refused += round.refused;
  schedule.onRound?.(state.property.id, state.cases);
  if (round.finding !== undefined) state.finding = round.finding;
  if (round.exhausted !== undefined) state.exhausted = round.exhausted;
  return round.finding === undefined && round.exhausted === undefined && !round.interrupted && replay === undefined;
}

/** Runs the properties as scheduled; an unreachable target or an interruption ends the run with what it has. */
export async function runSchedule(
  ctx: TrialContext,
  caseOf: CaseOf,
  properties: readonly FuzzProperty[],
  schedule: Schedule,
): Promise<ScheduleResult> {
  const states: State[] = properties.map((property) => ({ property, cases: 0, refused: 0, rounds: 0, done: false }));
  const queue = [...states];
  let unreachable: string | undefined;
  let interrupted = false;
  const stopped = (): boolean => interrupted || unreachable !== undefined || ctx.signal?.aborted === true;
  const worker = async (): Promise<void> => {
    for (let state = queue.shift(); state !== undefined && !stopped(); state = queue.shift()) {
      try {
        if (await oneRound(ctx, caseOf, schedule, state)) queue.push(state);
        else state.done = true;
      } catch (error) {
        if (error instanceof TrialInterrupted) interrupted = true;
        else if (error instanceof TargetUnreachable) unreachable = error.message;
        else throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, schedule.concurrency) }, worker));
  return {
    properties: states.map((s) => resultOf(s, schedule.runsPerProperty)),
    findings: states.flatMap((s) => (s.finding === undefined ? [] : [s.finding])),
    interrupted: interrupted || ctx.signal?.aborted === true,
    ...(unreachable === undefined ? {} : { unreachable }),
  };
}
