/**
 * The runner on a one-way operation (test/fixtures/runtime/one-way.wsdl: `Log` has no output,
 * `Echo` has one): an smskit server, which answers `Log` 202 with no body, passes every case; a
 * server answering 200 with no body (allowed by WS-I BP R2750) passes too; an empty envelope
 * with 200 fails only `soap.one-way-no-envelope` (SHOULD, R2714); a 500 without a fault fails
 * `soap.one-way-status` (MUST).
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
