/**
 * Checks on hand-made exchanges: where SOAP allows several answers each is accepted and named,
 * the refusal branch of positive cases, and findings no broken server in the matrix produces.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../conformance/catalogue/build.js';
import { ALL_CHECKS } from '../../conformance/validate/checks/index.js';
import { evaluateCase } from '../../conformance/validate/evaluate.js';
import { makeRedactor } from '../../report/redact.js';
import type { Exchange } from '../../conformance/types.js';
import { contractDescriptor } from '../fixtures/conformance/contract.js';
import { TEST_INPUTS } from '../fixtures/conformance/run.js';

const NS = contractDescriptor.targetNamespace;
const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const cases = buildCatalogue({ descriptor: contractDescriptor, inputs: TEST_INPUTS });
const byId = (id: string) => cases.find((c) => c.id === id)!;

function exchange(status: number, contentType: string, body: string | Uint8Array): Exchange {
  return {
    request: { method: 'POST', path: '/x', headers: {}, url: 'http://h/x' },
    response: {
      status,
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    },
    durationMs: 1,
  };
}
const fault11 = (code: string, text = 'refused') =>
  `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${S11}"><s:Body><s:Fault><faultcode>s:${code}</faultcode><faultstring>${text}</faultstring></s:Fault></s:Body></s:Envelope>`;
const fault12 = (code: string) =>
  `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${S12}"><s:Body><s:Fault><s:Code><s:Value>s:${code}</s:Value></s:Code><s:Reason><s:Text xml:lang="en">refused</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`;
const run = (id: string, ex: Exchange) => evaluateCase(byId(id), ex, ALL_CHECKS, 'compat', makeRedactor([]));
const failed = (id: string, ex: Exchange) => [...new Set(run(id, ex).failures.map((f) => f.check))];

describe('several allowed answers: each accepted and named', () => {
  it('SOAP 1.2 Sender fault with 400 or 500', () => {
    for (const status of [400, 500]) {
      const outcome = run(
        'SMSSend/soap12/fault/malformed-xml',
        exchange(status, 'application/soap+xml; charset=utf-8', fault12('Sender')),
      );
      expect(outcome.failures).toEqual([]);
      expect(outcome.observations).toContain(`fault.status: SOAP 1.2 Sender fault with HTTP ${status}`);
    }
  });
  it('but a SOAP 1.1 fault with 400 is wrong', () => {
    expect(failed('SMSSend/soap11/fault/doctype', exchange(400, 'text/xml; charset=utf-8', fault11('Client')))).toEqual(
      ['fault.status'],
    );
  });
  it('415 instead of a fault for a wrong content type', () => {
    const outcome = run(
      'SMSSend/soap11/fault/wrong-content-type',
      exchange(415, 'text/plain', 'Unsupported Media Type'),
    );
    expect(outcome.failures).toEqual([]);
    expect(outcome.observations).toContain('fault.answer: answered with HTTP 415 instead of a fault (allowed)');
  });
  it('VersionMismatch in either version', () => {
    expect(
      failed(
        'SMSSend/soap12/fault/version-mismatch',
        exchange(500, 'text/xml; charset=utf-8', fault11('VersionMismatch')),
      ),
    ).toEqual([]);
  });
});

describe('positive cases the service may refuse', () => {
  it('a Client fault for an empty value is accepted and counted', () => {
    const outcome = run(
      'SMSSend/soap11/ok/empty',
      exchange(500, 'text/xml; charset=utf-8', fault11('Client', 'EmptyMessage')),
    );
    expect(outcome.failures).toEqual([]);
    expect(outcome.refused).toBe('Client: EmptyMessage');
  });
  it('a Server fault is not a refusal', () => {
    expect(failed('SMSSend/soap11/ok/empty', exchange(500, 'text/xml; charset=utf-8', fault11('Server')))).toEqual([
      'fault.code',
    ]);
  });
  it('plain values must succeed: a fault fails the success checks', () => {
    expect(failed('SMSSend/soap11/ok/plain', exchange(500, 'text/xml; charset=utf-8', fault11('Client')))).toEqual(
      expect.arrayContaining(['http.status-200', 'soap.response-element']),
    );
  });
  it('GET/POST refusals: 500 text/plain, one line', () => {
    expect(
      failed('SMSSend/http-get/ok/long', exchange(500, 'text/plain; charset=utf-8', 'MessageTooLong: too long')),
    ).toEqual([]);
    expect(
      failed(
        'SMSSend/http-post/ok/long',
        exchange(400, 'text/plain; charset=utf-8', 'too long\n   at x (/app/a.js:1:2)'),
      ),
    ).toEqual(['fault.no-stack-trace', 'http.error-text']);
  });
  it("a GET query over ASMX's 2048-character limit: its 400 HTML page is accepted, and named", () => {
    const outcome = run(
      'SMSSend/http-get/ok/long',
      exchange(400, 'text/html; charset=utf-8', '<!DOCTYPE html><html><body>Bad Request</body></html>'),
    );
    expect(outcome.failures).toEqual([]);
    expect(outcome.refused).toMatch(
      /^HTTP 400: the query string \(\d+ characters\) is over ASMX's 2048-character limit$/,
    );
    expect(outcome.observations).toContainEqual(
      expect.stringMatching(/^http\.status-200: HTTP 400 instead of an answer: the query string/),
    );
  });
  it('a 404 is no refusal of a value: the success checks judge it', () => {
    expect(failed('SMSSend/http-post/ok/long', exchange(404, 'text/html', '<html>Not Found</html>'))).toEqual(
      expect.arrayContaining(['http.status-200']),
    );
  });
});

describe('findings the defect matrix does not produce', () => {
  const ok = (body: string) =>
    `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${S11}"><s:Body><SMSSendResponse xmlns="${NS}">${body}</SMSSendResponse></s:Body></s:Envelope>`;
  it('all mismatches of a case are reported, not only the first', () => {
    const found = failed('SMSSend/soap11/ok/plain', exchange(202, 'text/html', ok('<Extra/>')));
    expect(found).toEqual(
      expect.arrayContaining(['http.status-200', 'http.content-type', 'response.field-set', 'http.content-type-exact']),
    );
  });
  it('invalid UTF-8 bytes', () => {
    const [head, tail] = ok('<SMSSendResult>caf|</SMSSendResult>').split('|') as [string, string];
    const body = new Uint8Array([...new TextEncoder().encode(head), 0xe9, ...new TextEncoder().encode(tail)]);
    expect(failed('SMSSend/soap11/ok/plain', exchange(200, 'text/xml; charset=utf-8', body))).toContain('xml.encoding');
  });
  it('a .NET stack trace in a fault', () => {
    const trace =
      'System.InvalidOperationException: x ---> System.Exception: y\n   at Foo.Bar() in C:\\src\\Foo.cs:line 12';
    expect(
      failed(
        'SMSSend/soap11/fault/unknown-soapaction',
        exchange(500, 'text/xml; charset=utf-8', fault11('Client', trace)),
      ),
    ).toEqual(['fault.no-stack-trace']);
  });
  it('a check that throws is reported as a failure of that check, not hidden', () => {
    const broken = {
      ...ALL_CHECKS[0]!,
      run: () => {
        throw new Error('boom');
      },
    };
    const outcome = evaluateCase(
      byId('SMSSend/soap11/ok/plain'),
      exchange(200, 'text/xml; charset=utf-8', ok('<SMSSendResult>1</SMSSendResult>')),
      [broken],
      'compat',
      makeRedactor([]),
    );
    expect(outcome.failures[0]).toMatchObject({ check: broken.id, message: expect.stringContaining('boom') });
  });
});
