/**
 * Sending a request over undici and turning every failure into a `TransportError` that says
 * which: refused, DNS, timeout, TLS, reset, too large, bad response, aborted.
 */
import { Buffer } from 'node:buffer';
import type { Dispatcher } from 'undici';
import { TransportError } from './errors.js';
import { isTlsCode, tlsReason } from './network/tls-reasons.js';
import type { WireRequest } from './wire.js';

export interface WireResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

export interface SendOptions {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly signal: AbortSignal | undefined;
  /**
   * The service's origin (`https://host:8443`): needed by dispatchers that serve many origins
   * (an Agent, a ProxyAgent), and named in TLS errors. A Pool knows its own.
   */
  readonly origin?: string | undefined;
  /**
   * One timer for the whole call even without a caller signal: through a proxy a call takes
   * several steps (connect, CONNECT, TLS, request) that each have the time limit.
   */
  readonly wholeCallTimer?: boolean | undefined;
}

/**
 * Sends one request. Without a caller signal, the time limit is undici's own headers timeout,
 * then what is left of the call for the body (no AbortController per call, and a timer only for
 * a body that did not arrive with its head: they cost as much as the XML work); with a signal,
 * an AbortController joins the caller's signal and the overall timer (also used through a proxy).
 */
export async function send(dispatcher: Dispatcher, request: WireRequest, options: SendOptions): Promise<WireResponse> {
  if (options.signal === undefined && options.wholeCallTimer !== true) {
    const started = performance.now();
    try {
      const response = await dispatcher.request(
        withOrigin(
          {
            method: request.method,
            path: request.path,
            headers: request.headers,
            body: request.body ?? null,
            headersTimeout: options.timeoutMs,
            bodyTimeout: options.timeoutMs,
          },
          options.origin,
        ),
      );
      const body = await readLimited(
        response,
        options.maxResponseBytes,
        started + options.timeoutMs,
        options.timeoutMs,
        true,
      );
      return { status: response.statusCode, headers: response.headers, body };
    } catch (err) {
      throw classify(err, false, options.timeoutMs, options.origin);
    }
  }
  return sendWithSignal(dispatcher, request, options, options.signal);
}

async function sendWithSignal(
  dispatcher: Dispatcher,
  request: WireRequest,
  options: SendOptions,
  userSignal: AbortSignal | undefined,
): Promise<WireResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onUserAbort = (): void => controller.abort();
  if (userSignal?.aborted === true) controller.abort();
  else userSignal?.addEventListener('abort', onUserAbort, { once: true });
  const started = performance.now();
  try {
    const response = await dispatcher.request(
      withOrigin(
        {
          method: request.method,
          path: request.path,
          headers: request.headers,
          body: request.body ?? null,
          signal: controller.signal,
        },
        options.origin,
      ),
    );
    const body = await readLimited(
      response,
      options.maxResponseBytes,
      started + options.timeoutMs,
      options.timeoutMs,
      false,
    );
    return { status: response.statusCode, headers: response.headers, body };
  } catch (err) {
    throw classify(err, timedOut, options.timeoutMs, options.origin);
  } finally {
    clearTimeout(timer);
    userSignal?.removeEventListener('abort', onUserAbort);
  }
}

/** Sets `origin` only when known: a Pool has its own, any other dispatcher needs it. */
function withOrigin(
  requestOptions: Dispatcher.RequestOptions<null>,
  origin: string | undefined,
): Dispatcher.RequestOptions<null> {
  if (origin !== undefined) requestOptions.origin = origin;
  return requestOptions;
}

/**
 * Reads the body within `limit` bytes and by `deadline` (a performance.now() time). undici's
 * bodyTimeout only bounds the pause between chunks, so a body that trickles in a byte at a time
 * would never end the call: the deadline is checked as each chunk arrives and, with
 * `guardDeadline` (no caller timer), a body not already buffered whole when its head arrived
 * gets one timer for what is left of the call, so a trickle or a stall ends at the deadline.
 */
async function readLimited(
  response: Dispatcher.ResponseData,
  limit: number,
  deadline: number,
  timeoutMs: number,
  guardDeadline: boolean,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    throw new TransportError('TOO_LARGE', `The response declares ${declared} bytes, over the limit of ${limit}`, {
      httpStatus: response.statusCode,
    });
  }
  // undici pushes the body bytes that came with the head before this runs: usually all of them,
  // and then they are taken at once, without the async iteration's promise per step.
  const whole = Number.isFinite(declared) && response.body.readableLength >= declared;
  if (whole && response.body.readableLength === declared) {
    const body = declared === 0 ? Buffer.alloc(0) : (response.body.read() as Buffer);
    // Lets the stream end (and be released) once undici has seen the message end; an error it
    // might still report then concerns bytes this call no longer needs.
    response.body.on('error', ignoreLateError);
    response.body.resume();
    return body;
  }
  const late = (): TransportError => new TransportError('TIMEOUT', `No complete response within ${timeoutMs} ms`);
  const timer =
    guardDeadline && !whole
      ? setTimeout(() => response.body.destroy(late()), Math.max(0, deadline - performance.now()))
      : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        response.body.destroy();
        throw new TransportError('TOO_LARGE', `The response is over the limit of ${limit} bytes`, {
          httpStatus: response.statusCode,
        });
      }
      if (performance.now() > deadline) {
        response.body.destroy();
        throw late();
      }
      chunks.push(chunk);
    }
  } finally {
    clearTimeout(timer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

// undici's ProxyAgent ends a CONNECT the proxy did not answer with 200 as an abort; it is the
// proxy's refusal, not the caller's abort.
const PROXY_REFUSAL = /^Proxy response \((\d{3})\) !== 200|^Proxy Authentication Required \(407\)/;

/**
 * Maps undici and socket errors (looking through `cause`) to a TransportError; `origin`, when
 * given, is named in TLS failures (which server's certificate, or which server refused ours).
 */
export function classify(err: unknown, timedOut: boolean, timeoutMs: number, origin?: string): TransportError {
  if (err instanceof TransportError) return err;
  if (timedOut) return new TransportError('TIMEOUT', `No complete response within ${timeoutMs} ms`, { cause: err });
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (e.name === 'AbortError') codes.push('ABORT');
  }
  const has = (test: (code: string) => boolean): boolean => codes.some(test);
  const message = err instanceof Error ? err.message : String(err);
  const proxyRefusal = PROXY_REFUSAL.exec(message);
  if (proxyRefusal !== null)
    return new TransportError('REFUSED', `The proxy refused the connection (HTTP ${proxyRefusal[1] ?? '407'})`, {
      cause: err,
    });
  if (has((c) => c === 'ABORT' || c === 'UND_ERR_ABORTED'))
    return new TransportError('ABORTED', 'The call was aborted by the caller', { cause: err });
  if (has((c) => c === 'ECONNREFUSED'))
    return new TransportError('REFUSED', `Connection refused: ${message}`, { cause: err });
  if (has((c) => c === 'ENOTFOUND' || c === 'EAI_AGAIN' || c === 'EAI_NONAME' || c === 'EAI_FAIL'))
    return new TransportError('DNS', `Host name not resolved: ${message}`, { cause: err });
  if (has((c) => c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT'))
    return new TransportError('TIMEOUT', `No complete response within ${timeoutMs} ms`, { cause: err });
  if (has((c) => c === 'UND_ERR_CONNECT_TIMEOUT' || c === 'ETIMEDOUT'))
    return new TransportError('TIMEOUT', `Connection timed out: ${message}`, { cause: err });
  if (has(isTlsCode)) {
    const where = origin === undefined ? '' : ` with ${origin}`;
    return new TransportError('TLS', `TLS failure${where}: ${tlsReason(codes) ?? message}`, { cause: err });
  }
  if (has((c) => c === 'UND_ERR_RES_EXCEEDED_MAX_SIZE'))
    return new TransportError('TOO_LARGE', `The response is too large: ${message}`, { cause: err });
  if (has((c) => c === 'UND_ERR_HEADERS_OVERFLOW'))
    return new TransportError(
      'TOO_LARGE',
      'The response head (status line and headers) is over the 16 KiB header limit',
      { cause: err },
    );
  if (has((c) => c.startsWith('HPE_') || c === 'UND_ERR_INFO'))
    return new TransportError('BAD_RESPONSE', `Not a valid HTTP response: ${message}`, { cause: err });
  if (
    has(
      (c) =>
        c === 'ECONNRESET' || c === 'EPIPE' || c === 'UND_ERR_SOCKET' || c === 'UND_ERR_CLOSED' || c === 'ECONNABORTED',
    )
  )
    return new TransportError('RESET', `Connection closed before a complete response: ${message}`, { cause: err });
  return new TransportError('BAD_RESPONSE', `Request failed: ${message}`, { cause: err });
}

function ignoreLateError(): void {}
