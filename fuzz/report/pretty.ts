/**
 * The terminal report: where the run went (WSDL, target, reference, seed), each finding with its
 * failed checks, the shrunk input, the answer, a curl command and the flags that replay it; the
 * properties that did not finish; the summary line last.
 */
import type { FuzzReport } from '../types.js';
import { findingLines, summaryLine } from './format.js';

export function renderPretty(report: FuzzReport): string {
  const m = report.meta;
  const lines = [
    `smskit fuzz: ${m.wsdl.source} -> ${m.target}${m.reference === undefined ? '' : `, reference ${m.reference}`}`,
    `seed ${m.seed}; ${m.runs === undefined ? '' : `${m.runs} cases`}${m.runs !== undefined && m.budgetMs !== undefined ? ' or ' : ''}${m.budgetMs === undefined ? '' : `${m.budgetMs / 1000} s`}${m.ignore.length === 0 ? '' : `; ignored: ${m.ignore.join(', ')}`}`,
  ];
  for (const finding of report.findings) lines.push('', ...findingLines(finding));
  const short = report.properties.filter((p) => p.reason !== undefined);
  if (short.length > 0) {
    lines.push('', 'Not finished:');
    for (const p of short) lines.push(`  ${p.id}: ${p.reason}`);
  }
  if (report.summary.unreachable !== undefined)
    lines.push('', `The target never answered: ${report.summary.unreachable}`);
  if (report.summary.baseline !== undefined && report.summary.baseline.fixed.length > 0) {
    lines.push('', 'Fixed since the baseline:');
    for (const key of report.summary.baseline.fixed) lines.push(`  ${key}`);
  }
  lines.push('', summaryLine(report), '');
  return lines.join('\n');
}
