/**
 * The display form of an exchange: request and response with headers, bodies truncated for
 * reading, a `curl` command that reproduces the request, and everything redacted. Reporters
 * only ever see this form, never the raw exchange, so no reporter can leak a secret.
 */
import { redactHeaders, type Redactor } from '../../report/redact.js';
import type { Exchange, RequestSpec, Trace } from '../types.js';

/** Bodies above this are not inlined in the curl command. */
const CURL_INLINE_LIMIT = 16 * 1024;
const DISPLAY_BODY_LIMIT = 2000;

function bodyBytes(body: RequestSpec['body']): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/** Enough bytes for DISPLAY_BODY_LIMIT characters of UTF-8. */
const EXCERPT_BYTES = DISPLAY_BODY_LIMIT * 4;

/**
 * What a trace keeps of a response: the head and the first bytes of the body (copied), with the
 * body's full length. Outcomes hold this rather than the exchange, so a run does not keep every
 * response body alive until the report is written.
 */
export interface ResponseExcerpt {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyPrefix: Uint8Array;
  readonly bodyBytes: number;
}

export function responseExcerpt(response: Exchange['response']): ResponseExcerpt {
  const { status, headers, body } = response;
  return { status, headers, bodyPrefix: body.slice(0, EXCERPT_BYTES), bodyBytes: body.length };
}

function excerpt(bytes: Uint8Array, limit = DISPLAY_BODY_LIMIT, total = bytes.length): string {
  const shown = bytes.subarray(0, Math.min(bytes.length, limit * 4));
  const text = new TextDecoder('utf-8').decode(shown);
  if (text.length <= limit && shown.length === total) return text;
  return `${text.slice(0, limit)}… [${total} bytes in all]`;
}

/** POSIX shell single-quoting. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlCommand(url: string, request: Exchange['request'], redact: Redactor): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(redact(url))];
  if (request.proxy !== undefined) parts.push('--proxy', shellQuote(redact(request.proxy)));
  for (const [name, value] of Object.entries(redactHeaders(request.headers, redact)))
    parts.push('-H', shellQuote(`${name}: ${value}`));
  const bytes = bodyBytes(request.body);
  if (bytes.length > CURL_INLINE_LIMIT) {
    parts.push('--data-binary', '@request-body.bin', `  # the ${bytes.length}-byte body is not inlined`);
  } else if (request.body !== undefined) {
    parts.push('--data-binary', shellQuote(redact(new TextDecoder().decode(bytes))));
  }
  return parts.join(' ');
}

export function traceOf(request: Exchange['request'], response: ResponseExcerpt | undefined, redact: Redactor): Trace {
  const reqBytes = bodyBytes(request.body);
  const base = {
    request: {
      method: request.method,
      url: redact(request.url),
      headers: redactHeaders(request.headers, redact),
      body: redact(excerpt(reqBytes)),
      bodyBytes: reqBytes.length,
    },
    curl: curlCommand(request.url, request, redact),
  };
  if (response === undefined) return base;
  const body = redact(excerpt(response.bodyPrefix, DISPLAY_BODY_LIMIT, response.bodyBytes));
  return {
    ...base,
    response: {
      status: response.status,
      headers: redactHeaders(response.headers, redact),
      body,
      bodyBytes: response.bodyBytes,
    },
  };
}
