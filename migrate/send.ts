/**
 * Sends a recorded request to a server (the target, or the reference): the same method, path
 * and query, headers and body bytes; Host becomes the server's own, hop-by-hop headers and the
 * length are left to the connection. A recorded credential replaced by `***` is not sent as
 * such: the replay's own authentication (`--user`, `--bearer`) goes in its place, or nothing.
 */
import type { Dispatcher } from 'undici';
import { createDispatcher } from '../runtime/network/dispatcher.js';
import { readProxyOption } from '../runtime/network/proxy.js';
import type { ClientTlsOptions, ProxyOption } from '../runtime/network/types.js';
import type { Answer } from './outline.js';
import type { HeaderList, StoredRequest } from './recording.js';
import { decodedBody, IDENTITY_ONLY } from './content-coding.js';
import { HOP_BY_HOP, withoutHopFields } from './hop-by-hop.js';
import { REDACTED } from './redact.js';
import { responseHeaderList } from './upstream-body.js';

export interface SendSettings {
  readonly tls?: ClientTlsOptions | undefined;
  readonly proxy?: ProxyOption | undefined;
  /** An Authorization value to send in place of the recorded one. */
  readonly authorization?: string | undefined;
  readonly timeoutMs: number;
  readonly connections: number;
}

const NOT_FORWARDED = new Set([
  ...HOP_BY_HOP,
  'host',
  'content-length',
  // Replaced by identity: answers are compared as written, not as compressed.
  'accept-encoding',
  // Node answers `Expect: 100-continue` itself (.NET clients send it); undici will not send it on.
  'expect',
]);

/** A server a replay sends to: its origin and a keep-alive pool with the network options. */
export class ReplayServer {
  readonly url: URL;
  readonly #dispatcher: Dispatcher;
  readonly #authorization: string | undefined;

  constructor(url: string, settings: SendSettings) {
    this.url = new URL(url);
    this.#authorization = settings.authorization;
    this.#dispatcher = createDispatcher(this.url, {
      connections: settings.connections,
      timeoutMs: settings.timeoutMs,
      tls: settings.tls,
      proxy: settings.proxy === undefined ? undefined : readProxyOption(settings.proxy),
    });
  }

  /** The headers as they will be sent (also what the curl line shows). */
  headersFor(request: StoredRequest): [string, string][] {
    const out: [string, string][] = [['Host', this.url.host]];
    for (const [name, value] of withoutHopFields(request.headers, NOT_FORWARDED)) {
      const lower = name.toLowerCase();
      if (lower === 'authorization' && (this.#authorization !== undefined || value === REDACTED)) continue;
      out.push([name, value]);
    }
    if (this.#authorization !== undefined) out.push(['Authorization', this.#authorization]);
    out.push(['Accept-Encoding', IDENTITY_ONLY]);
    return out;
  }

  async send(request: StoredRequest): Promise<Answer> {
    const body = Buffer.from(request.body, 'base64');
    const res = await this.#dispatcher.request({
      origin: this.url.origin,
      path: request.target,
      method: request.method as Dispatcher.HttpMethod,
      headers: this.headersFor(request).flat(),
      body: body.length === 0 && (request.method === 'GET' || request.method === 'HEAD') ? null : body,
    });
    const answer = Buffer.from(await res.body.arrayBuffer());
    // A server that compresses though identity was asked for: compared decoded (left as sent if it cannot be).
    const pairs = responseHeaderList(res.headers);
    const decoded = decodedBody(pairs, answer);
    if (decoded === undefined || decoded.headers === pairs)
      return { status: res.statusCode, headers: res.headers, body: answer };
    const headers = Object.fromEntries(
      Object.entries(res.headers).filter(([n]) => !/^content-(encoding|length)$/i.test(n)),
    );
    return { status: res.statusCode, headers, body: decoded.body };
  }

  close(): Promise<void> {
    return this.#dispatcher.close();
  }
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const CURL_BODY_LIMIT = 16 * 1024;

/** A curl command that sends the request to the server again (secrets as recorded: `***` when redacted). */
export function curlFor(server: ReplayServer, request: StoredRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(`${server.url.origin}${request.target}`)];
  for (const [name, value] of server.headersFor(request)) {
    if (name === 'Host') continue;
    parts.push('-H', shellQuote(`${name}: ${name.toLowerCase() === 'authorization' ? REDACTED : value}`));
  }
  const body = Buffer.from(request.body, 'base64');
  if (body.length > 0)
    parts.push(
      '--data-binary',
      body.length > CURL_BODY_LIMIT ? '@request-body.bin' : shellQuote(body.toString('utf8')),
    );
  return parts.join(' ');
}

/** An answer's headers as [name, value] pairs, for reports. */
export function answerHeaders(answer: Answer): HeaderList {
  return responseHeaderList(answer.headers);
}
