/**
 * Sending requests with undici: one keep-alive Pool per target origin, `concurrency`
 * connections, retries for transport errors only (an HTTP answer, whatever its status, is never
 * retried). Errors are classified by `err.code`, as undici does.
 *
 * Every exchange is bounded (conformance/bounds.ts): the whole of it — connect, head, body — by
 * one deadline, the head by MAX_HEAD_BYTES and the body by `maxResponseBytes`, read
 * incrementally and abandoned the moment it passes the limit. A bound that is hit fails the
 * exchange with a message that names it; a response head that had arrived is kept for the trace.
 */
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { BodySink, type BodyProgress } from './body-sink.js';
import { BoundHit, ExchangeDeadline, headTooLarge, MAX_HEAD_BYTES, responseTooLarge } from './bounds.js';
import { sendRaw, type RawResponse } from './raw-http.js';
import type { ResponseExcerpt } from './trace.js';
import type { Exchange, RequestSpec } from './types.js';

export interface TransportOptions {
  readonly origin: string;
  readonly concurrency: number;
  /** Whole-exchange time limit: connect, head and body. */
  readonly timeoutMs: number;
  readonly retries: number;
  /** Largest response body read; a larger one fails the exchange. */
  readonly maxResponseBytes: number;
  /** Extra headers (-H) added to every request; the case's own headers win. */
  readonly headers: Readonly<Record<string, string>>;
}

export type UnreachableReason = 'refused' | 'DNS' | 'timeout' | 'TLS' | 'not HTTP' | 'reset';
/** `too large`: a head or body bound was hit; `interrupted`: the run's own deadline fired. */
export type FailureReason = UnreachableReason | 'too large' | 'interrupted' | 'other';

/** A request that got no complete HTTP answer within the bounds, with the reason in one line. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  readonly reason: FailureReason;
  readonly code: string;
  /** What had arrived when the exchange was cut short; set once the response head had (the target answered). */
  readonly partial: ResponseExcerpt | undefined;
  constructor(reason: FailureReason, code: string, message: string, partial?: ResponseExcerpt) {
    super(message);
    this.reason = reason;
    this.code = code;
    this.partial = partial;
  }
}

/** What an exchange had received so far, for the message and trace of one cut short. */
interface Progress {
  head?: { readonly status: number; readonly headers: Record<string, string> };
  body?: BodyProgress;
}

const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|ERR_OSSL)/;
const TRACE_PREFIX_BYTES = 8000;

/** The undici/Node error code of an error or of its cause. */
function codeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_CONNECT') return code;
    current = (current as { cause?: unknown }).cause;
  }
  const top = (error as { code?: unknown } | undefined)?.code;
  return typeof top === 'string' ? top : 'UNKNOWN';
}

function partialOf(progress: Progress): ResponseExcerpt | undefined {
  if (progress.head === undefined) return undefined;
  const body = progress.body;
  return {
    ...progress.head,
    bodyPrefix: body?.prefix(TRACE_PREFIX_BYTES) ?? new Uint8Array(0),
    bodyBytes: body?.length ?? 0,
  };
}

function arrived(partial: ResponseExcerpt | undefined): string {
  return partial === undefined
    ? 'no response head had arrived'
    : `HTTP ${partial.status} and ${partial.bodyBytes} body bytes had arrived`;
}

function classifyBound(hit: BoundHit, partial: ResponseExcerpt | undefined): TransportFailure {
  if (hit.code === 'RUN_TIMEOUT') return new TransportFailure('interrupted', hit.code, hit.message, partial);
  if (hit.code === 'DEADLINE')
    return new TransportFailure('timeout', hit.code, `${hit.message}: ${arrived(partial)}`, partial);
  return new TransportFailure('too large', hit.code, hit.message, partial);
}

function classifyTransportError(
  error: unknown,
  origin: string,
  timeoutMs: number,
  progress: Progress,
): TransportFailure {
  const partial = partialOf(progress);
  if (error instanceof BoundHit) return classifyBound(error, partial);
  const code = codeOf(error);
  const host = new URL(origin).host;
  // One line: OpenSSL and parser messages carry newlines and source paths.
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  const name = error instanceof Error ? error.name : '';
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return classifyBound(headTooLarge(), partial);
  if (code === 'ECONNREFUSED')
    return new TransportFailure('refused', code, `connection refused by ${host} (nothing listens there)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return new TransportFailure(
      'DNS',
      code,
      `DNS: the host name ${new URL(origin).hostname} does not resolve (${code})`,
    );
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    error instanceof undiciErrors.HeadersTimeoutError
  ) {
    return new TransportFailure(
      'timeout',
      code,
      `timeout: ${host} did not answer within ${timeoutMs} ms (${code})`,
      partial,
    );
  }
  if (TLS_CODE.test(code)) return new TransportFailure('TLS', code, `TLS: ${detail} (${code})`);
  if (name === 'HTTPParserError' || code.startsWith('HPE_') || code === 'UND_ERR_RESPONSE' || code === 'UND_ERR_INFO') {
    return new TransportFailure(
      'not HTTP',
      code,
      `not HTTP: ${host} answered with something that is not an HTTP response (${code === 'UNKNOWN' ? detail : code})`,
      partial,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED' || /other side closed/i.test(detail)) {
    return new TransportFailure(
      'reset',
      code,
      `connection closed by ${host} before a complete response (${code}: ${detail}): ${arrived(partial)}`,
      partial,
    );
  }
  return new TransportFailure('other', code, `${detail} (${code})`, partial);
}

function normaliseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Reads a pooled response's body under the limit; leaving the loop early destroys the stream. */
async function readBody(response: Dispatcher.ResponseData, limit: number, progress: Progress): Promise<RawResponse> {
  const head = { status: response.statusCode, headers: normaliseHeaders(response.headers) };
  const sink = new BodySink(limit);
  progress.head = head;
  progress.body = sink;
  const declared = Number(head.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    response.body.destroy();
    throw responseTooLarge(limit, declared);
  }
  for await (const chunk of response.body as AsyncIterable<Buffer>) sink.append(chunk);
  return { ...head, body: sink.bytes() };
}

export class Transport {
  readonly #pool: Pool;
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#pool = new Pool(options.origin, {
      connections: options.concurrency,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      connect: { timeout: options.timeoutMs },
      maxHeaderSize: MAX_HEAD_BYTES,
      // The exchange's own deadline bounds it whole; undici's timers only bound pauses.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  /**
   * Sends once per attempt; resolves with the exchange or rejects with a TransportFailure.
   * `run` is the run's signal: when it fires, the exchange in flight ends as `interrupted`.
   * An exchange that got a response head, hit a bound or was interrupted is not retried.
   */
  async send(request: RequestSpec, run?: AbortSignal): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#sendOnce(request, run);
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        const final = error.partial !== undefined || error.reason === 'interrupted' || error.reason === 'too large';
        if (final || attempt >= this.#options.retries) throw error;
      }
    }
  }

  async #sendOnce(request: RequestSpec, run: AbortSignal | undefined): Promise<Exchange> {
    const headers = { ...this.#options.headers, ...request.headers };
    const started = performance.now();
    const deadline = new ExchangeDeadline(this.#options.timeoutMs, run);
    const progress: Progress = {};
    try {
      const response =
        request.mayAnswerEarly === true
          ? await this.#sendRaw(request, headers, deadline.signal, progress)
          : await this.#sendPooled(request, headers, deadline.signal, progress);
      return {
        request: { ...request, headers, url: `${this.#options.origin}${request.path}` },
        response,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      // An abort surfaces as undici's or the socket's own error; the signal says which bound it was.
      throw classifyTransportError(
        deadline.signal.aborted ? deadline.signal.reason : error,
        this.#options.origin,
        this.#options.timeoutMs,
        progress,
      );
    } finally {
      deadline.clear();
    }
  }

  #sendRaw(
    request: RequestSpec,
    headers: Record<string, string>,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<RawResponse> {
    return sendRaw(this.#options.origin, request, headers, {
      maxResponseBytes: this.#options.maxResponseBytes,
      signal,
      onHead: (head, body) => {
        progress.head = head;
        progress.body = body;
      },
    });
  }

  async #sendPooled(
    request: RequestSpec,
    headers: Record<string, string>,
    signal: AbortSignal,
    progress: Progress,
  ): Promise<RawResponse> {
    const response = await this.#pool.request({
      method: request.method as 'GET',
      path: request.path,
      headers,
      body: request.body ?? null,
      signal,
    });
    return readBody(response, this.#options.maxResponseBytes, progress);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  /** Ends every connection now, requests in flight included (the run's deadline fired). */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }
}
