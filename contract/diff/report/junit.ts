/**
 * The report as JUnit XML for CI: one testcase per change, failing when the change is at or
 * above --fail-on (so the CI gate and the exit code agree), and one passing testcase when
 * nothing changed, so the suite is never empty.
 */
import { escapeReportText } from '../../../runtime/escape/xml.js';
import { gatingChanges } from '../compare.js';
import type { Change, DiffReport, FailOn } from '../types.js';
import { bindings, whereText } from './format.js';

function testcase(c: Change, failing: boolean): string {
  const open = `    <testcase classname="smskit.diff.${escapeReportText(c.rule)}" name="${escapeReportText(`${c.subject}: ${c.what}`)}" time="0"`;
  if (!failing) return `${open}/>`;
  const text = [
    whereText(c),
    `breaks clients on: ${bindings(c.breaksClients)}`,
    `breaks servers on: ${bindings(c.breaksServers)}`,
    ...c.why,
  ]
    .filter((l) => l !== '')
    .join('\n');
  return `${open}>\n      <failure message="${escapeReportText(`${c.rule}: ${c.what}`)}" type="${c.verdict}">${escapeReportText(text)}</failure>\n    </testcase>`;
}

export function renderJunit(report: DiffReport, failOn: FailOn): string {
  const gating = new Set(gatingChanges(report, failOn));
  const cases = report.changes.map((c) => testcase(c, gating.has(c)));
  if (cases.length === 0) cases.push(`    <testcase classname="smskit.diff" name="no changes" time="0"/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="smskit diff" tests="${cases.length}" failures="${gating.size}">`,
    `  <testsuite name="${escapeReportText(`${report.old} -> ${report.new}`)}" tests="${cases.length}" failures="${gating.size}" errors="0" skipped="0" time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
