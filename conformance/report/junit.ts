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
import {
  junitCase,
  junitDocument,
  junitError,
  junitFailure,
  junitProperties,
  junitSkipped,
  junitSuite,
  junitSystemOut,
  junitTime,
} from '../../report/junit.js';
import { failureLines, gatingFailures, traceLines } from './format.js';

function suiteName(outcome: CaseOutcome): string {
  return outcome.binding === 'wsdl' ? 'wsdl' : `${outcome.operation}/${outcome.binding}`;
}

function testcase(outcome: CaseOutcome, report: Report): string {
  const attrs = {
    classname: `conformance.${suiteName(outcome).replace(/\//g, '.')}`,
    name: outcome.id,
    time: junitTime(outcome.durationMs),
  };
  // No verdict: an error rather than a skip, so the CI view fails as the exit code (2) does.
  if (outcome.status === 'not-run') return junitCase(attrs, [junitError(outcome.skipReason ?? 'not run', 'not-run')]);
  if (outcome.status === 'skipped') return junitCase(attrs, [junitSkipped(outcome.skipReason ?? 'skipped')]);
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
    parts.push(junitFailure(`${first.check}: ${first.message}`, first.level, text.join('\n')));
  }
  if (warnings.length > 0) {
    const text = warnings.flatMap((f) =>
      failureLines({ ...f, message: `${label(f)} [${f.check} ${f.level.toUpperCase()}] ${f.message}` }, ''),
    );
    parts.push(junitSystemOut(text.join('\n')));
  }
  return junitCase(attrs, parts);
}

function properties(report: Report): string {
  const m = report.meta;
  return junitProperties({
    tool: `${m.tool} ${m.version}`,
    wsdl: m.wsdl.source,
    'wsdl.sha256': m.wsdl.sha256,
    target: m.target,
    startedAt: m.startedAt,
    finishedAt: m.finishedAt,
    failOn: report.summary.failOn,
    ...(report.summary.interrupted ? { interrupted: 'true' } : {}),
    ...(report.summary.diagnosis === undefined ? {} : { diagnosis: report.summary.diagnosis }),
  });
}

/** A run that cannot be judged (not this service, credentials refused) fails the CI view as it fails the exit code. */
function diagnosisSuite(report: Report): string[] {
  const why = report.summary.diagnosis;
  if (why === undefined) return [];
  return junitSuite(
    { name: 'run', tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000', timestamp: report.meta.startedAt },
    [
      properties(report),
      junitCase({ classname: 'conformance.run', name: 'run/diagnosis', time: '0.000' }, [
        junitError(why, 'not-judged'),
      ]),
    ],
  );
}

export function renderJunit(report: Report): string {
  const suites = new Map<string, CaseOutcome[]>();
  for (const c of report.cases) suites.set(suiteName(c), [...(suites.get(suiteName(c)) ?? []), c]);
  const failing = (cases: readonly CaseOutcome[]): number =>
    cases.filter((c) => gatingFailures(c, report).length > 0).length;
  const skipped = (cases: readonly CaseOutcome[]): number => cases.filter((c) => c.status === 'skipped').length;
  const errors = (cases: readonly CaseOutcome[]): number => cases.filter((c) => c.status === 'not-run').length;
  const time = (cases: readonly CaseOutcome[]): string => junitTime(cases.reduce((t, c) => t + c.durationMs, 0));
  // The run/diagnosis testcase of a run that cannot be judged.
  const judged = report.summary.diagnosis === undefined ? 0 : 1;
  const lines = diagnosisSuite(report);
  for (const [name, cases] of suites) {
    lines.push(
      ...junitSuite(
        {
          name,
          tests: cases.length,
          failures: failing(cases),
          errors: errors(cases),
          skipped: skipped(cases),
          time: time(cases),
          timestamp: report.meta.startedAt,
        },
        [properties(report), ...cases.map((c) => testcase(c, report))],
      ),
    );
  }
  return junitDocument(
    {
      name: 'smskit conformance',
      tests: report.cases.length + judged,
      failures: failing(report.cases),
      errors: errors(report.cases) + judged,
      skipped: skipped(report.cases),
      time: junitTime(report.summary.durationMs),
    },
    lines,
  );
}

/** The JUnit file a run that did not happen leaves: one erroring case that says why. */
export function renderJunitError(code: string, message: string): string {
  const run = junitCase({ classname: 'conformance.run', name: 'run', time: '0.000' }, [junitError(message, code)]);
  const counts = { tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000' };
  return junitDocument({ name: 'smskit conformance', ...counts }, junitSuite({ name: 'run', ...counts }, [run]));
}
