/**
 * The contract layer: a WSDL from a file or a URL becomes the same model; a URL's relative
 * imports are fetched from beside it (and named by their URLs in the model and in errors),
 * remote imports on other hosts only when allowed; an HTML page is named for what it is; every
 * failure to read the contract at all is one CONTRACT_UNREADABLE line naming the URL.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../../contract/read/index.js';
import { GeneratorError } from '../../../contract/errors.js';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { startForwardProxy } from '../../helpers/forward-proxy.js';

const WSDL = readFileSync(new URL('../../../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
const IMPORT_DIR = new URL('../../fixtures/wsdl-import/', import.meta.url);

interface Site {
  readonly origin: string;
  readonly requests: { url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** A server of the import fixture's files (and a few odd answers); `rewrite` edits a file before serving it. */
async function startSite(rewrite: (path: string, text: string) => string = (_p, t) => t): Promise<Site> {
  const requests: Site['requests'] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const path = (req.url ?? '').split('?')[0]!;
    if (req.url === '/serviceapi.asmx?wsdl') return void res.writeHead(200, { 'content-type': 'text/xml' }).end(WSDL);
    if (path === '/serviceapi.asmx')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body><a href="serviceapi.asmx?wsdl">Service Description</a></body></html>');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/xml' }).end('x'.repeat(64 * 1024));
    if (req.url === '/slow') return; // never answers
    try {
      const text = readFileSync(new URL(`.${path}`, IMPORT_DIR), 'utf8');
      res.writeHead(200, { 'content-type': 'text/xml' }).end(rewrite(path, text));
    } catch {
      res.writeHead(404).end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let site: Site;
let origin: string;
beforeAll(async () => {
  site = await startSite();
  origin = site.origin;
});
afterAll(() => site.close());

async function refusal(promise: Promise<unknown>): Promise<GeneratorError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeneratorError);
  return error as GeneratorError;
}

async function unreadable(url: string, options: Parameters<typeof readContract>[1] = {}): Promise<string> {
  const error = await refusal(readContract(url, { timeoutMs: 2_000, ...options }));
  expect(error.code).toBe('CONTRACT_UNREADABLE');
  expect(error.message.startsWith(`${url}: `)).toBe(true);
  return error.message;
}

describe('readContract from a URL', () => {
  it('parses the served WSDL into the same descriptor as the file', async () => {
    const fromUrl = await readContract(`${origin}/serviceapi.asmx?wsdl`);
    const fromFile = await readContract('wsdl/serviceapi.wsdl');
    expect(fromUrl.text).toBe(WSDL);
    expect(fromUrl.documents).toEqual([`${origin}/serviceapi.asmx?wsdl`]);
    expect(toDescriptor(fromUrl.model)).toEqual(toDescriptor(fromFile.model));
    expect(fromUrl.model.file).toBe(`${origin}/serviceapi.asmx?wsdl`);
  });

  it('fetches relative imports from beside the WSDL and names every document by its URL', async () => {
    const contract = await readContract(`${origin}/main.wsdl`);
    const fromFile = await readContract(join('test/fixtures/wsdl-import/main.wsdl'));
    expect(toDescriptor(contract.model)).toEqual(toDescriptor(fromFile.model));
    expect(contract.documents).toEqual([
      `${origin}/main.wsdl`,
      `${origin}/abstract.wsdl`,
      `${origin}/types/quotes.xsd`,
      `${origin}/types/common.xsd`,
    ]);
    expect(fromFile.documents.map((d) => d.replace(/\\/g, '/'))).toEqual([
      'test/fixtures/wsdl-import/main.wsdl',
      'test/fixtures/wsdl-import/abstract.wsdl',
      'test/fixtures/wsdl-import/types/quotes.xsd',
      'test/fixtures/wsdl-import/types/common.xsd',
    ]);
    expect(contract.model.imports).toEqual(contract.documents.slice(1));
  });

  it('names the URL of an imported document in a parse error (never a temporary file)', async () => {
    const broken = await startSite((path, text) => (path === '/types/quotes.xsd' ? text.replace('</', '<//') : text));
    try {
      const error = await refusal(readContract(`${broken.origin}/main.wsdl`));
      expect(error.code).toBe('WSDL_MALFORMED_XML');
      expect(error.file).toBe(`${broken.origin}/types/quotes.xsd`);
      expect(error.message).not.toMatch(/tmp/);
    } finally {
      await broken.close();
    }
  });

  it('names the import that answers 404, at the line that imports it', async () => {
    const missing = await startSite((path, text) =>
      path === '/abstract.wsdl' ? text.replace('types/quotes.xsd', 'types/nope.xsd') : text,
    );
    try {
      const error = await refusal(readContract(`${missing.origin}/main.wsdl`));
      expect(error.code).toBe('WSDL_IMPORT_UNRESOLVED');
      expect(error.message).toBe(
        `${missing.origin}/abstract.wsdl:5: <xsd:import> location "types/nope.xsd" cannot be read from ${missing.origin}/types/nope.xsd (HTTP 404)`,
      );
    } finally {
      await missing.close();
    }
  });

  it('fetches an import from another host only when that host is allowed', async () => {
    const other = await startSite();
    const elsewhere = `${other.origin}/types/quotes.xsd`;
    const pointing = await startSite((path, text) =>
      path === '/abstract.wsdl' ? text.replace('types/quotes.xsd', elsewhere) : text,
    );
    try {
      const error = await refusal(readContract(`${pointing.origin}/main.wsdl`));
      const host = new URL(other.origin).host;
      expect(error.message).toBe(
        `${pointing.origin}/abstract.wsdl:5: <xsd:import> location "${elsewhere}" cannot be read from ${elsewhere} (not fetched: ${host} is another host than the WSDL's (${new URL(pointing.origin).host}); allow it with --allow-import-host ${host})`,
      );
      expect(other.requests).toEqual([]);
      const allowed = await readContract(`${pointing.origin}/main.wsdl`, { allowImportHosts: [host] });
      expect(allowed.documents).toContain(elsewhere);
      expect(other.requests.map((r) => r.url)).toEqual(['/types/quotes.xsd', '/types/common.xsd']);
    } finally {
      await Promise.all([other.close(), pointing.close()]);
    }
  });

  it('a WSDL file fetches a remote import only from a host allowed by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smskit-contract-test-'));
    try {
      const abstract = readFileSync(new URL('abstract.wsdl', IMPORT_DIR), 'utf8').replace(
        'types/quotes.xsd',
        `${origin}/types/quotes.xsd`,
      );
      writeFileSync(join(dir, 'abstract.wsdl'), abstract);
      writeFileSync(join(dir, 'main.wsdl'), readFileSync(new URL('main.wsdl', IMPORT_DIR)));
      const error = await refusal(readContract(join(dir, 'main.wsdl')));
      expect(error.message).toMatch(
        /not fetched: a WSDL read from a file fetches imports only from hosts allowed by name; allow it with --allow-import-host 127\.0\.0\.1:\d+\)$/,
      );
      const allowed = await readContract(join(dir, 'main.wsdl'), { allowImportHosts: [new URL(origin).host] });
      expect(allowed.documents.slice(2)).toEqual([`${origin}/types/quotes.xsd`, `${origin}/types/common.xsd`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops at the document limit', async () => {
    const error = await refusal(readContract(`${origin}/main.wsdl`, { maxDocuments: 2 }));
    expect(error.message).toMatch(/not fetched: the contract would take more than 2 documents/);
  });

  it('sends the credentials only to the service they are for', async () => {
    const auth = { type: 'basic', username: 'api', password: 'pw' } as const;
    const before = site.requests.length;
    await readContract(`${origin}/serviceapi.asmx?wsdl`, { network: { auth }, serviceUrl: 'http://127.0.0.1:9/x' });
    await readContract(`${origin}/serviceapi.asmx?wsdl`, { network: { auth } });
    expect(site.requests.slice(before).map((r) => r.authorization)).toEqual([
      undefined,
      `Basic ${Buffer.from('api:pw').toString('base64')}`,
    ]);
  });

  it('fetches the WSDL and each import through the proxy it is given', async () => {
    const proxy = await startForwardProxy();
    try {
      const contract = await readContract(`${origin}/main.wsdl`, { network: { proxy: proxy.url } });
      expect(contract.documents).toHaveLength(4);
      expect(proxy.requests).toEqual(contract.documents);
    } finally {
      await proxy.close();
    }
  });

  it('says a service page is not a WSDL, and which URL to try', async () => {
    expect(await unreadable(`${origin}/serviceapi.asmx`)).toBe(
      `${origin}/serviceapi.asmx: this is a service page, not a WSDL — try ${origin}/serviceapi.asmx?wsdl`,
    );
  });

  it('refuses an answer other than 200', async () => {
    expect(await unreadable(`${origin}/missing?wsdl`)).toContain('cannot fetch the WSDL: HTTP 404');
  });

  it('refuses a document over the size limit', async () => {
    expect(await unreadable(`${origin}/big`, { maxBytes: 1024 })).toMatch(/over the limit of 1024 bytes/);
  });

  it('gives up on a server that does not answer in time', async () => {
    expect(await unreadable(`${origin}/slow`, { timeoutMs: 300 })).toMatch(/300 ms/);
  });

  it('says when nothing listens there', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await unreadable(`http://127.0.0.1:${port}/x?wsdl`)).toMatch(/refused|ECONNREFUSED/i);
  });

  it('names a missing file in one line, with the same code', async () => {
    const error = await refusal(readContract('nope.wsdl'));
    expect(error.code).toBe('CONTRACT_UNREADABLE');
    expect(error.message).toBe('nope.wsdl: cannot read the WSDL file (ENOENT)');
  });
});
