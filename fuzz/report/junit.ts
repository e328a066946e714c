/**
 * The JUnit XML report for CI: one testsuite per operation and binding, one testcase per
 * property (valid, invalid), failing with its finding unless the baseline knows it, so the CI
 * view and the exit code agree; a run that could not be judged is an <error>.
 */
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
import type { FuzzFinding, FuzzReport, PropertyResult } from '../types.js';
import { findingLines, verdict } from './format.js';

function testcase(p: PropertyResult, finding: FuzzFinding | undefined): string {
  const attrs = { classname: `fuzz.${p.operation}.${p.binding}`, name: `${p.mode} (${p.cases} cases)`, time: '0.000' };
  if (finding !== undefined) {
    const text = findingLines(finding).join('\n');
    if (finding.baseline === 'known') return junitCase(attrs, [junitSystemOut(`known finding (baseline)\n${text}`)]);
    return junitCase(attrs, [junitFailure(finding.key, 'finding', text)]);
  }
  if (p.status === 'not-run') return junitCase(attrs, [junitSkipped(p.reason ?? 'not run')]);
  return junitCase(attrs);
}

export function renderJunit(report: FuzzReport): string {
  const byProperty = new Map(report.findings.map((f) => [f.property, f]));
  const suites = new Map<string, PropertyResult[]>();
  for (const p of report.properties) {
    const name = `${p.operation}/${p.binding}`;
    suites.set(name, [...(suites.get(name) ?? []), p]);
  }
  const judged = verdict(report).startsWith('NOT JUDGED');
  const lines: string[] = judged
    ? junitSuite({ name: 'run', tests: 1, failures: 0, errors: 1, timestamp: report.meta.startedAt }, [
        junitCase({ classname: 'fuzz.run', name: 'run/verdict', time: '0.000' }, [
          junitError(verdict(report), 'not-judged'),
        ]),
      ])
    : [];
  for (const [name, properties] of suites) {
    const failing = properties.filter(
      (p) => byProperty.get(p.id) !== undefined && byProperty.get(p.id)!.baseline !== 'known',
    ).length;
    const suite = { name, tests: properties.length, failures: failing, errors: 0, timestamp: report.meta.startedAt };
    const meta = junitProperties({ target: report.meta.target, seed: String(report.meta.seed) });
    lines.push(...junitSuite(suite, [meta, ...properties.map((p) => testcase(p, byProperty.get(p.id)))]));
  }
  return junitDocument(
    {
      name: 'smskit fuzz',
      tests: report.properties.length + (judged ? 1 : 0),
      failures: report.summary.gating,
      errors: judged ? 1 : 0,
      time: junitTime(report.summary.durationMs),
    },
    lines,
  );
}
