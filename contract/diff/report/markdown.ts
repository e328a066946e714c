/**
 * The report as Markdown for a pull-request comment: a one-line verdict, a table of the
 * changes that matter, and the reasons folded away in <details>.
 */
import { markdownCell as cell, markdownCode as code } from '../../../report/markdown.js';
import { gatingChanges } from '../compare.js';
import type { DiffReport, FailOn } from '../types.js';
import { GROUPS, GROUP_TITLES, bindings, groupOf, shownWhy, summaryText, whereText } from './format.js';

const ICON = {
  both: ':x:',
  clients: ':x:',
  servers: ':x:',
  compatible: ':white_check_mark:',
  documentation: ':memo:',
} as const;

export function renderMarkdown(report: DiffReport, failOn: FailOn): string {
  const failing = gatingChanges(report, failOn).length > 0;
  const lines = [
    `### smskit diff: ${code(report.old)} → ${code(report.new)}`,
    '',
    `${failing ? ':x: **Fails**' : ':white_check_mark: **Passes**'} \`--fail-on ${failOn}\` — ${summaryText(report)}.`,
    '',
  ];
  if (report.changes.length === 0) return `${lines.join('\n')}No difference on the wire.\n`;
  lines.push('| | Change | Where | Breaks existing clients on | Breaks existing servers on |', '|---|---|---|---|---|');
  for (const group of GROUPS) {
    for (const c of report.changes.filter((x) => groupOf(x) === group)) {
      lines.push(
        `| ${ICON[group]} | ${cell(`${c.subject}: ${c.what}`)} | ${cell(whereText(c, '→'))} | ${bindings(c.breaksClients)} | ${bindings(c.breaksServers)} |`,
      );
    }
  }
  const explained = report.changes.filter((c) => c.verdict !== 'documentation' && shownWhy(c).length > 0);
  if (explained.length > 0) {
    lines.push('', '<details><summary>Why, per direction and binding</summary>', '');
    for (const c of explained) {
      lines.push(`- **${cell(c.subject)}** (${GROUP_TITLES[groupOf(c)].toLowerCase()}): ${cell(c.what)}`);
      for (const why of shownWhy(c)) lines.push(`  - ${cell(why)}`);
    }
    lines.push('', '</details>');
  }
  lines.push(
    '',
    `<sub>Verdicts follow the smskit runtime on both ends; where genuine ASMX reads differently the reason says so. Rules: docs/diff.md.</sub>`,
    '',
  );
  return lines.join('\n');
}
