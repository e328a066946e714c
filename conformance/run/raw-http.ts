/**
 * A minimal HTTP/1.1 exchange over one fresh socket, for requests a correct server may answer
 * before reading them whole (an over-size body: 413 and close). A pooled client reports such
 * an early answer as a write error (EPIPE), and a server that closes with unread data makes the
 * kernel reset the connection, which can discard the answer already sent. So the head goes
 * first; if the server answers within `EARLY_ANSWER_WINDOW_MS` (it judged the Content-Length),
 * the body is never sent; otherwise the body follows and write errors are ignored.
 *
 * The socket takes the run's network settings as the pool does: TLS with the run's CA and client
 * certificate, and the run's proxy through a CONNECT tunnel of its own, for an http target too
 * (only a tunnel carries the bytes to the target as they are written; a forwarding proxy would
 * read the request itself). A proxy that refuses the tunnel makes such a case impossible: the
 * exchange ends with TunnelRefused, which the runner reports as the case skipped, with why.
 *
 * The answer is read incrementally under the same bounds as the pooled path: the caller's
 * signal (the whole-exchange deadline) destroys the socket, and the reader refuses a head or
 * body past its limit the moment it is passed.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { BodyProgress } from './body-sink.js';
import { MAX_HEAD_BYTES } from './bounds.js';
import type { ProxyRoute, RawNetwork } from '../../runtime/network/raw.js';
import { RawResponseReader, type RawHead, type RawResponse } from './raw-response.js';
import type { RequestSpec } from '../types.js';

export type { RawResponse } from './raw-response.js';

export interface RawOptions {
  readonly maxResponseBytes: number;
  /** TLS settings and the proxy route (runtime/network/raw.ts); undefined: a direct connection with Node's defaults. */
  readonly network?: RawNetwork | undefined;
  /** Aborts the exchange (deadline or end of run); its reason is the rejection. */
  readonly signal: AbortSignal;
  /** Told when the response head has arrived (a cut-short exchange still got an answer). */
  readonly onHead?: (head: RawHead, body: BodyProgress) => void;
}

/** The proxy answered the CONNECT with something else than 2xx: no raw connection to the target. */
export class TunnelRefused extends Error {
  override readonly name = 'TunnelRefused';
  readonly code = 'PROXY_TUNNEL_REFUSED';
}

const EARLY_ANSWER_WINDOW_MS = 250;
/** The second try's wait, after a reset lost an answer to a body sent too soon. */
const SLOW_EARLY_ANSWER_WINDOW_MS = 2_000;

function requestHead(
  url: URL,
  request: RequestSpec,
  headers: Readonly<Record<string, string>>,
  length: number,
): string {
  const lines = [
    `${request.method} ${request.path} HTTP/1.1`,
    `host: ${url.host}`,
    'connection: close',
    `content-length: ${length}`,
  ];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(host|connection|content-length|transfer-encoding)$/i.test(name)) lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function bodyBuffer(body: RequestSpec['body']): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  return typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** SNI for a host name; none for an IP address (RFC 6066 does not allow one, and Node warns). */
function serverName(url: URL): { servername?: string } {
  return net.isIP(url.hostname.replace(/^\[|\]$/g, '')) === 0 ? { servername: url.hostname } : {};
}

/** Destroys `socket` and rejects when `signal` fires first; detaches itself once `work` settles. */
function guarded<T>(socket: net.Socket, signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    socket.destroy();
    return Promise.reject(signal.reason);
  }
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** A connection to the proxy, then `CONNECT host:port`; resolves with the tunnel once the proxy answers 2xx. */
function openTunnel(proxy: ProxyRoute, target: URL, signal: AbortSignal): Promise<net.Socket> {
  const proxyUrl = new URL(proxy.url);
  const socket =
    proxyUrl.protocol === 'https:'
      ? tls.connect({
          host: proxyUrl.hostname,
          port: portOf(proxyUrl),
          ...serverName(proxyUrl),
          ...(proxy.secureContext === undefined ? {} : { secureContext: proxy.secureContext }),
        })
      : net.connect({ host: proxyUrl.hostname, port: portOf(proxyUrl) });
  const authority = `${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}:${portOf(target)}`;
  const answered = new Promise<net.Socket>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES)
          fail(new Error(`the proxy's answer to CONNECT exceeded ${MAX_HEAD_BYTES} bytes`));
        return;
      }
      socket.off('data', onData).off('error', fail).off('close', onClose);
      const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (status < 200 || status > 299) {
        socket.destroy();
        reject(
          new TunnelRefused(
            `the proxy ${proxy.url} refused a CONNECT tunnel to ${authority} (${statusLine.slice(0, 80) || 'no status line'}), and this case needs a raw connection to the target`,
          ),
        );
        return;
      }
      // Bytes after the proxy's answer are the target's: put them back for the exchange.
      if (end + 4 < head.length) socket.unshift(head.subarray(end + 4));
      resolve(socket);
    };
    const fail = (error: Error): void => {
      socket.destroy();
      reject(error);
    };
    const onClose = (): void =>
      reject(
        Object.assign(new Error(`the proxy ${proxy.url} closed the connection before answering CONNECT`), {
          code: 'ECONNRESET',
        }),
      );
    socket.on('data', onData).on('error', fail).on('close', onClose);
    const lines = [`CONNECT ${authority} HTTP/1.1`, `host: ${authority}`];
    if (proxy.authorization !== undefined) lines.push(`proxy-authorization: ${proxy.authorization}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
  return guarded(socket, signal, answered);
}

/** The socket to talk to the target over: direct or through the proxy's tunnel, with TLS for https. */
async function openSocket(url: URL, network: RawNetwork | undefined, signal: AbortSignal): Promise<net.Socket> {
  const through = network?.proxy === undefined ? undefined : await openTunnel(network.proxy, url, signal);
  if (url.protocol !== 'https:') return through ?? net.connect({ host: url.hostname, port: portOf(url) });
  return tls.connect({
    ...(through === undefined ? { host: url.hostname, port: portOf(url) } : { socket: through }),
    ...serverName(url),
    ...network?.tls,
  });
}

export async function sendRaw(
  origin: string,
  request: RequestSpec,
  headers: Readonly<Record<string, string>>,
  options: RawOptions,
): Promise<RawResponse> {
  const url = new URL(origin);
  if (options.signal.aborted) throw options.signal.reason;
  try {
    const socket = await openSocket(url, options.network, options.signal);
    return await exchange(socket, url, request, headers, options, EARLY_ANSWER_WINDOW_MS);
  } catch (error) {
    // A server slower than the window (a loaded machine) got the body, refused it and closed
    // with it unread: the kernel's reset can discard the answer it sent. Once more, waiting
    // longer for the early answer before sending the body, within the same deadline.
    if (options.signal.aborted || !isReset(error)) throw error;
    const socket = await openSocket(url, options.network, options.signal);
    return exchange(socket, url, request, headers, options, SLOW_EARLY_ANSWER_WINDOW_MS);
  }
}

function isReset(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET';
}

/** What the socket's events leave behind for the verdict when it closes. */
interface ExchangeState {
  readonly reader: RawResponseReader;
  readError?: unknown;
  writeError?: unknown;
  /** Set until the body is sent (after the early-answer window). */
  bodyTimer?: NodeJS.Timeout | undefined;
}

function onData(socket: net.Socket, state: ExchangeState, options: RawOptions, chunk: Buffer): void {
  if (state.bodyTimer !== undefined) {
    // Answered before the body was sent: nothing more to send.
    clearTimeout(state.bodyTimer);
    state.bodyTimer = undefined;
  }
  const { reader } = state;
  const hadHead = reader.head !== undefined;
  try {
    reader.push(chunk);
  } catch (error) {
    state.readError = error;
    socket.destroy();
    return;
  }
  if (!hadHead && reader.head !== undefined) options.onHead?.(reader.head, reader.body);
  // A server that keeps the connection open despite `connection: close` is not waited for.
  if (reader.complete) socket.destroy();
}

/** The exchange's result once the socket closed: the response, or why there is none. */
function closedResult(state: ExchangeState): { readonly response: RawResponse } | { readonly error: unknown } {
  if (state.readError !== undefined) return { error: state.readError };
  const response = state.reader.result();
  if (response !== undefined) return { response };
  if (state.reader.started)
    return {
      error: Object.assign(new Error('the server closed the connection without a complete HTTP response head'), {
        code: 'HPE_INCOMPLETE',
      }),
    };
  return {
    error:
      state.writeError ??
      Object.assign(new Error('the server closed the connection without answering'), { code: 'ECONNRESET' }),
  };
}

function exchange(
  socket: net.Socket,
  url: URL,
  request: RequestSpec,
  headers: Readonly<Record<string, string>>,
  options: RawOptions,
  earlyAnswerWindowMs: number,
): Promise<RawResponse> {
  const body = bodyBuffer(request.body);
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) {
      socket.destroy();
      return reject(options.signal.reason);
    }
    const state: ExchangeState = { reader: new RawResponseReader(options.maxResponseBytes) };
    const onAbort = (): void => void socket.destroy();
    options.signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', (chunk: Buffer) => onData(socket, state, options, chunk));
    // A write error after the server answered early is expected; only the read side matters. A
    // body cut short by a reset is kept as received: the reset may be the kernel's answer to the
    // unread request body, and the head (a 413) is what such a case judges.
    socket.on('error', (error) => {
      state.writeError ??= error;
    });
    socket.on('close', () => {
      clearTimeout(state.bodyTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) return reject(options.signal.reason);
      const result = closedResult(state);
      if ('response' in result) resolve(result.response);
      else reject(result.error);
    });
    socket.write(requestHead(url, request, headers, body.length));
    // No half-close after the body: some servers drop a connection whose client sent FIN before
    // they answered. `connection: close` makes the server close once it has answered.
    state.bodyTimer = setTimeout(() => {
      state.bodyTimer = undefined;
      socket.write(body);
    }, earlyAnswerWindowMs);
  });
}
