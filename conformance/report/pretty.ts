/**
 * The default reporter: progress while running (one mark per case), then failures grouped by
 * check, then each failed case once with its trace and curl command, then the summary line.
 */
import type { CaseOutcome, Report } from '../types.js';
import { failureLines, summaryLine, traceLines } from './format.js';

export interface PrettyOptions {
  /** Where progress goes (stderr in the CLI). */
  readonly progress?: (text: string) => void;
  /** Body excerpt length in traces (default 800 characters). */
  readonly bodyLimit?: number;
}

const MARK: Record<CaseOutcome['status'], string> = { passed: '.', failed: 'F', skipped: 's', 'not-run': '-' };

export function createPrettyProgress(options: PrettyOptions): (outcome: CaseOutcome, done: number, total: number) => void {
  return (outcome, done, total) => {
    options.progress?.(MARK[outcome.status] + (done % 60 === 0 || done === total ? ` ${done}/${total}\n` : ''));
  };
}

function byCheck(report: Report): string[] {
  const lines: string[] = [];
  for (const check of report.checks) {
    const cases = report.cases.filter((c) => c.failures.some((f) => f.check === check.id));
    if (cases.length === 0) continue;
    lines.push('', `✗ ${check.id} [${check.level.toUpperCase()}; ${check.source}] ${check.title} — ${cases.length} case(s)`);
    for (const c of cases) {
      lines.push(`  ${c.id}`);
      for (const f of c.failures.filter((x) => x.check === check.id)) lines.push(...failureLines(f, '    '));
    }
  }
  const transport = report.cases.filter((c) => c.transportError !== undefined);
  if (transport.length > 0) {
    lines.push('', `✗ transport — ${transport.length} case(s) got no complete HTTP response within the runner's bounds`);
    for (const c of transport) lines.push(`  ${c.id}: ${c.transportError}`);
  }
  return lines;
}

function failedCase(outcome: CaseOutcome, bodyLimit: number): string[] {
  const checks = outcome.failures.map((f) => `${f.check} (${f.level})`);
  const lines = ['', `● ${outcome.id}`, `  ${[...new Set(checks)].join(', ')}`];
  for (const f of outcome.failures) lines.push(...failureLines({ ...f, message: `[${f.check}] ${f.message}` }, '  '));
  for (const seen of outcome.observations) lines.push(`  note: ${seen}`);
  if (outcome.trace !== undefined) lines.push(...traceLines(outcome.trace, bodyLimit, '  '));
  return lines;
}

export function renderPretty(report: Report, options: PrettyOptions = {}): string {
  const failed = report.cases.filter((c) => c.status === 'failed');
  const lines = [`smskit conformance against ${report.target}`];
  if (failed.length > 0) {
    lines.push('', 'Failures by check:', ...byCheck(report));
    lines.push('', 'Failed cases (all mismatches, request, response, curl):');
    for (const c of failed) lines.push(...failedCase(c, options.bodyLimit ?? 800));
  }
  const refused = report.cases.filter((c) => c.refused !== undefined);
  if (refused.length > 0) {
    lines.push('', 'Refused by the service (accepted: a well-formed refusal of a value it may reject):');
    for (const c of refused) lines.push(`  ${c.id}: ${c.refused}`);
  }
  const seen = new Map<string, number>();
  for (const c of report.cases) for (const o of c.observations) seen.set(o, (seen.get(o) ?? 0) + 1);
  if (seen.size > 0) {
    lines.push('', 'Allowed alternatives seen (accepted):');
    for (const [observation, count] of seen) lines.push(`  ${observation} ×${count}`);
  }
  const skipped = report.cases.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) lines.push('', `Skipped: ${skipped.length} (${[...new Set(skipped.map((c) => c.skipReason))].join('; ')})`);
  const notRun = report.cases.filter((c) => c.status === 'not-run');
  if (notRun.length > 0) lines.push('', `Not run: ${notRun.length} (${notRun[0]!.skipReason?.replace(/^not run: /, '')})`, ...notRun.map((c) => `  ${c.id}`));
  lines.push('', summaryLine(report), '');
  return lines.join('\n');
}
