/**
 * `listen(listener, { host, port })`: a node:http server with the timeouts from the listener's
 * options, and a graceful `close()` that stops accepting, lets in-flight requests finish and
 * then closes idle keep-alive connections (forcing the rest after `closeTimeoutMs`).
 */
import http, { type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { LISTENER_OPTIONS, type ServerOptions } from './server.js';

export interface ListenOptions {
  readonly host?: string;
  readonly port?: number;
  /** How long close() waits for in-flight requests before dropping connections (default 10 s). */
  readonly closeTimeoutMs?: number;
}

export interface Listening {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly server: http.Server;
  close(): Promise<void>;
}

export async function listen(listener: RequestListener, options: ListenOptions = {}): Promise<Listening> {
  const serverOptions = (listener as Partial<Record<typeof LISTENER_OPTIONS, ServerOptions>>)[LISTENER_OPTIONS] ?? {};
  const server = http.createServer(
    {
      headersTimeout: serverOptions.headersTimeoutMs ?? 10_000,
      requestTimeout: serverOptions.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: 5_000,
      connectionsCheckingInterval: 1_000,
    },
    listener,
  );
  dropSilentConnections(server, serverOptions.headersTimeoutMs ?? 10_000);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: () => (closing ??= closeGracefully(server, options.closeTimeoutMs ?? 10_000)),
  };
}

/**
 * Node's headersTimeout only times a request once its first byte has arrived: a connection that
 * never sends anything is kept forever, so thousands of idle sockets could pile up. Drop a
 * connection that has not begun a request within the headers timeout.
 */
function dropSilentConnections(server: http.Server, timeoutMs: number): void {
  const spoke = new WeakSet<object>();
  server.on('request', (req: http.IncomingMessage) => spoke.add(req.socket));
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (!spoke.has(socket) && !socket.destroyed && socket.bytesRead === 0) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

function closeGracefully(server: http.Server, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    // Connections become idle as their in-flight responses finish; close them as they do.
    const sweep = setInterval(() => server.closeIdleConnections(), 25);
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
