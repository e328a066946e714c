/**
 * Text pieces conformance's reporters share: the summary line, a failure's lines, a trace's
 * lines (the general pieces — counts, clipping, marked lines, the baseline's part — are the
 * report kit's: report/text.ts).
 */
import { atOrAbove, type CaseOutcome, type Failure, type Report } from '../types.js';
import type { Trace } from '../types.js';
import { baselineText, clip, markedLines } from '../../report/text.js';

export function summaryLine(report: Report): string {
  const s = report.summary;
  const refused = s.refused > 0 ? ` (${s.refused} refused by the service, accepted)` : '';
  const levels = `must ${s.failuresByLevel.must}, should ${s.failuresByLevel.should}, compat ${s.failuresByLevel.compat}`;
  const verdict = s.timedOut
    ? `TIMED OUT (--run-timeout ${s.runTimeoutMs} ms)`
    : s.interrupted
      ? 'INTERRUPTED'
      : s.diagnosis !== undefined
        ? 'NOT JUDGED'
        : s.ok
          ? 'PASS'
          : 'FAIL';
  const notRun = s.notRun > 0 ? `, ${s.notRun} not run` : '';
  const stopped =
    s.stoppedAfterFailures === undefined
      ? ''
      : `; stopped after ${s.stoppedAfterFailures} failing case(s) (--max-failures)`;
  return `${verdict} (--fail-on ${s.failOn}): ${s.total} cases, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${notRun}${refused}; failures by level: ${levels}${baselineText(s.baseline)}${stopped}; ${s.durationMs} ms`;
}

export function failureLines(failure: Failure, indent = '  '): string[] {
  return [
    `${indent}${failure.message}`,
    `${indent}  expected: ${failure.expected}`,
    `${indent}  actual:   ${failure.actual}`,
  ];
}

export function traceLines(trace: Trace, bodyLimit: number, indent = '  '): string[] {
  const lines = [`${indent}> ${trace.request.method} ${trace.request.url}`];
  for (const [name, value] of Object.entries(trace.request.headers)) lines.push(`${indent}> ${name}: ${value}`);
  if (trace.request.bodyBytes > 0)
    lines.push(`${indent}>`, ...markedLines(clip(trace.request.body, bodyLimit), `${indent}>`));
  if (trace.response !== undefined) {
    lines.push(`${indent}< ${trace.response.status}`);
    for (const [name, value] of Object.entries(trace.response.headers)) lines.push(`${indent}< ${name}: ${value}`);
    if (trace.response.bodyBytes > 0)
      lines.push(`${indent}<`, ...markedLines(clip(trace.response.body, bodyLimit), `${indent}<`));
  } else {
    lines.push(`${indent}< (no response)`);
  }
  lines.push(`${indent}$ ${trace.curl}`);
  if (trace.curl.includes('***')) lines.push(`${indent}  (secrets are shown as ***: put yours back to reproduce)`);
  return lines;
}

/** Failures that make the run fail under `--fail-on` (those the baseline knows do not). */
export function gatingFailures(outcome: CaseOutcome, report: Report): Failure[] {
  return outcome.failures.filter((f) => atOrAbove(f.level, report.summary.failOn) && f.baseline !== 'known');
}
