/**
 * A minimal HTTP/1.1 exchange over one fresh socket, for requests a correct server may answer
 * before reading them whole (an over-size body: 413 and close). A pooled client reports such
 * an early answer as a write error (EPIPE), and a server that closes with unread data makes the
 * kernel reset the connection, which can discard the answer already sent. So the head goes
 * first; if the server answers within `EARLY_ANSWER_WINDOW_MS` (it judged the Content-Length),
 * the body is never sent; otherwise the body follows and write errors are ignored.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { RequestSpec } from './types.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array;
}

const EARLY_ANSWER_WINDOW_MS = 250;

function requestHead(url: URL, request: RequestSpec, headers: Readonly<Record<string, string>>, length: number): string {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${url.host}`, 'connection: close', `content-length: ${length}`];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(host|connection|content-length|transfer-encoding)$/i.test(name)) lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** True once `data` holds a whole response framed by Content-Length or chunked encoding. */
function isComplete(data: Buffer): boolean {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const head = data.subarray(0, headEnd).toString('latin1');
  if (/^HTTP\/1\.[01] 1\d\d/.test(head)) return false;
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) return data.subarray(data.length - 5).toString('latin1') === '0\r\n\r\n';
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  return length !== null && data.length - headEnd - 4 >= Number(length[1]);
}

/** Parses a complete response read until the server closed the connection. */
export function parseRawResponse(data: Buffer): RawResponse {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) throw Object.assign(new Error('the server closed the connection without a complete HTTP response head'), { code: 'HPE_INCOMPLETE' });
  const [statusLine = '', ...headerLines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (match === null) throw Object.assign(new Error(`not an HTTP status line: ${statusLine.slice(0, 80)}`), { code: 'HPE_INVALID_CONSTANT' });
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  let body = data.subarray(headEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(match[1]), headers, body: new Uint8Array(body) };
}

export function sendRaw(origin: string, request: RequestSpec, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<RawResponse> {
  const url = new URL(origin);
  const body = request.body === undefined ? Buffer.alloc(0) : typeof request.body === 'string' ? Buffer.from(request.body) : Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = url.protocol === 'https:' ? tls.connect({ host: url.hostname, port, servername: url.hostname }) : net.connect({ host: url.hostname, port });
    const received: Buffer[] = [];
    let failed: Error | undefined;
    socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    let bodyTimer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // A server that keeps the connection open despite `connection: close` is not waited for.
      if (isComplete(Buffer.concat(received))) socket.destroy();
      if (bodyTimer !== undefined) {
        // Answered before the body was sent: nothing more to send.
        clearTimeout(bodyTimer);
        bodyTimer = undefined;
      }
    });
    // A write error after the server answered early is expected; only the read side matters.
    socket.on('error', (error) => {
      failed ??= error;
    });
    socket.on('close', () => {
      const data = Buffer.concat(received);
      if (data.length === 0) {
        reject(failed ?? Object.assign(new Error('the server closed the connection without answering'), { code: 'ECONNRESET' }));
        return;
      }
      try {
        resolve(parseRawResponse(data));
      } catch (error) {
        reject(error);
      }
    });
    socket.write(requestHead(url, request, headers, body.length));
    // No half-close after the body: some servers drop a connection whose client sent FIN before
    // they answered. `connection: close` makes the server close once it has answered.
    bodyTimer = setTimeout(() => {
      bodyTimer = undefined;
      socket.write(body);
    }, Math.min(EARLY_ANSWER_WINDOW_MS, timeoutMs));
  });
}
