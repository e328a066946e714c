/**
 * The default reporter: failures grouped by check, then each failed case once with its trace and
 * curl command, then known failures (baseline), refusals, what was skipped and why, and the
 * summary line. (Progress while running is report/progress.ts, on stderr.)
 */
import type { CaseOutcome, Report } from '../types.js';
import { tallyLine } from '../../report/text.js';
import { failureLines, summaryLine, traceLines } from './format.js';

export interface PrettyOptions {
  /** Body excerpt length in traces (default 800 characters). */
  readonly bodyLimit?: number;
}

const isNew = (f: CaseOutcome['failures'][number]): boolean => f.baseline !== 'known';

function byCheck(report: Report): string[] {
  const lines: string[] = [];
  for (const check of report.checks) {
    const cases = report.cases.filter((c) => c.failures.some((f) => f.check === check.id && isNew(f)));
    if (cases.length === 0) continue;
    lines.push(
      '',
      `✗ ${check.id} [${check.level.toUpperCase()}; ${check.source}] ${check.title} — ${cases.length} case(s)`,
    );
    for (const c of cases) {
      lines.push(`  ${c.id}`);
      for (const f of c.failures.filter((x) => x.check === check.id && isNew(x)))
        lines.push(...failureLines(f, '    '));
    }
  }
  const transport = report.cases.filter((c) => c.transportError !== undefined);
  if (transport.length > 0) {
    lines.push(
      '',
      `✗ transport — ${transport.length} case(s) got no complete HTTP response within the runner's bounds`,
    );
    for (const c of transport) lines.push(`  ${c.id}: ${c.transportError}`);
  }
  return lines;
}

function failedCase(outcome: CaseOutcome, bodyLimit: number): string[] {
  const checks = outcome.failures.map((f) => `${f.check} (${f.level})`);
  const lines = ['', `● ${outcome.id}`, `  ${[...new Set(checks)].join(', ')}`];
  for (const f of outcome.failures)
    lines.push(
      ...failureLines(
        { ...f, message: `[${f.check}]${f.baseline === 'known' ? ' (known, baseline)' : ''} ${f.message}` },
        '  ',
      ),
    );
  for (const seen of outcome.observations) lines.push(`  note: ${seen}`);
  if (outcome.trace !== undefined) lines.push(...traceLines(outcome.trace, bodyLimit, '  '));
  return lines;
}

/** Skip reasons with their counts, most frequent first. */
function skipLines(skipped: readonly CaseOutcome[]): string[] {
  const counts = new Map<string, number>();
  for (const c of skipped) counts.set(c.skipReason ?? 'skipped', (counts.get(c.skipReason ?? 'skipped') ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  if (sorted.length <= 3) return [`Skipped: ${skipped.length} (${sorted.map(([r]) => r).join('; ')})`];
  return [`Skipped: ${skipped.length}`, ...sorted.map(([reason, n]) => `  ${tallyLine(n, reason)}`)];
}

export function renderPretty(report: Report, options: PrettyOptions = {}): string {
  const failed = report.cases.filter((c) => c.status === 'failed' && c.failures.some(isNew));
  const knownOnly = report.cases.filter((c) => c.status === 'failed' && !c.failures.some(isNew));
  const lines = [`smskit conformance against ${report.target}`];
  if (report.summary.diagnosis !== undefined) lines.push('', `Not judged: ${report.summary.diagnosis}`);
  if (failed.length > 0) {
    lines.push('', 'Failures by check:', ...byCheck(report));
    lines.push('', 'Failed cases (all mismatches, request, response, curl):');
    for (const c of failed) lines.push(...failedCase(c, options.bodyLimit ?? 800));
  }
  if (knownOnly.length > 0) {
    lines.push('', `Known failures (${report.summary.baseline?.file ?? 'baseline'}; reported, not gating):`);
    for (const c of knownOnly) lines.push(`  ${c.id}: ${[...new Set(c.failures.map((f) => f.check))].join(', ')}`);
  }
  const fixed = report.summary.baseline?.fixed ?? [];
  if (fixed.length > 0)
    lines.push(
      '',
      `Fixed since the baseline (rewrite it with --write-baseline): ${fixed.length}`,
      ...fixed.map((f) => `  ${f}`),
    );
  const refused = report.cases.filter((c) => c.refused !== undefined);
  if (refused.length > 0) {
    // Passed cases, not errors: the service's own validation refused a value it may reject, in
    // the right shape (a fault, an error answer). Marked as passes so they do not read as failures.
    lines.push(
      '',
      `Accepted refusals (${refused.length}): values the service may reject, refused in the right shape — these cases passed:`,
    );
    for (const c of refused) lines.push(`  ✓ ${c.id} (refused: ${c.refused})`);
  }
  const seen = new Map<string, number>();
  for (const c of report.cases) for (const o of c.observations) seen.set(o, (seen.get(o) ?? 0) + 1);
  if (seen.size > 0) {
    lines.push('', 'Allowed alternatives seen (accepted):');
    for (const [observation, count] of seen) lines.push(`  ${observation} ×${count}`);
  }
  const skipped = report.cases.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) lines.push('', ...skipLines(skipped));
  const notRun = report.cases.filter((c) => c.status === 'not-run');
  if (notRun.length > 0)
    lines.push(
      '',
      `Not run: ${notRun.length} (${notRun[0]!.skipReason?.replace(/^not run: /, '')})`,
      ...notRun.map((c) => `  ${c.id}`),
    );
  lines.push('', summaryLine(report), '');
  return lines.join('\n');
}
