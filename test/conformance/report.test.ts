/** Reporters and redaction: shapes of the JSON and JUnit reports, and no secret in any output. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../../runtime/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { Report } from '../../conformance/index.js';
import { renderJson, renderJunit, renderPretty } from '../../conformance/report/index.js';
import { makeRedactor } from '../../report/redact.js';
import { startBrokenServer, type BrokenServer } from '../fixtures/conformance/broken-server.js';
import { DEFECTS } from '../fixtures/conformance/defects.js';
import { startReferenceServer } from '../fixtures/conformance/reference-server.js';
import { runAgainst, TEST_BODY_LIMIT, TEST_PASSWORD } from '../fixtures/conformance/run.js';

let reference: Listening;
let broken: BrokenServer;
let report: Report;

beforeAll(async () => {
  reference = await startReferenceServer(TEST_BODY_LIMIT);
  // Echo the password back in every response too: redaction must cover response bodies.
  const contentType = DEFECTS.find((d) => d.name === 'wrong content type')!;
  broken = await startBrokenServer(reference.url, (req, res) => {
    const altered = contentType.alter(req, res);
    return { ...altered, body: altered.body.replace(/ok:/, `ok:${TEST_PASSWORD}:`) };
  });
  report = await runAgainst(broken.url);
});
afterAll(async () => {
  await broken.close();
  await reference.close();
});

const spellings = [
  TEST_PASSWORD,
  encodeURIComponent(TEST_PASSWORD),
  new URLSearchParams({ p: TEST_PASSWORD }).toString().slice(2),
  'Sup3r-Secret&amp;&lt;pw&gt;',
];

describe('reports', () => {
  it('the JSON report has the documented shape', () => {
    const json = JSON.parse(renderJson(report)) as {
      summary: Record<string, number>;
      cases: Record<string, unknown>[];
    };
    expect(Object.keys(json.summary)).toEqual(expect.arrayContaining(['total', 'passed', 'failed', 'skipped']));
    expect(json.summary.total).toBe(report.cases.length);
    const failed = json.cases.find((c) => c.status === 'failed')!;
    expect(Object.keys(failed)).toEqual(
      expect.arrayContaining(['id', 'operation', 'binding', 'status', 'durationMs', 'failures']),
    );
    expect(Object.keys((failed.failures as object[])[0]!)).toEqual([
      'check',
      'level',
      'source',
      'expected',
      'actual',
      'message',
    ]);
  });

  it('the JUnit report is well-formed XML with one testcase per case', () => {
    const xml = renderJunit(report);
    const doc = readXml(xml);
    expect(doc.root.local).toBe('testsuites');
    expect(xml.match(/<testcase /g)?.length).toBe(report.cases.length);
    expect(xml).toContain('<failure message="http.content-type');
  });

  it('the pretty report groups by check and shows trace and curl', () => {
    const text = renderPretty(report);
    expect(text).toContain('✗ http.content-type [MUST');
    expect(text).toContain('$ curl -sS -i -X POST');
    expect(text).toMatch(/^FAIL \(--fail-on must\): \d+ cases/m);
  });

  it.each(['pretty', 'json', 'junit'] as const)('the %s report never shows the password', (name) => {
    const text = name === 'pretty' ? renderPretty(report) : name === 'json' ? renderJson(report) : renderJunit(report);
    for (const s of spellings) expect(text).not.toContain(s);
    expect(text).toContain('***');
  });
});

describe('redaction', () => {
  const redact = makeRedactor(['p@ss w&rd']);
  it.each([
    ['raw value', 'x p@ss w&rd y', 'x *** y'],
    ['XML-escaped value', '<a>p@ss w&amp;rd</a>', '<a>***</a>'],
    ['form-encoded value', 'a=p%40ss+w%26rd&b=1', 'a=***&b=1'],
    ['URL-encoded value', '/x?a=p%40ss%20w%26rd', '/x?a=***'],
    ['password parameter by name', '/x?user=u&password=other&b=1', '/x?user=u&password=***&b=1'],
    [
      'password element by name',
      '<m:password xmlns:m="u">other</m:password>',
      '<m:password xmlns:m="u">***</m:password>',
    ],
    ['credentials in a URL', 'curl http://user:pw@host/x', 'curl http://***@host/x'],
    ['authorization header', "-H 'authorization: Basic abc'", "-H 'authorization: ***'"],
  ])('%s', (_, input, want) => {
    expect(redact(input)).toBe(want);
  });
});
