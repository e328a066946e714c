/**
 * The JUnit XML report for CI: one testsuite per operation/binding, one testcase per difference
 * group, failing unless the baseline knows it (so the CI view and the exit code agree), plus one
 * passing testcase per operation/binding that matched everywhere; a run that cannot be judged
 * is an <error>, as in conformance's report.
 */
import { escapeReportText as x } from '../../runtime/escape/xml.js';
import type { DifferenceGroup, ReplayReport } from '../types.js';
import { answerLines, verdict } from './format.js';

function testcase(g: DifferenceGroup): string {
  const open = `    <testcase classname="replay.${x(`${g.operation}.${g.binding}`)}" name="${x(`${g.kind} ${g.path}`)}" time="0.000"`;
  const text = [
    `${g.count} exchange(s) differ: ${g.kind} at ${g.path}`,
    `expected: ${g.example.want ?? '(absent)'}`,
    `actual:   ${g.example.got ?? '(absent)'}`,
    `example: exchange ${g.example.exchange}`,
    ...answerLines(g.example.wantAnswer, '<'),
    ...answerLines(g.example.gotAnswer, '>'),
    `$ ${g.example.curl}`,
  ].join('\n');
  if (g.baseline === 'known')
    return `${open}>\n      <system-out>${x(`known difference (baseline)\n${text}`)}</system-out>\n    </testcase>`;
  return `${open}>\n      <failure message="${x(`${g.kind} ${g.path}: ${g.example.want ?? '(absent)'} -> ${g.example.got ?? '(absent)'}`)}" type="difference">${x(text)}</failure>\n    </testcase>`;
}

export function renderJunit(report: ReplayReport): string {
  const suites = new Map<string, DifferenceGroup[]>();
  for (const g of report.groups) {
    const name = `${g.operation}/${g.binding}`;
    suites.set(name, [...(suites.get(name) ?? []), g]);
  }
  const judged = verdict(report).startsWith('NOT JUDGED') || report.summary.interrupted;
  const failures = report.groups.filter((g) => g.baseline !== 'known').length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="smskit replay" tests="${report.groups.length + (judged ? 1 : 0) + (report.groups.length === 0 && !judged ? 1 : 0)}" failures="${failures}" errors="${judged ? 1 : 0}" time="${(report.summary.durationMs / 1000).toFixed(3)}">`,
  ];
  if (judged)
    lines.push(
      `  <testsuite name="run" tests="1" failures="0" errors="1" timestamp="${x(report.meta.startedAt)}">`,
      `    <testcase classname="replay.run" name="run/verdict" time="0.000">\n      <error message="${x(verdict(report))}" type="not-judged"/>\n    </testcase>`,
      '  </testsuite>',
    );
  else if (report.groups.length === 0)
    lines.push(
      `  <testsuite name="run" tests="1" failures="0" errors="0" timestamp="${x(report.meta.startedAt)}">`,
      `    <testcase classname="replay.run" name="${x(`${report.summary.matched} exchanges match`)}" time="0.000"/>`,
      '  </testsuite>',
    );
  for (const [name, groups] of suites) {
    const failing = groups.filter((g) => g.baseline !== 'known').length;
    lines.push(
      `  <testsuite name="${x(name)}" tests="${groups.length}" failures="${failing}" errors="0" timestamp="${x(report.meta.startedAt)}">`,
      `    <properties>\n      <property name="target" value="${x(report.meta.target)}"/>\n      <property name="recording" value="${x(report.meta.recording)}"/>\n    </properties>`,
      ...groups.map(testcase),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
