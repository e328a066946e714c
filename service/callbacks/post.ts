/**
 * One POST of a callback over the sender's keep-alive agent, and what came of it: a status, or
 * a failure sorted by reason (the metric's label, and whether the budget applies). Redirects are
 * never followed (a 3xx is a failure: a receiver cannot send the service's signed requests
 * elsewhere); the answer's body is read to at most `maxResponseBytes` and dropped, so a receiver
 * that answers with gigabytes costs one closed connection.
 */
import type { Dispatcher } from 'undici';
import type { TrySignals } from './try-signals.js';

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

/** Reads at most `limit` bytes of the answer; a longer body is cut off (the connection closed). */
async function drainBounded(body: Dispatcher.ResponseData['body'], limit: number): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += (chunk as Buffer).length;
    if (read > limit) {
      body.destroy();
      return;
    }
  }
}

export async function postCallback(dispatcher: Dispatcher, request: PostRequest): Promise<PostResult> {
  const { url } = request;
  const attempt = request.tries.begin(request.timeoutMs);
  const { signal } = attempt;
  try {
    const answer = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal,
    });
    await drainBounded(answer.body, request.maxResponseBytes).catch(() => undefined);
    return { kind: 'answered', status: answer.statusCode };
  } catch (error) {
    return failure(error, request, attempt.timedOut());
  } finally {
    attempt.end();
  }
}
