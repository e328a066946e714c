/**
 * The HTML report, for a person reading a run: one self-contained file (inline style and a
 * small inline script, nothing fetched), so it opens from file:// and can be attached to a CI
 * run. The summary comes first (by level, binding and operation), then the failures grouped by
 * check — each case's mismatches (expected vs actual), its exchange and its curl command — then
 * every case in a table. Checkboxes filter by binding, level and status; without the script
 * everything is shown and the filters stay hidden.
 *
 * Traces are redacted by the runner; the page's text goes through the report kit's
 * htmlReportText (report/html.ts), which runs the named-credential rules again, so a password
 * element or parameter cannot reach the page whatever path it took.
 */
import { LEVELS, type CaseOutcome, type Failure, type Report } from '../types.js';
import type { Trace } from '../types.js';
import { bodyRule, htmlPage, htmlReportText as h, PAGE_RULES, pageStyle } from '../../report/html.js';
import { summaryLine } from './format.js';

const BINDING_TITLES: Record<string, string> = {
  soap11: 'SOAP 1.1',
  soap12: 'SOAP 1.2',
  'http-get': 'HTTP GET',
  'http-post': 'HTTP POST',
  wsdl: 'WSDL',
};
const STATUSES = ['failed', 'passed', 'skipped', 'not-run'] as const;

const STYLE = pageStyle([
  PAGE_RULES.root,
  bodyRule('75rem'),
  'h1 { font-size: 1.6rem; margin: .25rem 0; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.1rem; } h4 { font-size: 1rem; margin: 1rem 0 .25rem; }',
  PAGE_RULES.verdict,
  '.tables { display: flex; flex-wrap: wrap; gap: 1.5rem; } .table { overflow-x: auto; }',
  PAGE_RULES.table,
  PAGE_RULES.numberCell,
  'pre { overflow-x: auto; padding: .6rem; background: #8881; border: 1px solid #8884; border-radius: 4px; font-size: .82rem; white-space: pre-wrap; }',
  '.case { border-left: 3px solid #8886; padding-left: .75rem; margin: 1rem 0; }',
  'dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: .25rem 0; } dt { font-weight: 600; } dd { margin: 0; }',
  PAGE_RULES.badge,
  'fieldset { display: inline-block; border: 1px solid #8886; margin: 0 .75rem .75rem 0; } fieldset label { margin-right: .75rem; white-space: nowrap; }',
  '[hidden] { display: none !important; }',
]);

/** Hides cases (and check groups left empty) whose binding, level or status is unticked. */
const SCRIPT = `
(function () {
  var form = document.getElementById('filters');
  form.hidden = false;
  function apply() {
    var on = {};
    form.querySelectorAll('input').forEach(function (i) { on[i.name + ':' + i.value] = i.checked; });
    document.querySelectorAll('[data-binding]').forEach(function (el) {
      el.hidden = !(on['binding:' + el.dataset.binding] && on['level:' + el.dataset.level] && on['status:' + el.dataset.status]);
    });
    document.querySelectorAll('.group').forEach(function (g) {
      var shown = g.querySelectorAll('[data-binding]:not([hidden])').length;
      g.hidden = shown === 0;
      g.querySelector('.shown').textContent = String(shown);
    });
    var rows = document.querySelectorAll('#cases tbody tr:not([hidden])').length;
    document.getElementById('cases-shown').textContent = String(rows);
  }
  form.addEventListener('change', apply);
  apply();
})();
`;

type Counts = Record<(typeof STATUSES)[number], number>;

function countBy(cases: readonly CaseOutcome[], key: (c: CaseOutcome) => string): Map<string, Counts> {
  const out = new Map<string, Counts>();
  for (const c of cases) {
    const k = key(c);
    const counts = out.get(k) ?? out.set(k, { failed: 0, passed: 0, skipped: 0, 'not-run': 0 }).get(k)!;
    counts[c.status]++;
  }
  return out;
}

function countTable(caption: string, head: string, rows: Map<string, Counts>, label: (k: string) => string): string {
  const body = [...rows]
    .map(
      ([k, n]) =>
        `<tr><th scope="row">${h(label(k))}</th>${STATUSES.map((s) => `<td class="n">${n[s]}</td>`).join('')}</tr>`,
    )
    .join('\n');
  const cols = STATUSES.map((s) => `<th scope="col">${s}</th>`).join('');
  return `<div class="table"><table><caption>${h(caption)}</caption>\n<thead><tr><th scope="col">${h(head)}</th>${cols}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

function summarySection(report: Report): string {
  const s = report.summary;
  const levels = `<div class="table"><table><caption>Failures by level</caption>\n<thead><tr><th scope="col">Level</th><th scope="col">failures</th></tr></thead>\n<tbody>\n${LEVELS.map((l) => `<tr><th scope="row">${l.toUpperCase()}</th><td class="n">${s.failuresByLevel[l]}</td></tr>`).join('\n')}\n</tbody></table></div>`;
  return [
    '<section aria-labelledby="summary"><h2 id="summary">Summary</h2>',
    `<p class="verdict ${s.ok ? 'pass' : 'fail'}">${h(summaryLine(report))}</p>`,
    interruptedNotice(report),
    '<div class="tables">',
    levels,
    countTable(
      'Cases by binding',
      'Binding',
      countBy(report.cases, (c) => c.binding),
      (k) => BINDING_TITLES[k] ?? k,
    ),
    countTable(
      'Cases by operation',
      'Operation',
      countBy(report.cases, (c) => c.operation),
      (k) => k,
    ),
    '</div></section>',
  ].join('\n');
}

/** What an interrupted run's page must say first: how much ran, so nobody reads "0 failed" as a pass. */
function interruptedNotice(report: Report): string {
  const s = report.summary;
  if (!s.interrupted) return '';
  const selected = s.total - s.skipped;
  const ran = selected - s.notRun;
  const what =
    ran === 0
      ? 'nothing ran: no case was judged, so this report says nothing about the server'
      : `${ran} of ${selected} selected cases ran; the other ${s.notRun} are listed as not run`;
  return `<p class="verdict fail"><strong>Interrupted (Ctrl-C) — ${h(what)}.</strong></p>`;
}

/** The page a run that could not happen leaves behind (unreachable target, unreadable WSDL…), so a CI never shows an older report. */
export function renderHtmlError(code: string, message: string): string {
  return htmlPage({
    title: `smskit conformance: did not run — ${h(code)}`,
    style: STYLE,
    body: [
      '<header><h1>smskit conformance report</h1></header>',
      '<main>',
      '<section aria-labelledby="summary"><h2 id="summary">Summary</h2>',
      `<p class="verdict fail">The run did not happen: nothing ran, no case was judged.</p>`,
      `<p>${h(message)} <code>(${h(code)})</code></p>`,
      '</section>',
      '</main>',
    ],
  });
}

function checkbox(name: string, value: string, label: string): string {
  return `<label><input type="checkbox" name="${name}" value="${h(value)}" checked> ${h(label)}</label>`;
}

function filterForm(report: Report): string {
  const bindings = [...new Set(report.cases.map((c) => c.binding))];
  return [
    '<form id="filters" hidden aria-labelledby="filters-heading"><h2 id="filters-heading">Filter</h2>',
    `<fieldset><legend>Binding</legend>${bindings.map((b) => checkbox('binding', b, BINDING_TITLES[b] ?? b)).join('')}</fieldset>`,
    `<fieldset><legend>Level</legend>${LEVELS.map((l) => checkbox('level', l, l.toUpperCase())).join('')}</fieldset>`,
    `<fieldset><legend>Status</legend>${STATUSES.map((s) => checkbox('status', s, s)).join('')}</fieldset>`,
    '</form>',
  ].join('\n');
}

function traceText(trace: Trace): { request: string; response: string } {
  const request = [
    `${trace.request.method} ${trace.request.url}`,
    ...Object.entries(trace.request.headers).map(([n, v]) => `${n}: ${v}`),
    '',
    trace.request.body,
  ].join('\n');
  const response =
    trace.response === undefined
      ? '(no response)'
      : [
          `HTTP ${trace.response.status}`,
          ...Object.entries(trace.response.headers).map(([n, v]) => `${n}: ${v}`),
          '',
          trace.response.body,
        ].join('\n');
  return { request, response };
}

function mismatch(f: Failure): string {
  return `<p>${h(f.message)}</p>\n<dl><dt>Expected</dt><dd><code>${h(f.expected)}</code></dd><dt>Actual</dt><dd><code>${h(f.actual)}</code></dd></dl>`;
}

function exchange(trace: Trace | undefined): string {
  if (trace === undefined) return '';
  const { request, response } = traceText(trace);
  const note = trace.curl.includes('***')
    ? ' <span class="badge">secrets shown as ***: put yours back to reproduce</span>'
    : '';
  return [
    `<details><summary>Request and response</summary>\n<h5>Request</h5><pre><code>${h(request)}</code></pre>\n<h5>Response</h5><pre><code>${h(response)}</code></pre></details>`,
    `<p>Reproduce:${note}</p><pre class="curl"><code>${h(trace.curl)}</code></pre>`,
  ].join('\n');
}

function failedCase(c: CaseOutcome, failures: readonly Failure[]): string {
  const level = failures.reduce(
    (l, f) => (LEVELS.indexOf(f.level) < LEVELS.indexOf(l) ? f.level : l),
    failures[0]!.level,
  );
  return [
    `<article class="case" data-binding="${h(c.binding)}" data-level="${level}" data-status="${c.status}">`,
    `<h4><code>${h(c.id)}</code> <span class="badge">${h(BINDING_TITLES[c.binding] ?? c.binding)}</span> <span class="badge">${level.toUpperCase()}</span></h4>`,
    ...failures.map(mismatch),
    exchange(c.trace),
    '</article>',
  ].join('\n');
}

function failuresSection(report: Report): string {
  const groups: string[] = [];
  for (const check of report.checks) {
    const cases = report.cases.filter((c) => c.failures.some((f) => f.check === check.id));
    if (cases.length === 0) continue;
    groups.push(
      [
        `<section class="group" aria-labelledby="check-${h(check.id)}">`,
        `<h3 id="check-${h(check.id)}"><code>${h(check.id)}</code> — ${h(check.title)}</h3>`,
        `<p><span class="badge">${check.level.toUpperCase()}</span> ${h(check.source)} · <span class="shown">${cases.length}</span> of ${cases.length} case(s) shown</p>`,
        ...cases.map((c) =>
          failedCase(
            c,
            c.failures.filter((f) => f.check === check.id),
          ),
        ),
        '</section>',
      ].join('\n'),
    );
  }
  const transport = report.cases.filter((c) => c.transportError !== undefined);
  if (transport.length > 0) {
    groups.push(
      [
        '<section class="group" aria-labelledby="check-transport"><h3 id="check-transport">transport — no complete HTTP response within the runner\'s bounds</h3>',
        `<p><span class="shown">${transport.length}</span> of ${transport.length} case(s) shown</p>`,
        ...transport.map(
          (c) =>
            `<article class="case" data-binding="${h(c.binding)}" data-level="${c.level}" data-status="${c.status}"><h4><code>${h(c.id)}</code></h4><p>${h(c.transportError!)}</p>${exchange(c.trace)}</article>`,
        ),
        '</section>',
      ].join('\n'),
    );
  }
  const body = groups.length === 0 ? '<p>No failures.</p>' : groups.join('\n');
  return `<section aria-labelledby="failures"><h2 id="failures">Failures by check</h2>\n${body}\n</section>`;
}

function casesSection(report: Report): string {
  const rows = report.cases.map((c) => {
    const checks = [...new Set(c.failures.map((f) => f.check))].join(', ');
    const note = c.transportError ?? c.refused ?? c.skipReason ?? checks;
    return `<tr data-binding="${h(c.binding)}" data-level="${c.level}" data-status="${c.status}"><td><code>${h(c.id)}</code></td><td>${h(BINDING_TITLES[c.binding] ?? c.binding)}</td><td>${c.level.toUpperCase()}</td><td>${c.status}</td><td>${h(note)}</td></tr>`;
  });
  return [
    `<section aria-labelledby="all-cases"><h2 id="all-cases">All cases (<span id="cases-shown">${report.cases.length}</span> of ${report.cases.length} shown)</h2>`,
    '<div class="table"><table id="cases"><caption>Every case of the run</caption>',
    '<thead><tr><th scope="col">Case</th><th scope="col">Binding</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col">Failing checks / note</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody></table></div></section>`,
  ].join('\n');
}

export function renderHtml(report: Report): string {
  return htmlPage({
    title: `smskit conformance: ${report.summary.ok ? 'PASS' : 'FAIL'} — ${h(report.target)}`,
    style: STYLE,
    body: [
      `<header><h1>smskit conformance report</h1><p>Target: <code>${h(report.target)}</code></p></header>`,
      '<main>',
      summarySection(report),
      filterForm(report),
      failuresSection(report),
      casesSection(report),
      '</main>',
    ],
    script: SCRIPT,
  });
}
