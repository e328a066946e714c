/**
 * `smskit call --show-wire`: the request and the response as they went over the connection (the
 * header block undici wrote, the body bytes it sent; the status line, headers and body that came
 * back), what SoapUI and `python -m zeep` users look at first. Read from undici's diagnostics
 * channels, so it shows what was sent, not a re-rendering. Secrets are replaced by `***`:
 * Authorization and Proxy-Authorization values, every secret the caller names (HTTP and
 * WS-Security passwords, tokens, input values of password-like fields) in the forms they take on
 * the wire (as is, XML-escaped, percent-encoded, form-encoded). Bodies are shown up to a bound.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { wireSpellings } from '../runtime/escape/spellings.js';

/** The most of one body that is printed; the rest is counted. */
const MAX_SHOWN_BODY = 256 * 1024;
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie)$/i;

interface Exchange {
  readonly sent: Buffer[];
  readonly received: Buffer[];
}

/** Replaces every secret (in each of its wire forms) by `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets.filter((s) => s !== ''))
    for (const form of wireSpellings(secret)) out = out.split(form).join('***');
  return out;
}

function redactHeaderLine(line: string): string {
  const colon = line.indexOf(':');
  if (colon <= 0) return line;
  const name = line.slice(0, colon);
  return SECRET_HEADERS.test(name.trim()) ? `${name}: ***` : line;
}

function bodyText(chunks: readonly Buffer[]): string {
  const body = Buffer.concat(chunks);
  if (body.length <= MAX_SHOWN_BODY) return body.toString('utf8');
  return `${body.subarray(0, MAX_SHOWN_BODY).toString('utf8')}\n… (${body.length - MAX_SHOWN_BODY} more bytes)`;
}

function toBuffer(chunk: unknown): Buffer | undefined {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return undefined;
}

/**
 * Prints every exchange of this process to `write` until the returned function is called.
 * `secrets`: values to hide wherever they appear.
 */
export function traceWire(write: (text: string) => void, secrets: readonly string[]): () => void {
  const exchanges = new WeakMap<object, Exchange>();
  const of = (request: object): Exchange => {
    let exchange = exchanges.get(request);
    if (exchange === undefined) exchanges.set(request, (exchange = { sent: [], received: [] }));
    return exchange;
  };
  const show = (text: string): void => write(redactSecrets(text, secrets));
  const handlers = { ...requestHandlers(of, show), ...responseHandlers(of, show) };
  for (const [name, handler] of Object.entries(handlers)) subscribe(name, handler);
  return () => {
    for (const [name, handler] of Object.entries(handlers)) unsubscribe(name, handler);
  };
}

type ExchangeOf = (request: object) => Exchange;
type Show = (text: string) => void;
type Handlers = Record<string, (message: unknown) => void>;

/** What the client sends: the request head, then the body as written (or as given, when undici wrote it whole). */
function requestHandlers(of: ExchangeOf, show: Show): Handlers {
  return {
    'undici:client:sendHeaders': (message) => {
      const { request, headers } = message as { request: object; headers: string };
      of(request);
      const lines = headers.split('\r\n').filter((line) => line !== '');
      show(`--- request\n${lines.map(redactHeaderLine).join('\n')}\n`);
    },
    'undici:request:bodyChunkSent': (message) => {
      const { request, chunk } = message as { request: object; chunk: unknown };
      const bytes = toBuffer(chunk);
      if (bytes !== undefined) of(request).sent.push(bytes);
    },
    'undici:request:bodySent': (message) => {
      const { request } = message as { request: object & { body?: unknown } };
      const exchange = of(request);
      if (exchange.sent.length === 0) {
        const body = toBuffer(request.body);
        if (body !== undefined) exchange.sent.push(body);
      }
      if (exchange.sent.length > 0) show(`\n${bodyText(exchange.sent)}\n`);
    },
  };
}

/** What comes back: the status line and headers, the body, or the error that stood for a response. */
function responseHandlers(of: ExchangeOf, show: Show): Handlers {
  return {
    'undici:request:headers': (message) => {
      const { request, response } = message as {
        request: object;
        response: { statusCode: number; statusText: string; headers: Buffer[] };
      };
      of(request);
      const lines: string[] = [];
      for (let i = 0; i + 1 < response.headers.length; i += 2)
        lines.push(
          redactHeaderLine(
            `${response.headers[i]!.toString('latin1')}: ${response.headers[i + 1]!.toString('latin1')}`,
          ),
        );
      show(`--- response\nHTTP/1.1 ${response.statusCode} ${response.statusText}\n${lines.join('\n')}\n`);
    },
    'undici:request:bodyChunkReceived': (message) => {
      const { request, chunk } = message as { request: object; chunk: unknown };
      const bytes = toBuffer(chunk);
      if (bytes !== undefined) of(request).received.push(bytes);
    },
    'undici:request:trailers': (message) => {
      const { request } = message as { request: object };
      const exchange = of(request);
      show(exchange.received.length === 0 ? '---\n' : `\n${bodyText(exchange.received)}\n---\n`);
    },
    'undici:request:error': (message) => {
      const { error } = message as { error: unknown };
      show(`--- no response: ${error instanceof Error ? error.message : String(error)}\n`);
    },
  };
}

/** String values of input fields whose names say they are secret (password, token, secret, PIN). */
export function secretInputValues(value: unknown, key = ''): string[] {
  if (typeof value === 'string') return /pass(word)?|secret|token|passphrase|^pin$/i.test(key) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => secretInputValues(item, key));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => secretInputValues(v, k));
  return [];
}
