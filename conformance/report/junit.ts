/**
 * The JUnit XML report for CI: one testsuite per operation/binding, one testcase per case.
 * A case fails (has a <failure>) only for failures at or above `--fail-on`, so the CI gate
 * and the exit code agree; weaker findings go to <system-out> as warnings. A case the run's
 * deadline, Ctrl-C or --max-failures cut off (`not-run`) is an <error>; so is a run that
 * cannot be judged (`run/diagnosis`). Failures the baseline knows are listed in <system-out>.
 * Every testsuite carries the run's provenance as <properties> (tool version, WSDL sha256,
 * target, times). Messages are plain text: every mismatch, the request and response excerpts
 * and the curl command.
 */
import type { CaseOutcome, Report } from '../types.js';
import { escapeReportText } from '../../runtime/escape/xml.js';
import { failureLines, gatingFailures, traceLines } from './format.js';

function suiteName(outcome: CaseOutcome): string {
  return outcome.binding === 'wsdl' ? 'wsdl' : `${outcome.operation}/${outcome.binding}`;
}

function testcase(outcome: CaseOutcome, report: Report): string {
  const open = `    <testcase classname="conformance.${escapeReportText(suiteName(outcome).replace(/\//g, '.'))}" name="${escapeReportText(outcome.id)}" time="${(outcome.durationMs / 1000).toFixed(3)}"`;
  // No verdict: an error rather than a skip, so the CI view fails as the exit code (2) does.
  if (outcome.status === 'not-run')
    return `${open}>\n      <error message="${escapeReportText(outcome.skipReason ?? 'not run')}" type="not-run"/>\n    </testcase>`;
  if (outcome.status === 'skipped')
    return `${open}>\n      <skipped message="${escapeReportText(outcome.skipReason ?? 'skipped')}"/>\n    </testcase>`;
  const gating = gatingFailures(outcome, report);
  const warnings = outcome.failures.filter((f) => !gating.includes(f));
  const label = (f: CaseOutcome['failures'][number]): string =>
    f.baseline === 'known' ? 'known failure (baseline)' : 'warning';
  const parts: string[] = [];
  if (gating.length > 0) {
    const text = [
      ...gating.flatMap((f) =>
        failureLines({ ...f, message: `[${f.check} ${f.level.toUpperCase()}; ${f.source}] ${f.message}` }, ''),
      ),
      '',
      ...(outcome.trace === undefined ? [] : traceLines(outcome.trace, 2000, '')),
    ];
    const first = gating[0]!;
    parts.push(
      `      <failure message="${escapeReportText(`${first.check}: ${first.message}`)}" type="${first.level}">${escapeReportText(text.join('\n'))}</failure>`,
    );
  }
  if (warnings.length > 0) {
    const text = warnings.flatMap((f) =>
      failureLines({ ...f, message: `${label(f)} [${f.check} ${f.level.toUpperCase()}] ${f.message}` }, ''),
    );
    parts.push(`      <system-out>${escapeReportText(text.join('\n'))}</system-out>`);
  }
  return parts.length === 0 ? `${open}/>` : `${open}>\n${parts.join('\n')}\n    </testcase>`;
}

function properties(report: Report): string {
  const m = report.meta;
  const entries: [string, string][] = [
    ['tool', `${m.tool} ${m.version}`],
    ['wsdl', m.wsdl.source],
    ['wsdl.sha256', m.wsdl.sha256],
    ['target', m.target],
    ['startedAt', m.startedAt],
    ['finishedAt', m.finishedAt],
    ['failOn', report.summary.failOn],
    ...(report.summary.interrupted ? [['interrupted', 'true'] as [string, string]] : []),
    ...(report.summary.diagnosis === undefined ? [] : [['diagnosis', report.summary.diagnosis] as [string, string]]),
  ];
  return `    <properties>\n${entries.map(([name, value]) => `      <property name="${escapeReportText(name)}" value="${escapeReportText(value)}"/>`).join('\n')}\n    </properties>`;
}

/** A run that cannot be judged (not this service, credentials refused) fails the CI view as it fails the exit code. */
function diagnosisSuite(report: Report): string[] {
  const why = report.summary.diagnosis;
  if (why === undefined) return [];
  return [
    `  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${escapeReportText(report.meta.startedAt)}">`,
    properties(report),
    `    <testcase classname="conformance.run" name="run/diagnosis" time="0.000">\n      <error message="${escapeReportText(why)}" type="not-judged"/>\n    </testcase>`,
    '  </testsuite>',
  ];
}

export function renderJunit(report: Report): string {
  const suites = new Map<string, CaseOutcome[]>();
  for (const c of report.cases) suites.set(suiteName(c), [...(suites.get(suiteName(c)) ?? []), c]);
  const failing = (cases: readonly CaseOutcome[]): number =>
    cases.filter((c) => gatingFailures(c, report).length > 0).length;
  const skipped = (cases: readonly CaseOutcome[]): number => cases.filter((c) => c.status === 'skipped').length;
  const errors = (cases: readonly CaseOutcome[]): number => cases.filter((c) => c.status === 'not-run').length;
  const time = (cases: readonly CaseOutcome[]): string =>
    (cases.reduce((t, c) => t + c.durationMs, 0) / 1000).toFixed(3);
  // The run/diagnosis testcase of a run that cannot be judged.
  const judged = report.summary.diagnosis === undefined ? 0 : 1;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="smskit conformance" tests="${report.cases.length + judged}" failures="${failing(report.cases)}" errors="${errors(report.cases) + judged}" skipped="${skipped(report.cases)}" time="${(report.summary.durationMs / 1000).toFixed(3)}">`,
    ...diagnosisSuite(report),
  ];
  for (const [name, cases] of suites) {
    lines.push(
      `  <testsuite name="${escapeReportText(name)}" tests="${cases.length}" failures="${failing(cases)}" errors="${errors(cases)}" skipped="${skipped(cases)}" time="${time(cases)}" timestamp="${escapeReportText(report.meta.startedAt)}">`,
    );
    lines.push(properties(report));
    for (const c of cases) lines.push(testcase(c, report));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
