/**
 * The conformance kit's public surface:
 *   descriptor ──buildCatalogue──▶ cases ──selectCases──▶ run ──runCases──▶ outcomes ──▶ Report
 * `runConformance` does it all; `listCases` stops before sending anything (`--list`).
 */
import { toDescriptor } from '../generator/descriptor.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { buildCatalogue } from './catalogue.js';
import { ALL_CHECKS } from './checks/index.js';
import { planOperations } from './contract.js';
import { skippedCase } from './evaluate.js';
import { secretValues } from './inputs.js';
import { validateOptions, type ConformanceOptions, type ValidatedOptions } from './options.js';
import { makeRedactor } from './redact.js';
import { runCases } from './runner.js';
import { selectCases } from './select.js';
import { atOrAbove, LEVELS, type Case, type CaseOutcome, type Level, type Report } from './types.js';

export type { ConformanceOptions } from './options.js';
export type { ConformanceInputs } from './inputs.js';
export type { Case, CaseOutcome, Check, Failure, Level, Report, ReportSummary } from './types.js';
export { ConformanceError } from './errors.js';
export { ALL_CHECKS } from './checks/index.js';
export { buildCatalogue } from './catalogue.js';

function descriptorOf(options: ValidatedOptions): ServiceDescriptor {
  return options.descriptor ?? toDescriptor(options.wsdlModel!);
}

function catalogueOf(options: ValidatedOptions, descriptor: ServiceDescriptor): Case[] {
  return buildCatalogue({ descriptor, inputs: options.inputs, basePath: options.target.pathname, maxBodyBytes: options.maxBodyBytes });
}

export interface PlannedCase {
  readonly id: string;
  readonly level: Level;
  readonly description: string;
  readonly selected: boolean;
  readonly skipReason?: string;
}

/** The planned cases and whether each would run (`--list`): nothing is sent. */
export function listCases(options: ConformanceOptions): PlannedCase[] {
  const validated = validateOptions(options);
  const cases = catalogueOf(validated, descriptorOf(validated));
  const { run, skipped } = selectCases(cases, { ...selectionOf(validated) });
  const reasons = new Map(skipped.map((s) => [s.testCase.id, s.reason]));
  const selected = new Set(run.map((c) => c.id));
  return cases.map((c) => ({ id: c.id, level: c.level, description: c.description, selected: selected.has(c.id), ...(reasons.has(c.id) ? { skipReason: reasons.get(c.id)! } : {}) }));
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
}

export function summarize(outcomes: readonly CaseOutcome[], failOn: Level, durationMs: number, run: RunState): Report['summary'] {
  const byLevel = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
  for (const o of outcomes) for (const f of o.failures) byLevel[f.level]++;
  const count = (status: CaseOutcome['status']): number => outcomes.filter((o) => o.status === status).length;
  return {
    total: outcomes.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    notRun: count('not-run'),
    timedOut: run.timedOut,
    runTimeoutMs: run.runTimeoutMs,
    refused: outcomes.filter((o) => o.refused !== undefined).length,
    failuresByLevel: byLevel,
    durationMs: Math.round(durationMs),
    failOn,
    ok: !run.timedOut && LEVELS.every((l) => !atOrAbove(l, failOn) || byLevel[l] === 0),
  };
}

/** Runs the catalogue against `options.target` and returns the report (never prints or exits). */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const started = performance.now();
  const validated = validateOptions(options);
  const descriptor = descriptorOf(validated);
  const cases = catalogueOf(validated, descriptor);
  const { run, skipped } = selectCases(cases, selectionOf(validated));
  const allParams = planOperations(descriptor).flatMap((p) => p.params.map((q) => q.name));
  const redact = makeRedactor(secretValues(validated.inputs, allParams));
  const basePath = cases.find((c) => c.binding === 'wsdl')?.request.path ?? `${validated.target.pathname}?wsdl`;
  const { outcomes, timedOut } = await runCases(run, {
    origin: validated.target.origin,
    probePath: basePath,
    concurrency: validated.concurrency,
    timeoutMs: validated.timeoutMs,
    retries: validated.retries,
    maxResponseBytes: validated.maxResponseBytes,
    runTimeoutMs: validated.runTimeoutMs,
    headers: validated.headers,
    level: validated.level,
    checks: ALL_CHECKS,
    redact,
    ...(validated.onCase === undefined ? {} : { onCase: validated.onCase }),
  });
  const byId = new Map([...outcomes, ...skipped.map((s) => skippedCase(s.testCase, s.reason))].map((o) => [o.id, o]));
  const ordered = cases.map((c) => byId.get(c.id)!);
  return {
    target: redact(validated.target.href),
    summary: summarize(ordered, validated.failOn, performance.now() - started, { timedOut, runTimeoutMs: validated.runTimeoutMs }),
    cases: ordered,
    checks: ALL_CHECKS.map(({ id, level, source, title }) => ({ id, level, source, title })),
  };
}
