/**
 * The conformance kit's public surface:
 *   descriptor ──buildCatalogue──▶ cases ──selectCases──▶ run ──runCases──▶ outcomes ──▶ Report
 * `runConformance` does it all; `listCases` stops before sending anything (`--list`).
 */
import { toDescriptor } from '../contract/descriptor/index.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { fixedEntries, knownMarker } from './validate/baseline.js';
import { buildCatalogue, endpointPath } from './catalogue/build.js';
import { ALL_CHECKS } from './validate/checks/index.js';
import { operationContracts } from './catalogue/operation-contract.js';
import { diagnoseRun } from './validate/diagnose.js';
import { ConformanceError } from './errors.js';
import { skippedCase } from './validate/evaluate.js';
import { secretValues } from './catalogue/inputs.js';
import { validateOptions, type ConformanceOptions, type ValidatedOptions } from './options.js';
import { makeRedactor } from '../report/redact.js';
import { runCases, type RunResult } from './run/runner.js';
import { schemaFacts } from './catalogue/schema-facts.js';
import { selectCases } from './catalogue/select.js';
import { atOrAbove, LEVELS, type Case, type CaseOutcome, type Level, type Report, type ReportMeta } from './types.js';

export type { ConformanceOptions, Provenance } from './options.js';
export type { RawNetworkOptions as NetworkOptions } from '../runtime/network/raw.js';
export type { ConformanceInputs, OperationInputs } from './catalogue/inputs.js';
export type { Case, CaseOutcome, Check, Failure, Level, Report, ReportMeta, ReportSummary } from './types.js';
export { ConformanceError } from './errors.js';
export { ALL_CHECKS } from './validate/checks/index.js';
export { buildCatalogue } from './catalogue/build.js';

function descriptorOf(options: ValidatedOptions): ServiceDescriptor {
  return options.descriptor ?? toDescriptor(options.wsdlModel!);
}

function catalogueOf(options: ValidatedOptions, descriptor: ServiceDescriptor): Case[] {
  const facts = options.facts ?? (options.wsdlModel === undefined ? undefined : schemaFacts(options.wsdlModel));
  return buildCatalogue({
    descriptor,
    inputs: options.inputs,
    basePath: options.target.pathname,
    maxBodyBytes: options.maxBodyBytes,
    requireResults: options.requireResults,
    ...(facts === undefined ? {} : { facts }),
  });
}

/** One line of `--list`: a case of the catalogue and whether the selection keeps it. */
export interface ListedCase {
  readonly id: string;
  readonly level: Level;
  readonly description: string;
  readonly selected: boolean;
  readonly skipReason?: string;
}

/** @deprecated The former name of {@link ListedCase}; kept so existing imports still compile. */
export type PlannedCase = ListedCase;

/** Every case of the catalogue and whether it would run (`--list`): nothing is sent. */
export function listCases(options: ConformanceOptions): ListedCase[] {
  const validated = validateOptions(options);
  const cases = catalogueOf(validated, descriptorOf(validated));
  const { run, skipped } = selectCases(cases, { ...selectionOf(validated) });
  const reasons = new Map(skipped.map((s) => [s.testCase.id, s.reason]));
  const selected = new Set(run.map((c) => c.id));
  return cases.map((c) => ({
    id: c.id,
    level: c.level,
    description: c.description,
    selected: selected.has(c.id),
    ...(reasons.has(c.id) ? { skipReason: reasons.get(c.id)! } : {}),
  }));
}

function selectionOf(options: ValidatedOptions): Parameters<typeof selectCases>[1] {
  return {
    level: options.level,
    run: options.run,
    skip: options.skip,
    ...(options.binding === undefined ? {} : { bindings: options.binding }),
    ...(options.operation === undefined ? {} : { operations: options.operation }),
  };
}

export interface RunState {
  readonly timedOut: boolean;
  readonly runTimeoutMs: number;
  readonly interrupted?: boolean;
  readonly stoppedAfterFailures?: number;
  readonly baseline?: { readonly file: string; readonly fixed: readonly string[] };
  readonly diagnosis?: string;
}

export function summarize(
  outcomes: readonly CaseOutcome[],
  failOn: Level,
  durationMs: number,
  run: RunState,
): Report['summary'] {
  const byLevel = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
  let known = 0;
  let fresh = 0;
  for (const o of outcomes) {
    for (const f of o.failures) {
      byLevel[f.level]++;
      if (!atOrAbove(f.level, failOn)) continue;
      if (f.baseline === 'known') known++;
      else fresh++;
    }
  }
  const count = (status: CaseOutcome['status']): number => outcomes.filter((o) => o.status === status).length;
  const interrupted = run.interrupted === true;
  return {
    total: outcomes.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    notRun: count('not-run'),
    timedOut: run.timedOut,
    runTimeoutMs: run.runTimeoutMs,
    interrupted,
    ...(run.stoppedAfterFailures === undefined ? {} : { stoppedAfterFailures: run.stoppedAfterFailures }),
    refused: outcomes.filter((o) => o.refused !== undefined).length,
    failuresByLevel: byLevel,
    ...(run.baseline === undefined
      ? {}
      : { baseline: { file: run.baseline.file, known, new: fresh, fixed: run.baseline.fixed } }),
    ...(run.diagnosis === undefined ? {} : { diagnosis: run.diagnosis }),
    durationMs: Math.round(durationMs),
    failOn,
    ok: !run.timedOut && !interrupted && run.diagnosis === undefined && fresh === 0,
  };
}

function metaOf(options: ValidatedOptions, target: string, startedAt: Date): ReportMeta {
  const p = options.provenance;
  return {
    tool: 'smskit',
    version: p?.toolVersion ?? 'unknown',
    wsdl: {
      source: p?.wsdlSource ?? options.wsdlModel?.file ?? '(descriptor)',
      sha256: p?.wsdlSha256 ?? options.wsdlModel?.hash ?? '',
    },
    target,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
  };
}

function runnerOptions(
  validated: ValidatedOptions,
  probePath: string,
  redact: ReturnType<typeof makeRedactor>,
): Parameters<typeof runCases>[1] {
  return {
    origin: validated.target.origin,
    probePath,
    concurrency: validated.concurrency,
    timeoutMs: validated.timeoutMs,
    retries: validated.retries,
    maxResponseBytes: validated.maxResponseBytes,
    runTimeoutMs: validated.runTimeoutMs,
    headers: validated.headers,
    network: validated.network,
    level: validated.level,
    failOn: validated.failOn,
    checks: ALL_CHECKS,
    redact,
    ...(validated.maxFailures === undefined ? {} : { maxFailures: validated.maxFailures }),
    ...(validated.signal === undefined ? {} : { signal: validated.signal }),
    ...(validated.baseline === undefined ? {} : { annotate: knownMarker(validated.baseline.baseline) }),
    ...(validated.onCase === undefined ? {} : { onCase: validated.onCase }),
  };
}

/** Runs the catalogue against `options.target` and returns the report (never prints or exits). */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const startedAt = new Date();
  const validated = validateOptions(options);
  const descriptor = descriptorOf(validated);
  const cases = catalogueOf(validated, descriptor);
  const { run, skipped } = selectCases(cases, selectionOf(validated));
  if (run.length === 0) {
    const why = [...new Set(skipped.map((s) => s.reason))].slice(0, 3).join('; ');
    throw new ConformanceError(
      'NOTHING_SELECTED',
      `no case selected: all ${cases.length} cases are skipped (${why}); nothing would be checked`,
    );
  }
  validated.onStart?.(run.length);
  const allParams = operationContracts(descriptor).flatMap((p) => p.params.map((q) => q.name));
  const redact = makeRedactor([...secretValues(validated.inputs, allParams), ...(validated.network?.secrets ?? [])]);
  const basePath = cases.find((c) => c.binding === 'wsdl')?.request.path ?? `${validated.target.pathname}?wsdl`;
  const result: RunResult = await runCases(run, runnerOptions(validated, basePath, redact));
  const byId = new Map(
    [...result.outcomes, ...skipped.map((s) => skippedCase(s.testCase, s.reason))].map((o) => [o.id, o]),
  );
  const ordered = cases.map((c) => byId.get(c.id)!);
  const target = redact(validated.target.href);
  const diagnosis = diagnoseRun(new Map(cases.map((c) => [c.id, c])), result.outcomes, {
    target,
    wsdlPath: endpointPath(descriptor, undefined),
  });
  const state: RunState = {
    timedOut: result.timedOut,
    runTimeoutMs: validated.runTimeoutMs,
    interrupted: result.interrupted,
    ...(result.stoppedAfterFailures ? { stoppedAfterFailures: validated.maxFailures! } : {}),
    ...(validated.baseline === undefined
      ? {}
      : { baseline: { file: validated.baseline.file, fixed: fixedEntries(validated.baseline.baseline, ordered) } }),
    ...(diagnosis === undefined ? {} : { diagnosis }),
  };
  return {
    meta: metaOf(validated, target, startedAt),
    target,
    summary: summarize(ordered, validated.failOn, performance.now() - started, state),
    cases: ordered,
    checks: ALL_CHECKS.map(({ id, level, source, title }) => ({ id, level, source, title })),
  };
}
