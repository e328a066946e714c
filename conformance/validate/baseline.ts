/**
 * The baseline: failures a team knows about and has accepted for now, so that CI gates on new
 * failures only. `--write-baseline FILE` records every failure at or above `--fail-on`;
 * `--baseline FILE` marks the failures it lists as known (reported, never failing the run) and
 * names the listed ones that now pass (fixed: time to rewrite the baseline).
 *
 * A failure is the pair (case id, check id): the same check failing on the same case is the same
 * failure, whatever its message says this time (messages carry ids and times).
 */
import { readFileSync } from 'node:fs';
import { withFailures } from './evaluate.js';
import { ConformanceError } from '../errors.js';
import { atOrAbove, type CaseOutcome, type Level, type Report } from '../types.js';

export interface BaselineEntry {
  readonly case: string;
  readonly check: string;
  readonly level: Level;
}

export interface Baseline {
  readonly format: 1;
  readonly tool: string;
  readonly wsdlSha256: string;
  readonly target: string;
  readonly createdAt: string;
  readonly failOn: Level;
  readonly failures: readonly BaselineEntry[];
}

const key = (caseId: string, check: string): string => `${caseId}\u0000${check}`;

function refuse(file: string, message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', `--baseline ${file}: ${message}`);
}

function parseBaseline(file: string, text: string): Baseline {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return refuse(file, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const b = json as Partial<Baseline>;
  if (typeof json !== 'object' || json === null || b.format !== 1 || !Array.isArray(b.failures))
    refuse(file, 'not a baseline written by --write-baseline (format 1 with a "failures" list)');
  for (const [i, f] of b.failures.entries()) {
    if (typeof f?.case !== 'string' || typeof f.check !== 'string')
      refuse(file, `failures[${i}] needs "case" and "check"`);
  }
  return b as Baseline;
}

export function readBaseline(file: string): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return refuse(file, `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseBaseline(file, text);
}

/** Marks an outcome's failures the baseline lists as known. */
export function knownMarker(baseline: Baseline): (outcome: CaseOutcome) => CaseOutcome {
  const known = new Set(baseline.failures.map((f) => key(f.case, f.check)));
  return (outcome) => {
    if (!outcome.failures.some((f) => known.has(key(outcome.id, f.check)))) return outcome;
    return withFailures(
      outcome,
      outcome.failures.map((f) => (known.has(key(outcome.id, f.check)) ? { ...f, baseline: 'known' as const } : f)),
    );
  };
}

/** Listed failures whose case ran to a verdict and no longer fails that check. */
export function fixedEntries(baseline: Baseline, outcomes: readonly CaseOutcome[]): string[] {
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  return baseline.failures
    .filter((f) => {
      const o = byId.get(f.case);
      return (
        o !== undefined &&
        (o.status === 'passed' || o.status === 'failed') &&
        !o.failures.some((x) => x.check === f.check)
      );
    })
    .map((f) => `${f.case} ${f.check}`);
}

/** The baseline of a report: every failure at or above its --fail-on, sorted. */
export function baselineOf(report: Report): Baseline {
  const entries = new Map<string, BaselineEntry>();
  for (const c of report.cases) {
    for (const f of c.failures) {
      if (atOrAbove(f.level, report.summary.failOn))
        entries.set(key(c.id, f.check), { case: c.id, check: f.check, level: f.level });
    }
  }
  const failures = [...entries.values()].sort((a, b) =>
    a.case === b.case ? a.check.localeCompare(b.check) : a.case.localeCompare(b.case),
  );
  return {
    format: 1,
    tool: `${report.meta.tool} ${report.meta.version}`,
    wsdlSha256: report.meta.wsdl.sha256,
    target: report.meta.target,
    createdAt: report.meta.finishedAt,
    failOn: report.summary.failOn,
    failures,
  };
}

export function renderBaseline(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}
