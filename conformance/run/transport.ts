/**
 * Sending requests with undici: one keep-alive Pool per target origin, `concurrency`
 * connections, retries for transport errors only (an HTTP answer, whatever its status, is never
 * retried). Errors are classified by `err.code`, as undici does.
 *
 * Every exchange is bounded (run/bounds.ts): the whole of it — connect, head, body — by
 * one deadline, the head by MAX_HEAD_BYTES and the body by `maxResponseBytes`, read
 * incrementally and abandoned the moment it passes the limit. A bound that is hit fails the
 * exchange with a message that names it; a response head that had arrived is kept for the trace.
 *
 * With network options (runtime/network/raw.ts) the same pool speaks TLS with the run's CA and client
 * certificate, goes through the run's proxy (undici's ProxyAgent: a CONNECT tunnel to an https
 * target, absolute-form requests to an http one) and sends the run's Authorization on every
 * request.
 */
import { ProxyAgent, Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { TlsAlertLog } from '../../runtime/network/tls-alerts.js';
import { tlsReason } from '../../runtime/network/tls-reasons.js';
import { BodySink, type BodyProgress } from './body-sink.js';
import { BoundHit, ExchangeDeadline, headTooLarge, MAX_HEAD_BYTES, responseTooLarge } from './bounds.js';
import type { RawNetwork } from '../../runtime/network/raw.js';
import { sendRaw, TunnelRefused, type RawResponse } from './raw-http.js';
import type { ResponseExcerpt } from '../validate/trace.js';
import type { Exchange, RequestSpec } from '../types.js';

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
  /** TLS, proxy, Authorization (runtime/network/raw.ts); none: plain connections to the origin. */
  readonly network?: RawNetwork | undefined;
}

/** Changes a request just before each attempt (a fresh WS-Security token goes in there). */
export type PrepareRequest = (request: RequestSpec) => RequestSpec;

export type UnreachableReason = 'refused' | 'DNS' | 'timeout' | 'TLS' | 'not HTTP' | 'reset';
/**
 * `too large`: a head or body bound was hit; `interrupted`: the run's own deadline fired;
 * `no tunnel`: the proxy refused the CONNECT tunnel a raw-socket case needs.
 */
export type FailureReason = UnreachableReason | 'too large' | 'interrupted' | 'no tunnel' | 'other';

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

/** A TLS failure in one line: what it means and what to do (runtime/network/tls-reasons.ts), else OpenSSL's words. */
function tlsFailure(code: string, detail: string): TransportFailure {
  return new TransportFailure('TLS', code, `TLS: ${tlsReason([code]) ?? detail} (${code})`);
}

/** What the classification of a failed exchange needs to know besides the error. */
interface FailureContext {
  readonly origin: string;
  readonly timeoutMs: number;
  readonly progress: Progress;
  readonly alerts: TlsAlertLog | undefined;
  /** A client certificate was offered (a server that does not accept it may just close). */
  readonly clientCertificate: boolean;
}

function classifyTransportError(error: unknown, context: FailureContext): TransportFailure {
  const { origin, timeoutMs, progress, alerts } = context;
  const partial = partialOf(progress);
  if (error instanceof BoundHit) return classifyBound(error, partial);
  if (error instanceof TunnelRefused) return new TransportFailure('no tunnel', 'PROXY_TUNNEL_REFUSED', error.message);
  // A server that refuses the client certificate (TLS 1.3) alerts and closes: undici reports the close.
  const alert = alerts?.take(error);
  if (alert !== undefined) return tlsFailure(alert.code, alert.message.replace(/\s+/g, ' ').trim());
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
  if (TLS_CODE.test(code)) return tlsFailure(code, detail);
  if (name === 'HTTPParserError' || code.startsWith('HPE_') || code === 'UND_ERR_RESPONSE' || code === 'UND_ERR_INFO') {
    return new TransportFailure(
      'not HTTP',
      code,
      `not HTTP: ${host} answered with something that is not an HTTP response (${code === 'UNKNOWN' ? detail : code})`,
      partial,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED' || /other side closed/i.test(detail)) {
    // A server that refuses a client certificate from a CA it does not trust may close without an alert.
    const hint =
      context.clientCertificate && partial === undefined && new URL(origin).protocol === 'https:'
        ? ' (a server closes so when it does not accept the client certificate: is it issued by a CA the server trusts?)'
        : '';
    return new TransportFailure(
      'reset',
      code,
      `connection closed by ${host} before a complete response (${code}: ${detail}): ${arrived(partial)}${hint}`,
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

/** The keep-alive pool to the origin, or a proxy agent that routes every request through the run's proxy. */
function createDispatcher(options: TransportOptions, alerts: TlsAlertLog | undefined): Dispatcher {
  const network = options.network;
  const connect = { timeout: options.timeoutMs, ...network?.tls };
  const pool = {
    connections: options.concurrency,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    maxHeaderSize: MAX_HEAD_BYTES,
    // The exchange's own deadline bounds it whole; undici's timers only bound pauses.
    headersTimeout: 0,
    bodyTimeout: 0,
  };
  const proxy = network?.proxy;
  if (proxy === undefined) return new Pool(options.origin, { ...pool, connect: alerts?.connector(connect) ?? connect });
  // undici's own pools (to the proxy for CONNECT, the one forwarding http requests) get the
  // same bounds; otherwise they have its defaults and no connection limit.
  const limited = (url: string | URL, given: object): Dispatcher => new Pool(url, { ...pool, ...given });
  return new ProxyAgent({
    clientFactory: limited,
    factory: limited,
    ...pool,
    uri: proxy.url,
    ...(proxy.authorization === undefined ? {} : { token: proxy.authorization }),
    // http targets as absolute-form requests, as proxies expect; https ones through a CONNECT tunnel.
    proxyTunnel: false,
    requestTls: connect,
    proxyTls: {
      timeout: options.timeoutMs,
      ...(proxy.secureContext === undefined ? {} : { secureContext: proxy.secureContext }),
    },
  });
}

export class Transport {
  readonly #dispatcher: Dispatcher;
  readonly #options: TransportOptions;
  /** TLS alerts of direct https connections, to name a refused client certificate. */
  readonly #alerts: TlsAlertLog | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
    const direct = options.network?.proxy === undefined && new URL(options.origin).protocol === 'https:';
    this.#alerts = direct ? new TlsAlertLog() : undefined;
    this.#dispatcher = createDispatcher(options, this.#alerts);
  }

  /**
   * Sends once per attempt; resolves with the exchange or rejects with a TransportFailure.
   * `run` is the run's signal: when it fires, the exchange in flight ends as `interrupted`.
   * An exchange that got a response head, hit a bound or was interrupted is not retried.
   * `prepare` changes the request before each attempt.
   */
  async send(request: RequestSpec, run?: AbortSignal, prepare?: PrepareRequest): Promise<Exchange> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#sendOnce(prepare === undefined ? request : prepare(request), run);
      } catch (error) {
        if (!(error instanceof TransportFailure)) throw error;
        const final =
          error.partial !== undefined ||
          error.reason === 'interrupted' ||
          error.reason === 'too large' ||
          error.reason === 'no tunnel';
        if (final || attempt >= this.#options.retries) throw error;
      }
    }
  }

  /** The headers a request goes out with: the run's Authorization, the -H headers, the case's own (which win). */
  headersOf(request: RequestSpec): Record<string, string> {
    const authorization = this.#options.network?.authorization;
    return {
      ...(authorization === undefined ? {} : { authorization }),
      ...this.#options.headers,
      ...request.headers,
    };
  }

  /** How a request is shown: its URL, and the proxy it went through. */
  shown(request: RequestSpec): { readonly url: string; readonly proxy?: string } {
    const proxy = this.#options.network?.proxy?.url;
    return { url: `${this.#options.origin}${request.path}`, ...(proxy === undefined ? {} : { proxy }) };
  }

  async #sendOnce(request: RequestSpec, run: AbortSignal | undefined): Promise<Exchange> {
    const headers = this.headersOf(request);
    const started = performance.now();
    const deadline = new ExchangeDeadline(this.#options.timeoutMs, run);
    const progress: Progress = {};
    try {
      const response =
        request.mayAnswerEarly === true
          ? await this.#sendRaw(request, headers, deadline.signal, progress)
          : await this.#sendPooled(request, headers, deadline.signal, progress);
      return {
        request: { ...request, headers, ...this.shown(request) },
        response,
        durationMs: performance.now() - started,
      };
    } catch (error) {
      // An abort surfaces as undici's or the socket's own error; the signal says which bound it was.
      throw classifyTransportError(deadline.signal.aborted ? deadline.signal.reason : error, {
        origin: this.#options.origin,
        timeoutMs: this.#options.timeoutMs,
        progress,
        alerts: this.#alerts,
        clientCertificate: this.#options.network?.clientCertificate === true,
      });
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
      network: this.#options.network,
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
    const response = await this.#dispatcher.request({
      // A proxy agent serves any origin: each request names its own (a Pool ignores it).
      origin: this.#options.origin,
      method: request.method as 'GET',
      path: request.path,
      headers,
      body: request.body ?? null,
      signal,
    });
    return readBody(response, this.#options.maxResponseBytes, progress);
  }

  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  /** Ends every connection now, requests in flight included (the run's deadline fired). */
  async destroy(): Promise<void> {
    await this.#dispatcher.destroy();
  }
}
