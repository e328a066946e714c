/**
 * The display form of an exchange: request and response with headers, bodies truncated for
 * reading, a `curl` command that reproduces the request, and everything redacted. Reporters
 * only ever see this form, never the raw exchange, so no reporter can leak a secret.
 */
import { redactHeaders, type Redactor } from './redact.js';
import type { Exchange, RequestSpec } from './types.js';

export interface Trace {
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly bodyBytes: number };
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string; readonly bodyBytes: number };
  readonly curl: string;
}

/** Bodies above this are not inlined in the curl command. */
const CURL_INLINE_LIMIT = 16 * 1024;
export const DISPLAY_BODY_LIMIT = 2000;

function bodyBytes(body: RequestSpec['body']): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

export function excerpt(bytes: Uint8Array, limit = DISPLAY_BODY_LIMIT): string {
  const text = new TextDecoder('utf-8').decode(bytes.length > limit * 4 ? bytes.subarray(0, limit * 4) : bytes);
  return text.length <= limit ? text : `${text.slice(0, limit)}… [${bytes.length} bytes in all]`;
}

/** POSIX shell single-quoting. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(url: string, request: RequestSpec, redact: Redactor): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(redact(url))];
  for (const [name, value] of Object.entries(redactHeaders(request.headers, redact))) parts.push('-H', shellQuote(`${name}: ${value}`));
  const bytes = bodyBytes(request.body);
  if (bytes.length > CURL_INLINE_LIMIT) {
    parts.push('--data-binary', '@request-body.bin', `  # the ${bytes.length}-byte body is not inlined`);
  } else if (request.body !== undefined) {
    parts.push('--data-binary', shellQuote(redact(new TextDecoder().decode(bytes))));
  }
  return parts.join(' ');
}

export function traceOf(request: RequestSpec & { readonly url: string }, exchange: Exchange | undefined, redact: Redactor): Trace {
  const reqBytes = bodyBytes(request.body);
  const base = {
    request: { method: request.method, url: redact(request.url), headers: redactHeaders(request.headers, redact), body: redact(excerpt(reqBytes)), bodyBytes: reqBytes.length },
    curl: curlCommand(request.url, request, redact),
  };
  if (exchange === undefined) return base;
  const { response } = exchange;
  return { ...base, response: { status: response.status, headers: redactHeaders(response.headers, redact), body: redact(excerpt(response.body)), bodyBytes: response.body.length } };
}
