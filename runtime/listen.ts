/**
 * `listen(listener, { host, port, tls? })`: a node:http server (node:https with `tls`) with the
 * timeouts from the listener's options, and a graceful `close()` that stops accepting, lets
 * in-flight requests finish and then closes idle keep-alive connections (forcing the rest after
 * `closeTimeoutMs`).
 */
import http, { type RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { serverTlsOptions, type ServerTlsOptions } from './network/server-tls.js';
import { LISTENER_OPTIONS, type ServerOptions } from './server.js';
import { writeBodyFailure } from './server/answers.js';
import { DEFAULT_MAX_BODY_BYTES, declaredBodyFailure } from './server/body.js';
import { deferContinue } from './server/continue.js';

export interface ListenOptions {
  readonly host?: string;
  readonly port?: number;
  /** How long close() waits for in-flight requests before dropping connections (default 10 s). */
  readonly closeTimeoutMs?: number;
  /** Serve HTTPS with this certificate and key; `requestCert` also verifies client certificates. */
  readonly tls?: ServerTlsOptions;
}

export interface Listening {
  /** e.g. `http://127.0.0.1:41234`, or `https://…` with `tls` (no trailing slash). */
  readonly url: string;
  /** The node:http server (a node:https one with `tls`, which is one too). */
  readonly server: http.Server;
  close(): Promise<void>;
}

export async function listen(listener: RequestListener, options: ListenOptions = {}): Promise<Listening> {
  const serverOptions = (listener as Partial<Record<typeof LISTENER_OPTIONS, ServerOptions>>)[LISTENER_OPTIONS] ?? {};
  const headersTimeoutMs = serverOptions.headersTimeoutMs ?? 10_000;
  const httpOptions = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: serverOptions.requestTimeoutMs ?? 30_000,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: 1_000,
  };
  const server =
    options.tls === undefined
      ? http.createServer(httpOptions, listener)
      : https.createServer(
          // A TLS handshake gets as long as a request head: a client that never completes one
          // holds a socket no longer than a silent plain-HTTP client does.
          { ...httpOptions, ...serverTlsOptions(options.tls), handshakeTimeout: headersTimeoutMs },
          listener,
        );
  answerExpectContinue(server, serverOptions.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  dropSilentConnections(server, headersTimeoutMs);
  if (options.tls !== undefined) dropSilentTlsConnections(server, headersTimeoutMs);
  server.on('clientError', answerClientError);
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
    url: `${options.tls === undefined ? 'http' : 'https'}://${shownHost}:${address.port}`,
    server,
    close: () => (closing ??= closeGracefully(server, options.closeTimeoutMs ?? 10_000)),
  };
}

/**
 * `Expect: 100-continue`: Node answers 100 to every such request unless told otherwise, so a
 * client sent its whole body to be refused. A body the declared length already refuses gets its
 * 400/413 instead of the 100 (RFC 9110 §10.1.1); any other request goes to the listener with its
 * 100 deferred until the body is read (server/continue.ts), so one the listener refuses from its
 * head (404, 405, 415, an unknown SOAPAction) is answered without it.
 */
function answerExpectContinue(server: http.Server, maxBodyBytes: number): void {
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refused = declaredBodyFailure(req, maxBodyBytes);
    if (refused !== undefined) return writeBodyFailure(res, refused);
    deferContinue(req, res);
    server.emit('request', req, res);
  });
}

/**
 * Node's headersTimeout only times a request once its first byte has arrived: a connection that
 * never sends anything is kept forever, so thousands of idle sockets could pile up. Drop a
 * connection that has read no byte within the headers timeout. A byte read is a request begun,
 * which Node's own timeouts govern from then on: no per-request bookkeeping is needed here.
 */
function dropSilentConnections(server: http.Server, timeoutMs: number): void {
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (!socket.destroyed && socket.bytesRead === 0) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * Over TLS the raw socket has read the handshake, so the check above never fires for a client
 * that completes one and then sends nothing: time the TLS socket instead, from the handshake to
 * the first request (keep-alive idling after a request is Node's keepAliveTimeout's job).
 */
function dropSilentTlsConnections(server: http.Server, timeoutMs: number): void {
  const spoke = new WeakSet<object>();
  server.on('request', (req: http.IncomingMessage) => spoke.add(req.socket));
  server.on('secureConnection', (socket: TLSSocket) => {
    const timer = setTimeout(() => {
      if (!spoke.has(socket) && !socket.destroyed) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

const CLIENT_ERROR_STATUS: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * A request the HTTP parser refused (headers too large, too slow, malformed, smuggling shapes):
 * the status Node would send (431 / 408 / 400), then a lingering close — the client may still
 * be sending (a many-megabyte query), and closing a socket with unread data resets the
 * connection, which can destroy the answer before the client reads it.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent === true) {
    socket.destroy();
    return;
  }
  const status = CLIENT_ERROR_STATUS[err.code ?? ''] ?? 400;
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.on('error', () => {});
  socket.resume(); // read and drop what is still coming, so the close is not a reset
  setTimeout(() => socket.destroy(), 2_000).unref();
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
