/**
 * Targets a CI gate must not pass by mistake, for test/conformance/gate.test.ts: a web server
 * that answers HTML pages (as `python3 -m http.server` does: 404 and directory pages for GET,
 * 501 for POST and PUT), one that answers 404 to everything, and a delaying proxy (a slow target,
 * for progress and Ctrl-C).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface TestServer {
  readonly origin: string;
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(res: http.ServerResponse, status: number, title: string): void {
  const body = `<!DOCTYPE HTML>\n<html lang="en">\n<head><meta charset="utf-8"><title>Error response</title></head>\n<body><h1>${title}</h1></body>\n</html>\n`;
  res.writeHead(status, { 'content-type': 'text/html;charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** What `python3 -m http.server` answers: HTML everywhere. */
export function startHtmlSite(): Promise<TestServer> {
  return serve((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' || req.method === 'HEAD')
        page(
          res,
          req.url === '/' ? 200 : 404,
          req.url === '/' ? 'Directory listing for /' : 'Error response: File not found',
        );
      else page(res, 501, `Error response: Unsupported method ('${req.method}')`);
    });
  });
}

/** A server with nothing at any path: 404 text/plain. */
export function startNotFound(): Promise<TestServer> {
  return serve((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
  });
}

/** Forwards to `upstream` and holds every answer `delayMs` first. */
export function startSlowProxy(upstream: string, delayMs: number): Promise<TestServer> {
  return serve(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))
        .map(([k, v]) => [k, String(v)]),
    );
    try {
      const answer = await request(`${upstream}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers,
        body: body.length === 0 ? null : body,
      });
      const text = Buffer.from(await answer.body.arrayBuffer());
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const out = Object.fromEntries(
        Object.entries(answer.headers).filter(
          ([k]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k),
        ),
      );
      res.writeHead(answer.statusCode, { ...out, 'content-length': text.length });
      res.end(text);
    } catch {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    }
  });
}
