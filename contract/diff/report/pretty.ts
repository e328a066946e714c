/** The terminal report: changes grouped by severity, each with where, for whom and why. */
import type { DiffReport, FailOn } from '../types.js';
import { GROUPS, GROUP_TITLES, bindings, gateText, groupOf, shownWhy, summaryText, whereText } from './format.js';

const MARK = { both: 'x', clients: 'x', servers: 'x', compatible: 'ok', documentation: 'doc' } as const;

export function renderPretty(report: DiffReport, failOn: FailOn): string {
  const lines = [`smskit diff ${report.old} -> ${report.new}`, ''];
  for (const group of GROUPS) {
    const changes = report.changes.filter((c) => groupOf(c) === group);
    if (changes.length === 0) continue;
    lines.push(`${GROUP_TITLES[group]} (${changes.length})`);
    for (const c of changes) {
      lines.push(`  ${MARK[group]} ${c.subject}: ${c.what}  [${c.rule}]`);
      const where = whereText(c);
      if (where !== '') lines.push(`      ${where}`);
      if (c.verdict === 'breaking')
        lines.push(
          `      breaks clients on: ${bindings(c.breaksClients)}; breaks servers on: ${bindings(c.breaksServers)}`,
        );
      for (const why of shownWhy(c)) lines.push(`      - ${why}`);
    }
    lines.push('');
  }
  lines.push(`${summaryText(report)}; ${gateText(report, failOn)}`, '');
  return lines.join('\n');
}
