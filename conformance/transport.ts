/**
 * Sending requests with undici: one keep-alive Pool per target origin, `concurrency`
 * connections, a per-request timeout, retries for transport errors only (an HTTP answer,
 * whatever its status, is never retried). Errors are classified by `err.code`, as undici does.
 */
import { Pool, errors as undiciErrors } from 'undici';
import { sendRaw } from './raw-http.js';
import type { Exchange, RequestSpec } from './types.js';

export interface TransportOptions {
  readonly origin: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  /** Extra headers (-H) added to every request; the case's own headers win. */
  readonly headers: Readonly<Record<string, string>>;
}

export type UnreachableReason = 'refused' | 'DNS' | 'timeout' | 'TLS' | 'not HTTP' | 'reset';

/** A request that got no HTTP answer, with the reason in one line. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  readonly reason: UnreachableReason | 'other';
  readonly code: string;
  constructor(reason: UnreachableReason | 'other', code: string, message: string) {
    super(message);
    this.reason = reason;
    this.code = code;
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|ERR_OSSL)/;

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

function classifyTransportError(error: unknown, origin: string, timeoutMs: number): TransportFailure {
  const code = codeOf(error);
  const host = new URL(origin).host;
  // One line: OpenSSL and parser messages carry newlines and source paths.
  const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  const name = error instanceof Error ? error.name : '';
  if (code === 'ECONNREFUSED') return new TransportFailure('refused', code, `connection refused by ${host} (nothing listens there)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new TransportFailure('DNS', code, `DNS: the host name ${new URL(origin).hostname} does not resolve (${code})`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT' || error instanceof undiciErrors.HeadersTimeoutError) {
    return new TransportFailure('timeout', code, `timeout: ${host} did not answer within ${timeoutMs} ms (${code})`);
  }
  if (TLS_CODE.test(code)) return new TransportFailure('TLS', code, `TLS: ${detail} (${code})`);
  if (name === 'HTTPParserError' || code.startsWith('HPE_') || code === 'UND_ERR_RESPONSE' || code === 'UND_ERR_INFO') return new TransportFailure('not HTTP', code, `not HTTP: ${host} answered with something that is not an HTTP response (${code})`);
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED' || /other side closed/i.test(detail)) {
    return new TransportFailure('reset', code, `connection closed by ${host} before a complete response (${code}: ${detail})`);
  }
  return new TransportFailure('other', code, `${detail} (${code})`);
}

function normaliseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
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
    });
  }

  /** Sends once per attempt; resolves with the exchange or rejects with a TransportFailure. */
  async send(request: RequestSpec): Promise<Exchange> {
    let lastError: TransportFailure | undefined;
    for (let attempt = 0; attempt <= this.#options.retries; attempt++) {
      try {
        return await this.#sendOnce(request);
      } catch (error) {
        lastError = classifyTransportError(error, this.#options.origin, this.#options.timeoutMs);
      }
    }
    throw lastError!;
  }

  async #sendOnce(request: RequestSpec): Promise<Exchange> {
    const headers = { ...this.#options.headers, ...request.headers };
    const started = performance.now();
    if (request.mayAnswerEarly === true) {
      const raw = await sendRaw(this.#options.origin, request, headers, this.#options.timeoutMs);
      return { request: { ...request, headers, url: `${this.#options.origin}${request.path}` }, response: raw, durationMs: performance.now() - started };
    }
    const response = await this.#pool.request({
      method: request.method as 'GET',
      path: request.path,
      headers,
      body: request.body ?? null,
      headersTimeout: this.#options.timeoutMs,
      bodyTimeout: this.#options.timeoutMs,
    });
    const body = new Uint8Array(await response.body.arrayBuffer());
    return {
      request: { ...request, headers, url: `${this.#options.origin}${request.path}` },
      response: { status: response.statusCode, headers: normaliseHeaders(response.headers), body },
      durationMs: performance.now() - started,
    };
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}
