/**
 * The HTML report (conformance/report/html.ts) of a real run against a server with two defects
 * that also echoes the password: summary tables, failures grouped by check with expected vs
 * actual, exchange and curl, the filter data on every case, no secret, nothing fetched.
 * Its behaviour in a browser (filtering, file://) is in test/browser/conformance-report.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../../runtime/index.js';
import type { Report } from '../../conformance/index.js';
import { renderHtml, renderReport } from '../../conformance/report/index.js';
import { REPORTERS } from '../../report/names.js';
import { startReportTarget, type ReportTarget } from '../helpers/report-target.js';
import { startReferenceServer } from '../fixtures/conformance/reference-server.js';
import { runAgainst, TEST_BODY_LIMIT, TEST_PASSWORD } from '../fixtures/conformance/run.js';

let reference: Listening;
let target: ReportTarget;
let report: Report;
let page: string;

beforeAll(async () => {
  reference = await startReferenceServer(TEST_BODY_LIMIT);
  target = await startReportTarget(reference.url);
  report = await runAgainst(target.url);
  page = renderHtml(report);
}, 60_000);
afterAll(async () => {
  await target?.close();
  await reference?.close();
});

const spellings = [
  TEST_PASSWORD,
  encodeURIComponent(TEST_PASSWORD),
  new URLSearchParams({ p: TEST_PASSWORD }).toString().slice(2),
  'Sup3r-Secret&amp;&lt;pw&gt;',
];

describe('the HTML report', () => {
  it('is a reporter --reporter can name', () => {
    expect(REPORTERS).toContain('html');
    expect(renderReport('html', report)).toBe(page);
  });

  it('opens with the verdict and the summary by level, binding and operation', () => {
    const summary = page.slice(page.indexOf('<h2 id="summary">'), page.indexOf('<h2 id="failures">'));
    expect(summary).toMatch(/<p class="verdict fail">FAIL \(--fail-on must\): \d+ cases/);
    for (const caption of ['Failures by level', 'Cases by binding', 'Cases by operation'])
      expect(summary).toContain(`<caption>${caption}</caption>`);
    expect(summary).toContain('<th scope="row">SOAP 1.2</th>');
    expect(summary).toContain('<th scope="row">SMSSendToPort</th>');
    expect(summary).toMatch(
      new RegExp(`<th scope="row">MUST</th><td class="n">${report.summary.failuresByLevel.must}</td>`),
    );
  });

  it('groups failures by check, each case with expected, actual, the exchange and curl', () => {
    const group = page.slice(page.indexOf('<h3 id="check-http.content-type">'));
    const firstCase = group.slice(0, group.indexOf('</article>'));
    expect(firstCase).toMatch(
      /<dt>Expected<\/dt><dd><code>[^<]+<\/code><\/dd><dt>Actual<\/dt><dd><code>text\/xml; charset=utf-8<\/code>/,
    );
    expect(firstCase).toContain('<summary>Request and response</summary>');
    expect(firstCase).toMatch(/<pre class="curl"><code>curl -sS -i -X (POST|GET) /);
    expect(page).toContain('<h3 id="check-http.status-200">');
  });

  it('marks every case with its binding, level and status for the filters, in the table of all cases', () => {
    const rows =
      page.match(
        /<tr data-binding="[^"]+" data-level="(must|should|compat)" data-status="(passed|failed|skipped|not-run)">/g,
      ) ?? [];
    expect(rows.length).toBe(report.cases.length);
    expect(page).toContain('<form id="filters" hidden');
    expect(page).toMatch(/<input type="checkbox" name="binding" value="http-get" checked>/);
  });

  it('never shows the password, in any spelling', () => {
    for (const s of spellings) expect(page).not.toContain(s);
    expect(page).toContain('***');
  });

  it('is self-contained: nothing is fetched, no link outside the page', () => {
    expect(page).not.toMatch(/<(link|img|iframe|object|embed)\b/i);
    expect(page).not.toMatch(/\s(src|href)=/i);
    expect(page).not.toMatch(/@import|url\(/i);
  });

  it('escapes what the server sent', () => {
    expect(page).not.toContain('<soap:Envelope');
    expect(page).toContain('&lt;soap:Envelope');
  });
});
