/**
 * A minimal HTTP/1.1 exchange over one fresh socket, for requests a correct server may answer
 * before reading them whole (an over-size body: 413 and close). A pooled client reports such
 * an early answer as a write error (EPIPE), and a server that closes with unread data makes the
 * kernel reset the connection, which can discard the answer already sent. So the head goes
 * first; if the server answers within `EARLY_ANSWER_WINDOW_MS` (it judged the Content-Length),
 * the body is never sent; otherwise the body follows and write errors are ignored.
 *
 * The answer is read incrementally under the same bounds as the pooled path: the caller's
 * signal (the whole-exchange deadline) destroys the socket, and the reader refuses a head or
 * body past its limit the moment it is passed.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { BodyProgress } from './body-sink.js';
import { RawResponseReader, type RawHead, type RawResponse } from './raw-response.js';
import type { RequestSpec } from './types.js';

export type { RawResponse } from './raw-response.js';

export interface RawOptions {
  readonly maxResponseBytes: number;
  /** Aborts the exchange (deadline or end of run); its reason is the rejection. */
  readonly signal: AbortSignal;
  /** Told when the response head has arrived (a cut-short exchange still got an answer). */
  readonly onHead?: (head: RawHead, body: BodyProgress) => void;
}

const EARLY_ANSWER_WINDOW_MS = 250;

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

export function sendRaw(
  origin: string,
  request: RequestSpec,
  headers: Readonly<Record<string, string>>,
  options: RawOptions,
): Promise<RawResponse> {
  const url = new URL(origin);
  const body = bodyBuffer(request.body);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const socket =
      url.protocol === 'https:'
        ? tls.connect({ host: url.hostname, port, servername: url.hostname })
        : net.connect({ host: url.hostname, port });
    const reader = new RawResponseReader(options.maxResponseBytes);
    let readError: unknown;
    let writeError: unknown;
    let bodyTimer: NodeJS.Timeout | undefined;
    const onAbort = (): void => void socket.destroy();
    options.signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', (chunk: Buffer) => {
      if (bodyTimer !== undefined) {
        // Answered before the body was sent: nothing more to send.
        clearTimeout(bodyTimer);
        bodyTimer = undefined;
      }
      const hadHead = reader.head !== undefined;
      try {
        reader.push(chunk);
      } catch (error) {
        readError = error;
        socket.destroy();
        return;
      }
      if (!hadHead && reader.head !== undefined) options.onHead?.(reader.head, reader.body);
      // A server that keeps the connection open despite `connection: close` is not waited for.
      if (reader.complete) socket.destroy();
    });
    // A write error after the server answered early is expected; only the read side matters. A
    // body cut short by a reset is kept as received: the reset may be the kernel's answer to the
    // unread request body, and the head (a 413) is what such a case judges.
    socket.on('error', (error) => {
      writeError ??= error;
    });
    socket.on('close', () => {
      clearTimeout(bodyTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) return reject(options.signal.reason);
      if (readError !== undefined) return reject(readError);
      const response = reader.result();
      if (response !== undefined) return resolve(response);
      if (reader.started)
        return reject(
          Object.assign(new Error('the server closed the connection without a complete HTTP response head'), {
            code: 'HPE_INCOMPLETE',
          }),
        );
      reject(
        writeError ??
          Object.assign(new Error('the server closed the connection without answering'), { code: 'ECONNRESET' }),
      );
    });
    socket.write(requestHead(url, request, headers, body.length));
    // No half-close after the body: some servers drop a connection whose client sent FIN before
    // they answered. `connection: close` makes the server close once it has answered.
    bodyTimer = setTimeout(() => {
      bodyTimer = undefined;
      socket.write(body);
    }, EARLY_ANSWER_WINDOW_MS);
  });
}
