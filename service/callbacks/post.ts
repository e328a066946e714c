/**
 * One POST of a callback over the sender's keep-alive agent, and what came of it: a status, or
 * a failure sorted by reason (the metric's label, and whether the budget applies). Redirects are
 * never followed (a 3xx is a failure: a receiver cannot send the service's signed requests
 * elsewhere); the answer's body is read to at most `maxResponseBytes` and dropped, so a receiver
 * that answers with gigabytes costs one closed connection.
 */
import type { Dispatcher } from 'undici';
import type { TrySignal, TrySignals } from './try-signals.js';

export type FailureReason =
  | 'http_3xx'
  | 'http_4xx'
  | 'http_5xx'
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'address'
  | 'dns'
  | 'bad_url'
  | 'stopped'
  | 'error';

export type PostResult =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'failed'; readonly reason: FailureReason; readonly error: string };

export interface PostRequest {
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** The sender's tries: this one's timeout, and the stop that cuts every try off. */
  readonly tries: TrySignals;
}

const CODE_REASONS: Readonly<Record<string, FailureReason>> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  SMSKIT_CALLBACK_ADDRESS_REFUSED: 'address',
};

/** The error's code, looking through undici's wrapping (`cause`). */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in CODE_REASONS) return code;
    if (e.name === 'TimeoutError') return 'ETIMEDOUT';
  }
  return undefined;
}

function failure(error: unknown, request: PostRequest, timedOut: boolean): PostResult {
  if (timedOut) return { kind: 'failed', reason: 'timeout', error: `no answer within ${request.timeoutMs} ms` };
  if (request.tries.stopped)
    return { kind: 'failed', reason: 'stopped', error: 'the sender stopped before an answer came' };
  const code = codeOf(error);
  const reason = code === undefined ? 'error' : (CODE_REASONS[code] ?? 'error');
  if (reason === 'timeout') return { kind: 'failed', reason, error: `no answer within ${request.timeoutMs} ms` };
  if (reason === 'address') return { kind: 'failed', reason, error: (error as Error).message };
  const text = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : String(error);
  return { kind: 'failed', reason, error: `${code ?? 'error'}: ${text}` };
}

/**
 * One exchange as undici's dispatch handler: the status from the answer's head, its body counted
 * and dropped (over `maxResponseBytes` the exchange is cut off: the status stands, the connection
 * is closed), the try's abort passed to undici's controller. `request()` did the same through a
 * body stream read by an async iterator and an AbortSignal per try: with it the sender's thread
 * spent about a fifth more CPU per delivered message (bench/profile-delivery.ts, 2026-11-29).
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** An abort that came before undici started the request: passed on when it does. */
  private early: Error | undefined;
  private status = 0;
  private read = 0;
  private cut = false;
  private done = false;
  private readonly attempt: TrySignal;

  constructor(
    private readonly request: PostRequest,
    private readonly resolve: (result: PostResult) => void,
  ) {
    this.attempt = request.tries.begin(request.timeoutMs, (reason) => this.abort(reason));
  }

  private abort(reason: Error): void {
    if (this.controller !== undefined) return this.controller.abort(reason);
    // Still waiting for a connection: the try is over now; undici's request is cut off when it starts.
    this.early = reason;
    this.failed(reason);
  }

  private finish(result: PostResult): void {
    if (this.done) return;
    this.done = true;
    this.attempt.end();
    this.resolve(result);
  }

  failed(error: unknown): void {
    this.finish(failure(error, this.request, this.attempt.timedOut()));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.early !== undefined) controller.abort(this.early);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // A 1xx is not the answer.
    if (statusCode >= 200) this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.read += chunk.length;
    if (this.read <= this.request.maxResponseBytes || this.cut) return;
    this.cut = true;
    controller.abort(new Error(`the answer is longer than ${this.request.maxResponseBytes} bytes`));
  }

  onResponseEnd(): void {
    this.finish({ kind: 'answered', status: this.status });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.cut) this.finish({ kind: 'answered', status: this.status });
    else this.failed(error);
  }
}

export function postCallback(dispatcher: Dispatcher, request: PostRequest): Promise<PostResult> {
  const { url } = request;
  return new Promise((resolve) => {
    const exchange = new Exchange(request, resolve);
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: request.headers,
          body: request.body,
        },
        exchange,
      );
    } catch (error) {
      exchange.failed(error);
    }
  });
}
