/**
 * The JUnit XML report for CI: one testsuite per operation/binding, one testcase per difference
 * group, failing unless the baseline knows it (so the CI view and the exit code agree), plus one
 * passing testcase per operation/binding that matched everywhere; a run that cannot be judged
 * is an <error>, as in conformance's report.
 */
import {
  junitCase,
  junitDocument,
  junitError,
  type JunitAttributes,
  junitFailure,
  junitProperties,
  junitSuite,
  junitSystemOut,
  junitTime,
} from '../../report/junit.js';
import type { DifferenceGroup, ReplayReport } from '../types.js';
import { answerLines, verdict } from './format.js';

function testcase(g: DifferenceGroup): string {
  const attrs = { classname: `replay.${g.operation}.${g.binding}`, name: `${g.kind} ${g.path}`, time: '0.000' };
  const text = [
    `${g.count} exchange(s) differ: ${g.kind} at ${g.path}`,
    `expected: ${g.example.want ?? '(absent)'}`,
    `actual:   ${g.example.got ?? '(absent)'}`,
    `example: exchange ${g.example.exchange}`,
    ...answerLines(g.example.wantAnswer, '<'),
    ...answerLines(g.example.gotAnswer, '>'),
    `$ ${g.example.curl}`,
  ].join('\n');
  if (g.baseline === 'known') return junitCase(attrs, [junitSystemOut(`known difference (baseline)\n${text}`)]);
  const message = `${g.kind} ${g.path}: ${g.example.want ?? '(absent)'} -> ${g.example.got ?? '(absent)'}`;
  return junitCase(attrs, [junitFailure(message, 'difference', text)]);
}

/** The suite a run without difference groups shows: why it was not judged, or that everything matched. */
function runSuite(report: ReplayReport, judged: boolean): string[] {
  const counts = (errors: number): JunitAttributes => ({
    name: 'run',
    tests: 1,
    failures: 0,
    errors,
    timestamp: report.meta.startedAt,
  });
  if (judged)
    return junitSuite(counts(1), [
      junitCase({ classname: 'replay.run', name: 'run/verdict', time: '0.000' }, [
        junitError(verdict(report), 'not-judged'),
      ]),
    ]);
  if (report.groups.length > 0) return [];
  return junitSuite(counts(0), [
    junitCase({ classname: 'replay.run', name: `${report.summary.matched} exchanges match`, time: '0.000' }),
  ]);
}

export function renderJunit(report: ReplayReport): string {
  const suites = new Map<string, DifferenceGroup[]>();
  for (const g of report.groups) {
    const name = `${g.operation}/${g.binding}`;
    suites.set(name, [...(suites.get(name) ?? []), g]);
  }
  const judged = verdict(report).startsWith('NOT JUDGED') || report.summary.interrupted;
  const failures = report.groups.filter((g) => g.baseline !== 'known').length;
  const lines = runSuite(report, judged);
  for (const [name, groups] of suites) {
    const failing = groups.filter((g) => g.baseline !== 'known').length;
    const suite = { name, tests: groups.length, failures: failing, errors: 0, timestamp: report.meta.startedAt };
    const properties = junitProperties({ target: report.meta.target, recording: report.meta.recording });
    lines.push(...junitSuite(suite, [properties, ...groups.map(testcase)]));
  }
  const tests = report.groups.length + (judged ? 1 : 0) + (report.groups.length === 0 && !judged ? 1 : 0);
  return junitDocument(
    {
      name: 'smskit replay',
      tests,
      failures,
      errors: judged ? 1 : 0,
      time: junitTime(report.summary.durationMs),
    },
    lines,
  );
}
