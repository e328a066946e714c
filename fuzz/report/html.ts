/**
 * The HTML report, for a person: one self-contained file (inline style, no script, nothing
 * fetched). The verdict and counts first, then each finding with its failed checks, the shrunk
 * input, the answer, the curl command and the flags that replay it, then every property with its
 * cases. Text goes through the report kit's htmlReportText (report/html.ts), which redacts named
 * credentials once more.
 */
import { bodyRule, compactHtmlPage, htmlReportText as h, PAGE_RULES, pageStyle } from '../../report/html.js';
import { jsonReport } from '../../report/json.js';
import type { FuzzFinding, FuzzReport } from '../types.js';
import { reproduceFlags, summaryLine, verdict } from './format.js';

const STYLE = pageStyle([
  PAGE_RULES.root,
  bodyRule('80rem'),
  'h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.05rem; margin-bottom: .25rem; }',
  PAGE_RULES.verdict,
  PAGE_RULES.table,
  PAGE_RULES.numberCell,
  'pre { overflow-x: auto; padding: .6rem; background: #8881; border: 1px solid #8884; border-radius: 4px; font-size: .8rem; white-space: pre-wrap; }',
  '.finding { border-left: 3px solid #d93030; padding-left: .75rem; margin: 1rem 0; } .finding.known { border-color: #8886; }',
  PAGE_RULES.badge,
]);

function finding(f: FuzzFinding): string {
  const known = f.baseline === 'known';
  const checks = [
    ...f.failures.map(
      (x) =>
        `<tr><td><code>${h(x.check)}</code></td><td>${h(x.level)}</td><td>${h(x.message)}</td><td>${h(x.expected)}</td><td>${h(x.actual)}</td></tr>`,
    ),
    ...f.differences.map(
      (d) =>
        `<tr><td><code>reference</code></td><td>${h(d.kind)}</td><td><code>${h(d.path)}</code></td><td>${h(d.want ?? '(absent)')}</td><td>${h(d.got ?? '(absent)')}</td></tr>`,
    ),
  ];
  return [
    `<div class="finding${known ? ' known' : ''}">`,
    `<h3>${h(f.property)}${known ? ' <span class="badge">known (baseline)</span>' : ''}</h3>`,
    `<p>Found after ${f.casesToFind} case(s), shrunk in ${f.shrinks} step(s).${f.mutation === undefined ? '' : ` Mutation: ${h(f.mutation)}.`}</p>`,
    `<table><tr><th>check</th><th>level</th><th>what</th><th>expected</th><th>actual</th></tr>\n${checks.join('\n')}</table>`,
    `<h4>Input</h4><pre>${h(jsonReport(f.value))}</pre>`,
    ...(f.headers === undefined ? [] : [`<h4>SOAP headers</h4><pre>${h(jsonReport(f.headers))}</pre>`]),
    ...(f.trace?.response === undefined
      ? []
      : [`<h4>Answer (HTTP ${f.trace.response.status})</h4><pre>${h(f.trace.response.body)}</pre>`]),
    ...(f.trace === undefined ? [] : [`<pre>$ ${h(f.trace.curl)}</pre>`]),
    `<p>Replay: <code>smskit fuzz … ${h(reproduceFlags(f))}</code></p>`,
    '</div>',
  ].join('\n');
}

export function renderHtml(report: FuzzReport): string {
  const m = report.meta;
  const rows = report.properties.map(
    (p) =>
      `<tr><td>${h(p.id)}</td><td>${h(p.status)}</td><td class="n">${p.cases}</td><td class="n">${p.refused}</td></tr>`,
  );
  return compactHtmlPage({
    title: `smskit fuzz — ${h(verdict(report))}`,
    style: STYLE,
    body: [
      '<h1>smskit fuzz</h1>',
      `<p><code>${h(m.wsdl.source)}</code> against <code>${h(m.target)}</code>${m.reference === undefined ? '' : `, compared with <code>${h(m.reference)}</code>`}; seed ${m.seed}; ${h(m.startedAt)} to ${h(m.finishedAt)}.</p>`,
      `<p class="verdict ${report.summary.ok ? 'pass' : 'fail'}">${h(summaryLine(report))}</p>`,
      `<section><h2>Findings</h2>${report.findings.length === 0 ? '<p>None.</p>' : report.findings.map(finding).join('\n')}</section>`,
      `<section><h2>Properties</h2><table><tr><th>property</th><th>status</th><th>cases</th><th>refused</th></tr>\n${rows.join('\n')}</table></section>`,
    ],
  });
}
