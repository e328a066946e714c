/**
 * The contract from a URL (`--wsdl <target>?wsdl`): fetched once with a time and size limit,
 * parsed into the same model as the file; every failure is one CONTRACT_UNREADABLE line that
 * names the URL and what went wrong.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../conformance/contract-source.js';
import { ConformanceError } from '../../conformance/errors.js';

const WSDL = readFileSync(new URL('../../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/serviceapi.asmx?wsdl') return void res.writeHead(200, { 'content-type': 'text/xml' }).end(WSDL);
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/xml' }).end('x'.repeat(64 * 1024));
    if (req.url === '/slow') return; // never answers
    res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function refusal(url: string, timeoutMs = 2_000, maxBytes?: number): Promise<ConformanceError> {
  const error = await loadContract(url, timeoutMs, maxBytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConformanceError);
  expect((error as ConformanceError).code).toBe('CONTRACT_UNREADABLE');
  expect((error as ConformanceError).message).toContain(url);
  return error as ConformanceError;
}

describe('loadContract from a URL', () => {
  it('parses the served WSDL into the same descriptor as the file', async () => {
    const fromUrl = await loadContract(`${origin}/serviceapi.asmx?wsdl`, 5_000);
    const fromFile = await loadContract('wsdl/serviceapi.wsdl', 5_000);
    expect(fromUrl.wsdlText).toBe(WSDL);
    expect(fromUrl.descriptor).toEqual(fromFile.descriptor);
  });

  it('refuses an answer other than 200', async () => {
    expect((await refusal(`${origin}/missing?wsdl`)).message).toContain('HTTP 404');
  });

  it('refuses a document over the size limit', async () => {
    expect((await refusal(`${origin}/big`, 2_000, 1024)).message).toMatch(
      /the response exceeded 1 KiB \(--max-response-bytes\)/,
    );
  });

  it('gives up on a server that does not answer in time', async () => {
    expect((await refusal(`${origin}/slow`, 300)).message).toMatch(/300 ms/);
  });

  it('says when nothing listens there', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await refusal(`http://127.0.0.1:${port}/x?wsdl`)).message).toMatch(/refused|ECONNREFUSED/i);
  });
});
