/**
 * The operations listener: GET /metrics (Prometheus text exposition) and GET /healthz (JSON; 200
 * when the store answers, 503 when it does not), on an address of its own — loopback unless the
 * operator binds it elsewhere — so the numbers are not served to the service's clients.
 * Nothing else: no request body is read, every other path is 404, every other method 405.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceMetrics } from './metrics.js';

export interface MetricsListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly metrics: ServiceMetrics;
  readonly log?: (line: string) => void;
}

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464 */
  readonly url: string;
  close(): Promise<void>;
}

function answer(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

async function route(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: MetricsListenerOptions,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/metrics' && path !== '/healthz')
    return answer(res, 404, 'text/plain', 'not found: GET /metrics or /healthz\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return answer(res, 405, 'text/plain', 'method not allowed\n');
  }
  if (path === '/metrics') {
    const { contentType, text } = await options.metrics.render();
    return answer(res, 200, contentType, text);
  }
  const health = await options.metrics.health();
  answer(res, health.status === 'failing' ? 503 : 200, 'application/json', `${JSON.stringify(health)}\n`);
}

export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = http.createServer(
    { requestTimeout: 10_000, headersTimeout: 10_000, maxHeaderSize: 8192 },
    (req, res) => {
      req.resume(); // a body is never read; drain it so the connection stays usable
      route(req, res, options).catch((error: unknown) => {
        options.log?.(`metrics: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) answer(res, 500, 'text/plain', 'metrics unavailable\n');
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
