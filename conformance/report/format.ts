/** Text pieces the reporters share: the summary line, a failure's lines, a trace's lines. */
import { atOrAbove, type CaseOutcome, type Failure, type Report } from '../types.js';
import type { Trace } from '../types.js';

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
  const baseline =
    s.baseline === undefined
      ? ''
      : `; baseline ${s.baseline.file}: ${s.baseline.known} known, ${s.baseline.new} new, ${s.baseline.fixed.length} fixed`;
  return `${verdict} (--fail-on ${s.failOn}): ${s.total} cases, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${notRun}${refused}; failures by level: ${levels}${baseline}${stopped}; ${s.durationMs} ms`;
}

export function failureLines(failure: Failure, indent = '  '): string[] {
  return [
    `${indent}${failure.message}`,
    `${indent}  expected: ${failure.expected}`,
    `${indent}  actual:   ${failure.actual}`,
  ];
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated]`;
}

export function traceLines(trace: Trace, bodyLimit: number, indent = '  '): string[] {
  const lines = [`${indent}> ${trace.request.method} ${trace.request.url}`];
  for (const [name, value] of Object.entries(trace.request.headers)) lines.push(`${indent}> ${name}: ${value}`);
  if (trace.request.bodyBytes > 0)
    lines.push(
      `${indent}>`,
      ...clip(trace.request.body, bodyLimit)
        .split('\n')
        .map((l) => `${indent}> ${l}`),
    );
  if (trace.response !== undefined) {
    lines.push(`${indent}< ${trace.response.status}`);
    for (const [name, value] of Object.entries(trace.response.headers)) lines.push(`${indent}< ${name}: ${value}`);
    if (trace.response.bodyBytes > 0)
      lines.push(
        `${indent}<`,
        ...clip(trace.response.body, bodyLimit)
          .split('\n')
          .map((l) => `${indent}< ${l}`),
      );
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

/** Characters XML 1.0 cannot carry, removed from report text. */
export function xmlSafe(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}
