/**
 * How the recorder stores one exchange once its answer has gone: content codings undone (a body
 * that cannot be decoded is not stored), secrets redacted unless kept, bodies bounded.
 */
import type { Exchange, HeaderList, RecordingWriter } from './recording.js';
import { decodedBody } from './content-coding.js';
import type { Redactor } from './redact.js';

export interface StoreContext {
  readonly redactor: Redactor;
  readonly keepSecrets: boolean;
  readonly writer: RecordingWriter;
  readonly onExchange: ((exchange: Exchange) => void) | undefined;
  readonly onWarning: (line: string) => void;
}

export interface Seen {
  readonly at: string;
  readonly started: number;
  readonly finished: number;
  readonly method: string;
  readonly target: string;
  readonly requestHeaders: HeaderList;
  readonly body: Buffer;
  /** `cut`: the upstream broke off mid-body; the body is what arrived. */
  readonly response: { status: number; headers: HeaderList; body: Buffer; cut: boolean } | undefined;
  /** Why the exchange did not complete (no answer, or one that broke off); undefined when it did. */
  readonly failure?: string | undefined;
}

/** A stored message's headers and body with its content coding undone; a body that cannot be is not stored. */
function uncoded(headers: HeaderList, body: Buffer): { headers: HeaderList; body: Buffer; cut?: true } {
  const decoded = decodedBody(headers, body);
  if (decoded !== undefined) return decoded;
  const kept = headers.filter(([n]) => !/^content-(encoding|length)$/i.test(n));
  return { headers: kept, body: Buffer.from(UNDECODABLE_BODY), cut: true };
}
const UNDECODABLE_BODY = '*** body not stored: its Content-Encoding could not be decoded ***';

export function store(ctx: StoreContext, given: Seen): void {
  try {
    const request = uncoded(given.requestHeaders, given.body);
    const answer = given.response && { ...given.response, ...uncoded(given.response.headers, given.response.body) };
    const seen: Seen = {
      ...given,
      requestHeaders: request.headers,
      body: request.body,
      response: answer && { ...answer, cut: answer.cut === true || given.response?.cut === true },
    };
    storeUncoded(ctx, seen, request.cut === true);
  } catch (error) {
    ctx.onWarning(`record: could not store an exchange: ${(error as Error).message}`);
  }
}

function storeUncoded(ctx: StoreContext, seen: Seen, requestCut: boolean): void {
  // Redaction runs either way: with secrets kept, it still tells which exchanges carry them,
  // so a replay can refuse to send those to another host.
  const request = ctx.redactor.message(seen.requestHeaders, seen.body, seen.target);
  const response =
    seen.response === undefined ? undefined : ctx.redactor.message(seen.response.headers, seen.response.body);
  const kept = ctx.keepSecrets;
  const exchange: Exchange = {
    id: ctx.writer.nextId(),
    at: seen.at,
    ms: Math.round((seen.finished - seen.started) * 1000) / 1000,
    request: {
      method: seen.method,
      target: kept ? seen.target : (request.target ?? seen.target),
      headers: kept ? seen.requestHeaders : request.headers,
      ...ctx.writer.body(kept ? seen.body : request.body),
      ...(requestCut ? { truncated: true as const } : {}),
    },
    response:
      seen.response === undefined || response === undefined
        ? undefined
        : {
            status: seen.response.status,
            headers: kept ? seen.response.headers : response.headers,
            ...ctx.writer.body(kept ? seen.response.body : response.body),
            ...(seen.response.cut ? { truncated: true as const } : {}),
          },
    secrets: [...request.redacted, ...(response?.redacted ?? []).map((r) => `answer ${r}`)],
    ...(seen.failure === undefined ? {} : { failure: seen.failure }),
  };
  ctx.writer.write(exchange);
  ctx.onExchange?.(exchange);
}
