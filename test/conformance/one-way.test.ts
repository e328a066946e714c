/**
 * The runner on a one-way operation (test/fixtures/runtime/one-way.wsdl: `Log` has no output,
 * `Echo` has one): an smskit server, which answers `Log` 202 with no body, passes every case; a
 * server answering 200 with no body (WS-I BP R1112) passes too, and so does one that answers
 * every POST 202, negative cases included (R2714 forbids a one-way response a fault); an empty
 * envelope with 200 or a 204 fails only `soap.one-way-no-envelope` (SHOULD), as does a fault
 * refusing a valid call (which fails the plain case at MUST too, as for any operation); a 500
 * without a fault fails `soap.one-way-status` (MUST).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../contract/parse/index.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { runConformance, type Report } from '../../conformance/index.js';
import { createRequestListener, type Listening, listen } from '../../runtime/index.js';
import { type Alteration, startBrokenServer } from '../fixtures/conformance/broken-server.js';
import { failingChecks } from '../fixtures/conformance/run.js';

const WSDL_FILE = 'test/fixtures/runtime/one-way.wsdl';
const model = parseWsdl(WSDL_FILE);
const logged: unknown[] = [];
let server: Listening;

beforeAll(async () => {
  const handlers = {
    Log: async (input: unknown) => void logged.push(input),
    Echo: async (input: { text?: string }) => ({ EchoResult: input.text ?? '' }),
  };
  const wsdl = readFileSync(WSDL_FILE, 'utf8');
  server = await listen(createRequestListener(toDescriptor(model), handlers, { wsdl }), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

function run(origin: string): Promise<Report> {
  return runConformance({ target: `${origin}/oneway`, wsdlModel: model, retries: 0, timeoutMs: 5000, concurrency: 8 });
}

/** Only the answers to `Log`, the one-way operation, are altered. */
function onLog(alter: Alteration): Alteration {
  return (req, res) =>
    String(req.headers.soapaction ?? req.headers['content-type']).includes('/Log') ? alter(req, res) : res;
}

describe('a one-way operation', () => {
  it('is exercised on both SOAP bindings, and an smskit server passes every case at every level', async () => {
    const report = await run(server.url);
    const logCases = report.cases.filter((c) => c.operation === 'Log' && c.id.includes('/ok/'));
    expect(new Set(logCases.map((c) => c.binding))).toEqual(new Set(['soap11', 'soap12']));
    expect(logCases.every((c) => c.status === 'passed')).toBe(true);
    expect(report.cases.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
    expect(logged.length).toBeGreaterThan(0);
  });

  it('accepts 200 with no body', async () => {
    const broken = await startBrokenServer(
      server.url,
      onLog((_, res) => (res.status === 202 ? { status: 200, headers: {}, body: '' } : res)),
    );
    try {
      expect(failingChecks(await run(broken.url))).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('an empty envelope with 200 fails soap.one-way-no-envelope (SHOULD) and nothing else', async () => {
    const envelope =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>';
    const broken = await startBrokenServer(
      server.url,
      onLog((_, res) =>
        res.status === 202
          ? { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: envelope }
          : res,
      ),
    );
    try {
      expect(failingChecks(await run(broken.url))).toEqual(['soap.one-way-no-envelope@should']);
    } finally {
      await broken.close();
    }
  });

  it('a server answering every POST to it 202 with no body, as R2714 has it (WCF IsOneWay), passes', async () => {
    const broken = await startBrokenServer(
      server.url,
      onLog((req, res) => (req.method === 'POST' ? { status: 202, headers: {}, body: '' } : res)),
    );
    try {
      expect(failingChecks(await run(broken.url))).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('204 passes the MUST check and fails the SHOULD one; a fault refusing a valid call fails the SHOULD one too', async () => {
    const noContent = await startBrokenServer(
      server.url,
      onLog((_, res) => (res.status === 202 ? { status: 204, headers: {}, body: '' } : res)),
    );
    const fault = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>no</faultstring><detail/></soap:Fault></soap:Body></soap:Envelope>`;
    const refusing = await startBrokenServer(
      server.url,
      onLog((req, res) =>
        res.status === 202 && String(req.headers['content-type']).startsWith('text/xml')
          ? { status: 500, headers: { 'content-type': 'text/xml; charset=utf-8' }, body: fault }
          : res,
      ),
    );
    try {
      expect(failingChecks(await run(noContent.url))).toEqual(['soap.one-way-no-envelope@should']);
      // The plain case allows no refusal: a fault there is a failed call (MUST), as for any operation.
      expect(failingChecks(await run(refusing.url))).toEqual([
        'soap.one-way-no-envelope@should',
        'soap.one-way-status@must',
      ]);
    } finally {
      await noContent.close();
      await refusing.close();
    }
  });

  it('a 500 without a fault fails soap.one-way-status (MUST)', async () => {
    const broken = await startBrokenServer(
      server.url,
      onLog((_, res) => (res.status === 202 ? { status: 500, headers: {}, body: '' } : res)),
    );
    try {
      expect(failingChecks(await run(broken.url))).toEqual(['soap.one-way-status@must']);
    } finally {
      await broken.close();
    }
  });
});
