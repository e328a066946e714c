/**
 * The replay reporters on a report with hostile text (markup, a CDATA end, control characters,
 * a password in an answer): JUnit stays well-formed XML, HTML shows the text and runs none of it
 * (and redacts once more whatever reaches it), and the verdict follows the baseline. Every
 * reporter, by the kit's list of names, keeps out a password that a recording made with
 * --keep-secrets carried and both servers echoed: replay redacts what it shows.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  type LoadedRecording,
  REPLAY_REPORTERS,
  renderReplayReport,
  type ReplayReport,
  replay,
} from '../../migrate/index.js';
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

const SECRET = 'hunter2-kept';
const envelope = (body: string): string =>
  `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const answer = (result: string): string =>
  envelope(
    `<LoginResponse xmlns="urn:x"><LoginResult>${result}</LoginResult><password>${SECRET}</password></LoginResponse>`,
  );

/** One exchange recorded with --keep-secrets: the password in the request and in the answer. */
function keptRecording(): LoadedRecording {
  const b64 = (text: string): string => Buffer.from(text).toString('base64');
  return {
    meta: {
      format: 1,
      tool: 'smskit test',
      upstream: 'http://old',
      startedAt: '2026-01-01T00:00:00.000Z',
      secretsKept: true,
      secretFields: ['password'],
    },
    exchanges: [
      {
        id: 1,
        at: '2026-01-01T00:00:00.000Z',
        ms: 1,
        request: {
          method: 'POST',
          target: `/svc.asmx?password=${SECRET}`,
          headers: [
            ['content-type', 'text/xml; charset=utf-8'],
            ['soapaction', '"urn:x/Login"'],
            ['authorization', `Basic ${Buffer.from(`u:${SECRET}`).toString('base64')}`],
          ],
          body: b64(envelope(`<Login xmlns="urn:x"><user>u</user><password>${SECRET}</password></Login>`)),
        },
        response: { status: 200, headers: [['content-type', 'text/xml; charset=utf-8']], body: b64(answer('old')) },
        secrets: ['header authorization', 'element password'],
      },
    ],
    warnings: [],
  };
}

describe('every replay reporter keeps a kept password out', () => {
  it.each(REPLAY_REPORTERS)('%s', async (name) => {
    const target = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(answer('new'));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    try {
      const report = await replay({
        recording: keptRecording(),
        recordingDir: 'rec',
        target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
        network: { timeoutMs: 10_000 },
        allowWrites: true,
        operations: [],
        sendCredentials: true,
        concurrency: 1,
        ratePerSecond: 0,
        ignore: [],
        tool: 'smskit test',
      });
      // The difference is shown, with both answers and the curl line, so the password had a way out.
      expect(report.summary).toMatchObject({ replayed: 1, differing: 1 });
      const text = renderReplayReport(name, report);
      expect(text).toContain('LoginResult');
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(Buffer.from(`u:${SECRET}`).toString('base64'));
    } finally {
      await new Promise((resolve) => target.close(resolve));
    }
  });
});
