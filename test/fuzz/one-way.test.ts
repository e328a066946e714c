/**
 * The fuzzer on a one-way operation (test/fixtures/runtime/one-way.wsdl: `Log` has no output):
 * valid and invalid requests to `Log` on both SOAP versions, judged by the runner's one-way
 * checks. An smskit server (202 with no body; a fault only for a request it cannot read) gives no
 * finding; one answering `Log` 500 without a fault gives one.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import { runFuzz } from '../../fuzz/index.js';
import { createRequestListener, type Listening, listen } from '../../runtime/index.js';
import { startBrokenServer } from '../fixtures/conformance/broken-server.js';

const WSDL_FILE = 'test/fixtures/runtime/one-way.wsdl';
const model = parseWsdl(WSDL_FILE);
let server: Listening;

beforeAll(async () => {
  const handlers = { Log: async () => {}, Echo: async (i: { text?: string }) => ({ EchoResult: i.text ?? '' }) };
  const options = { wsdl: readFileSync(WSDL_FILE, 'utf8'), logger: { error: () => {} } };
  server = await listen(createRequestListener(toDescriptor(model), handlers, options), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server?.close();
});

const fuzz = (origin: string) =>
  runFuzz({ wsdlModel: model, target: `${origin}/oneway`, allowWrites: true, runs: 200, seed: 42, timeoutMs: 5000 });

it('exercises Log on both SOAP versions, valid and invalid, and finds nothing in an smskit server', async () => {
  const report = await fuzz(server.url);
  const log = report.properties.filter((p) => p.operation === 'Log');
  expect(log.map((p) => [p.id, p.status, p.cases > 0])).toEqual([
    ['Log/soap11/valid', 'passed', true],
    ['Log/soap11/invalid', 'passed', true],
    ['Log/soap12/valid', 'passed', true],
    ['Log/soap12/invalid', 'passed', true],
  ]);
  expect(report.findings).toEqual([]);
});

it('finds a one-way operation answered 500 without a fault', async () => {
  const broken = await startBrokenServer(server.url, (req, res) =>
    res.status === 202 && String(req.headers.soapaction ?? req.headers['content-type']).includes('/Log')
      ? { status: 500, headers: {}, body: '' }
      : res,
  );
  try {
    const report = await fuzz(broken.url);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((f) => f.operation === 'Log')).toBe(true);
  } finally {
    await broken.close();
  }
});
