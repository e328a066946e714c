/**
 * The report as JUnit XML for CI: one testcase per change, failing when the change is at or
 * above --fail-on (so the CI gate and the exit code agree), and one passing testcase when
 * nothing changed, so the suite is never empty.
 */
import { junitCase, junitDocument, junitFailure, junitSuite } from '../../../report/junit.js';
import { gatingChanges } from '../compare.js';
import type { Change, DiffReport, FailOn } from '../types.js';
import { bindings, whereText } from './format.js';

function testcase(c: Change, failing: boolean): string {
  const attrs = { classname: `smskit.diff.${c.rule}`, name: `${c.subject}: ${c.what}`, time: 0 };
  if (!failing) return junitCase(attrs);
  const text = [
    whereText(c),
    `breaks clients on: ${bindings(c.breaksClients)}`,
    `breaks servers on: ${bindings(c.breaksServers)}`,
    ...c.why,
  ]
    .filter((l) => l !== '')
    .join('\n');
  return junitCase(attrs, [junitFailure(`${c.rule}: ${c.what}`, c.verdict, text)]);
}

export function renderJunit(report: DiffReport, failOn: FailOn): string {
  const gating = new Set(gatingChanges(report, failOn));
  const cases = report.changes.map((c) => testcase(c, gating.has(c)));
  if (cases.length === 0) cases.push(junitCase({ classname: 'smskit.diff', name: 'no changes', time: 0 }));
  const tests = cases.length;
  const failures = gating.size;
  const suite = junitSuite(
    { name: `${report.old} -> ${report.new}`, tests, failures, errors: 0, skipped: 0, time: 0 },
    cases,
  );
  return junitDocument({ name: 'smskit diff', tests, failures }, suite);
}
