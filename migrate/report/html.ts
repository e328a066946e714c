/**
 * The HTML report, for a person: one self-contained file (inline style, no script, nothing
 * fetched). The verdict and counts first, then the difference groups by operation and binding,
 * each with both answers side by side and the curl command, then the noise learned and what was
 * not replayed. Text goes through the report kit's htmlReportText (report/html.ts), which runs
 * the named-credential redaction once more, so a password element or an Authorization header
 * cannot reach the page whatever path it took.
 */
import { bodyRule, compactHtmlPage, htmlReportText as h, PAGE_RULES, pageStyle } from '../../report/html.js';
import { counted } from '../../report/text.js';
import type { DifferenceGroup, ReplayReport, ShownAnswer } from '../types.js';
import { answerLines, summaryLine, verdict } from './format.js';

const STYLE = pageStyle([
  PAGE_RULES.root,
  bodyRule('80rem'),
  'h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.05rem; margin-bottom: .25rem; }',
  PAGE_RULES.verdict,
  PAGE_RULES.table,
  PAGE_RULES.numberCell,
  '.sides { display: grid; grid-template-columns: 1fr 1fr; gap: .75rem; }',
  'pre { overflow-x: auto; padding: .6rem; background: #8881; border: 1px solid #8884; border-radius: 4px; font-size: .8rem; white-space: pre-wrap; }',
  '.group { border-left: 3px solid #8886; padding-left: .75rem; margin: 1rem 0; }',
  PAGE_RULES.badge,
]);

const answerText = (a: ShownAnswer): string =>
  answerLines(a, '')
    .map((l) => l.trimStart())
    .join('\n');

function group(g: DifferenceGroup, wantLabel: string): string {
  const badge = g.baseline === 'known' ? ' <span class="badge">known (baseline)</span>' : '';
  return [
    '<div class="group">',
    `<h3>${h(g.kind)} <code>${h(g.path)}</code> — ${counted(g.count, 'exchange')}${badge}</h3>`,
    `<table><tr><th>${h(wantLabel)}</th><td><code>${h(g.example.want ?? '(absent)')}</code></td></tr><tr><th>target</th><td><code>${h(g.example.got ?? '(absent)')}</code></td></tr></table>`,
    `<p>Example: exchange ${g.example.exchange}</p>`,
    `<div class="sides"><div><h4>${h(wantLabel)} answer</h4><pre>${h(answerText(g.example.wantAnswer))}</pre></div><div><h4>target answer</h4><pre>${h(answerText(g.example.gotAnswer))}</pre></div></div>`,
    `<pre>$ ${h(g.example.curl)}</pre>`,
    '</div>',
  ].join('\n');
}

function groupsSection(report: ReplayReport): string {
  if (report.groups.length === 0) return '<section><h2>Differences</h2><p>None.</p></section>';
  const wantLabel = report.meta.reference === undefined ? 'recorded' : 'reference';
  const byOperation = new Map<string, DifferenceGroup[]>();
  for (const g of report.groups) {
    const key = `${g.operation} — ${g.binding}`;
    byOperation.set(key, [...(byOperation.get(key) ?? []), g]);
  }
  const parts = [...byOperation].map(
    ([title, groups]) =>
      `<section><h2>${h(title)}</h2>\n${groups.map((g) => group(g, wantLabel)).join('\n')}\n</section>`,
  );
  return parts.join('\n');
}

function tableSection(title: string, head: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const header = `<tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === r.length - 1 ? `<td class="n">${h(c)}</td>` : `<td>${h(c)}</td>`)).join('')}</tr>`,
    )
    .join('\n');
  return `<section><h2>${h(title)}</h2><table>${header}\n${body}</table></section>`;
}

export function renderHtml(report: ReplayReport): string {
  const m = report.meta;
  const pass = verdict(report) === 'PASS' || report.summary.baselineWritten !== undefined;
  return compactHtmlPage({
    title: `smskit replay — ${h(verdict(report))}`,
    style: STYLE,
    body: [
      '<h1>smskit replay</h1>',
      `<p>Recording <code>${h(m.recording)}</code> (from <code>${h(m.upstream)}</code>) replayed against <code>${h(m.target)}</code>${m.reference === undefined ? '' : `, compared with <code>${h(m.reference)}</code>`}; ${h(m.startedAt)} to ${h(m.finishedAt)}. Leaf texts compared by ${h(m.leafTypes)}.</p>`,
      `<p class="verdict ${pass ? 'pass' : 'fail'}">${h(summaryLine(report))}</p>`,
      groupsSection(report),
      tableSection(
        'Noise learned from the reference',
        ['operation', 'binding', 'path', 'at the target'],
        report.noise.map((n) => [n.operation, n.binding, n.path, String(n.count)]),
      ),
      tableSection(
        'Not replayed',
        ['reason', 'exchanges'],
        report.skipped.map((s) => [s.reason, String(s.count)]),
      ),
    ],
  });
}
