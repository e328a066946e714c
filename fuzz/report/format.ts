/** Text pieces the fuzz reporters share: the verdict, the summary line, a finding as lines. */
import { baselineText, clip } from '../../report/text.js';
import type { FuzzFinding, FuzzReport } from '../types.js';

export function verdict(report: FuzzReport): string {
  const s = report.summary;
  if (s.interrupted) return 'INTERRUPTED';
  if (s.unreachable !== undefined) return 'NOT JUDGED (the target never answered)';
  return s.gating === 0 ? 'PASS' : 'FAIL';
}

export function summaryLine(report: FuzzReport): string {
  const s = report.summary;
  const noise = s.noise === 0 ? '' : `; ${s.noise} difference(s) at noise paths learned from the reference`;
  return `${verdict(report)}: ${s.properties} properties, ${s.cases} cases (${s.requests} requests, ${s.refused} valid inputs refused), ${s.findings} finding(s)${baselineText(s.baseline)}${noise}; seed ${report.meta.seed}; ${s.durationMs} ms`;
}

/** The options that replay a finding exactly (with the run's --wsdl and --target). */
export function reproduceFlags(finding: FuzzFinding): string {
  return `--seed ${finding.seed} --path '${finding.path}'`;
}

const BODY_LINES = 30;

/** A finding as indented lines: what failed, the shrunk input, the exchange and how to send it again. */
export function findingLines(finding: FuzzFinding): string[] {
  const lines = [
    `${finding.property}${finding.baseline === 'known' ? ' [known: baseline]' : ''}: found after ${finding.casesToFind} case(s), shrunk in ${finding.shrinks} step(s)`,
  ];
  for (const f of finding.failures)
    lines.push(
      `  ✗ ${f.check} [${f.level}] ${f.message}`,
      `      expected: ${clip(f.expected, 300)}`,
      `      actual:   ${clip(f.actual, 300)}`,
    );
  for (const d of finding.differences)
    lines.push(`  ≠ ${d.kind} ${d.path}: reference ${d.want ?? '(absent)'}, target ${d.got ?? '(absent)'}`);
  if (finding.mutation !== undefined) lines.push(`  mutation: ${finding.mutation}`);
  lines.push(`  input: ${clip(JSON.stringify(finding.value), 2000)}`);
  if (finding.headers !== undefined) lines.push(`  headers: ${clip(JSON.stringify(finding.headers), 1000)}`);
  const response = finding.trace?.response;
  if (response !== undefined)
    lines.push(
      `  answer: HTTP ${response.status}`,
      ...response.body
        .split('\n')
        .slice(0, BODY_LINES)
        .map((l) => `    ${clip(l, 400)}`),
    );
  if (finding.trace !== undefined) lines.push(`  $ ${finding.trace.curl}`);
  lines.push(`  replay: smskit fuzz … ${reproduceFlags(finding)}`);
  return lines;
}
