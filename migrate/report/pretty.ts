/**
 * The terminal report: the verdict and counts first, then each difference group (operation,
 * binding, path) with its count, what the recorded and the new answer have there, one example
 * exchange with both answers and the curl command that reproduces it; then the noise learned
 * and why exchanges were skipped.
 */
import type { ReplayReport } from '../types.js';
import { counted, tallyLine } from '../../report/text.js';
import { answerLines, summaryLine } from './format.js';

const ANSWER_LINES = 40;

export function renderPretty(report: ReplayReport): string {
  const m = report.meta;
  const lines = [
    `smskit replay: ${m.recording} (recorded from ${m.upstream}) -> ${m.target}${m.reference === undefined ? '' : `, reference ${m.reference}`}`,
    `leaf texts compared by ${m.leafTypes}${m.ignore.length === 0 ? '' : `; ignored: ${m.ignore.join(', ')}`}`,
  ];
  for (const g of report.groups) {
    const known = g.baseline === 'known' ? ' [known: baseline]' : '';
    lines.push(
      '',
      `${g.operation} ${g.binding}  ${g.kind} ${g.path}  (${counted(g.count, 'exchange')})${known}`,
      `  ${m.reference === undefined ? 'recorded' : 'reference'}: ${g.example.want ?? '(absent)'}`,
      `  target:   ${g.example.got ?? '(absent)'}`,
      `  example: exchange ${g.example.exchange}`,
      ...answerLines(g.example.wantAnswer, '    <').slice(0, ANSWER_LINES),
      ...answerLines(g.example.gotAnswer, '    >').slice(0, ANSWER_LINES),
      `    $ ${g.example.curl}`,
    );
  }
  if (report.noise.length > 0) {
    lines.push('', 'Noise (the reference answered differently to the same request; not counted):');
    for (const n of report.noise) lines.push(`  ${n.operation} ${n.binding} ${n.path} (${n.count} at the target)`);
  }
  if (report.skipped.length > 0) {
    lines.push('', 'Not replayed:');
    for (const s of report.skipped) lines.push(`  ${tallyLine(s.count, s.reason)}`);
  }
  if (report.summary.baseline !== undefined && report.summary.baseline.fixed.length > 0) {
    lines.push('', 'Fixed since the baseline:');
    for (const key of report.summary.baseline.fixed) lines.push(`  ${key}`);
  }
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  lines.push('', summaryLine(report), '');
  return lines.join('\n');
}
