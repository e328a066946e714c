/**
 * The replay reporters on a report with hostile text (markup, a CDATA end, control characters,
 * a password in an answer): JUnit stays well-formed XML, HTML shows the text and runs none of it,
 * every reporter keeps the password out, and the verdict follows the baseline.
 */
import { describe, expect, it } from 'vitest';
import { renderReplayReport, type ReplayReport } from '../../migrate/index.js';
import { readXml } from '../../runtime/xml/reader.js';

const HOSTILE = '<script>alert(1)</script> ]]> \u0001 "quoted" & <password>hunter2</password>';

function report(baseline?: 'known' | 'new'): ReplayReport {
  const answer = { status: 500, headers: [['content-type', 'text/xml']] as [string, string][], body: HOSTILE };
  return {
    meta: {
      tool: 'smskit test',
      recording: 'rec<1>',
      upstream: 'http://old',
      target: 'http://new',
      reference: undefined,
      secretsKept: false,
      ignore: [],
      leafTypes: 'lexical forms',
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
    },
    summary: {
      exchanges: 2,
      replayed: 2,
      matched: 1,
      differing: 1,
      skipped: 0,
      notJudged: 0,
      groups: 1,
      gating: baseline === 'known' ? 0 : 1,
      unreachable: false,
      interrupted: false,
      durationMs: 5,
      ok: baseline === 'known',
    },
    groups: [
      {
        key: 'Op<x> soap11 changed /Envelope/Body/R/v',
        operation: 'Op<x>',
        binding: 'soap11',
        kind: 'changed',
        path: '/Envelope/Body/R/v',
        count: 1,
        exchanges: [2],
        ...(baseline === undefined ? {} : { baseline }),
        example: {
          exchange: 2,
          want: `{urn:x}v = "${HOSTILE}"`,
          got: '{urn:x}v = "2"',
          wantAnswer: answer,
          gotAnswer: { status: undefined, headers: [], body: '', error: 'ECONNRESET' },
          curl: "curl -sS -i -X POST 'http://new/x' --data-binary '<password>hunter2</password>'",
        },
      },
    ],
    noise: [],
    skipped: [],
    warnings: [],
  };
}

describe('replay reporters', () => {
  it('JUnit is well-formed XML with one failure per new group, none for a known one', () => {
    const fresh = readXml(renderReplayReport('junit', report())).root;
    expect(fresh.attributes.find((a) => a.local === 'failures')?.value).toBe('1');
    const known = renderReplayReport('junit', report('known'));
    expect(readXml(known).root.attributes.find((a) => a.local === 'failures')?.value).toBe('0');
    expect(known).toContain('known difference (baseline)');
  });

  it('HTML escapes every text and keeps named passwords out', () => {
    const html = renderReplayReport('html', report());
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('hunter2');
    expect(html).toContain('ECONNRESET');
  });

  it('pretty gives the verdict, the group and the curl line', () => {
    const text = renderReplayReport('pretty', report());
    expect(text).toContain('Op<x> soap11  changed /Envelope/Body/R/v  (1 exchange)');
    expect(text).toContain("$ curl -sS -i -X POST 'http://new/x'");
    expect(text).toMatch(/FAIL: 2 exchanges, 2 replayed, 1 matched, 1 differ/);
    expect(renderReplayReport('pretty', report('known'))).toMatch(
      /PASS: .*\[known: baseline\]|\[known: baseline\][\s\S]*PASS:/,
    );
  });

  it('JSON is the report itself', () => {
    expect(JSON.parse(renderReplayReport('json', report()))).toEqual(report());
  });
});
