/**
 * The `wsdl/structure` case reads the served `?wsdl` with the documents it imports, as a PHP,
 * JAX-WS or WCF service serves its types: the import fixture (a WSDL importing an abstract WSDL
 * that imports a schema that includes another) served over HTTP passes; the same served with
 * an import that answers 404 fails naming the import; an import on another origin is not fetched.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { runConformance } from '../../conformance/index.js';
import { parseWsdl } from '../../generator/index.js';
import { repoRoot } from '../helpers/cli.js';

const FIXTURE = `${repoRoot}/test/fixtures/wsdl-import`;
const descriptor = toDescriptor(parseWsdl(`${FIXTURE}/main.wsdl`));
const requested: string[] = [];
let origin: string;
let server: http.Server;
/** What /abstract.wsdl answers: the fixture, or a 404 (a broken import). */
let abstractMissing = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    const path = (req.url ?? '').split('?')[0]!;
    const file = path === '/quotes' && req.url === '/quotes?wsdl' ? 'main.wsdl' : path.slice(1);
    if (file.includes('..') || (file === 'abstract.wsdl' && abstractMissing)) return void res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' }).end(readFileSync(`${FIXTURE}/${file}`));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const wsdlCase = () => runConformance({ target: `${origin}/quotes`, descriptor, run: ['wsdl/*'], retries: 0 });

describe('wsdl/structure follows the served WSDL’s imports', () => {
  it('a served WSDL whose types are in imported documents matches the contract', async () => {
    requested.length = 0;
    abstractMissing = false;
    const report = await wsdlCase();
    const outcome = report.cases.find((c) => c.id === 'wsdl/structure')!;
    expect(outcome.failures).toEqual([]);
    expect(outcome.status).toBe('passed');
    expect(requested).toEqual(
      expect.arrayContaining(['/quotes?wsdl', '/abstract.wsdl', '/types/quotes.xsd', '/types/common.xsd']),
    );
  });

  it('an import that cannot be fetched fails the case, naming it and why', async () => {
    abstractMissing = true;
    try {
      const report = await wsdlCase();
      const outcome = report.cases.find((c) => c.id === 'wsdl/structure')!;
      expect(outcome.status).toBe('failed');
      expect(JSON.stringify(outcome.failures)).toContain(`${origin}/abstract.wsdl`);
      expect(JSON.stringify(outcome.failures)).toContain('HTTP 404');
    } finally {
      abstractMissing = false;
    }
  });
});
