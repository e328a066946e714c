/**
 * The recording reverse proxy behind `smskit record`: listens on its own port, forwards every
 * request to the upstream service as it came (method, path and query, headers, body bytes; only
 * Host becomes the upstream's, and hop-by-hop headers stay on their own hop), streams the answer
 * back, and once the answer has gone stores the exchange (recording.ts), redacted by rule
 * (redact.ts) unless secrets are kept.
 *
 * One deliberate change: a WSDL answer (`?wsdl`) has the upstream's own address replaced by the
 * proxy's, as the client addressed it, so clients that read their endpoint from the WSDL (zeep,
 * node-soap, .NET proxies) keep sending through the recorder. The recording keeps the WSDL as
 * the upstream wrote it.
 *
 * The upstream is reached with the runtime's network options (TLS with a company CA or a client
 * certificate, an HTTP proxy): the same dispatcher a ServiceClient uses.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import { createDispatcher } from '../runtime/network/dispatcher.js';
import { readProxyOption } from '../runtime/network/proxy.js';
import type { ClientTlsOptions, ProxyOption } from '../runtime/network/types.js';
import {
  DEFAULT_STORE_LIMITS,
  type Exchange,
  RECORDING_FORMAT,
  RecordingWriter,
  type StoreLimits,
} from './recording.js';
import { IDENTITY_ONLY } from './content-coding.js';
import { withoutHopFields } from './hop-by-hop.js';
import { type AnswerContext, answerBadGateway, forwardAnswer, NOT_PASSED } from './recorder-answer.js';
import { type StoreContext, store } from './recorder-store.js';
import { Redactor } from './redact.js';
import { failureText, responseHeaderList } from './upstream-body.js';
import { upstreamSecretFields } from './upstream-wsdl.js';

export interface RecorderOptions {
  /** The live service: its origin (a path, if any, names its WSDL endpoint for the secret fields). */
  readonly upstream: string;
  /** The recording folder (new or empty). */
  readonly out: string;
  readonly host?: string;
  readonly port: number;
  readonly tls?: ClientTlsOptions;
  readonly proxy?: ProxyOption;
  /** Store secrets as they were sent (a private replay); default false: redacted. */
  readonly keepSecrets?: boolean;
  readonly limits?: Partial<StoreLimits>;
  /** Time limit for the upstream's connect, headers and body, each (ms). */
  readonly timeoutMs?: number;
  /** Larger request bodies are refused with 413 before anything is forwarded. */
  readonly maxRequestBytes?: number;
  readonly tool?: string;
  /** Called after each exchange is stored. */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Called with one line when something goes wrong outside a request (a store that fails). */
  readonly onWarning?: (line: string) => void;
}

export interface Recorder {
  /** The proxy's own URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** Exchanges stored so far. */
  recorded(): number;
  /** The secret field names redaction is using. */
  secretFields(): string[];
  close(): Promise<void>;
}

/** A request also goes without its Accept-Encoding: identity is asked for in its place. */
const NOT_PASSED_UPSTREAM = new Set([...NOT_PASSED, 'accept-encoding']);
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

function headerPairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(undefined);
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = upstreamUrl(options.upstream);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dispatcher = createDispatcher(upstream, {
    connections: 64,
    timeoutMs,
    tls: options.tls,
    proxy: options.proxy === undefined ? undefined : readProxyOption(options.proxy),
  });
  const secrets = await upstreamSecretFields(dispatcher, upstream);
  if (secrets.warning !== undefined) options.onWarning?.(`record: ${secrets.warning}`);
  const redactor = new Redactor(secrets.fields);
  const keepSecrets = options.keepSecrets === true;
  const writer = recordingWriter(options, upstream, redactor, keepSecrets);
  const context: ExchangeContext = {
    upstream,
    dispatcher,
    redactor,
    keepSecrets,
    writer,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    keepBytes: options.limits?.maxBodyBytes ?? DEFAULT_STORE_LIMITS.maxBodyBytes,
    onExchange: options.onExchange,
    onWarning: options.onWarning ?? (() => undefined),
  };
  const server = recordingServer(context);
  const url = await listen(server, options.port, options.host ?? '127.0.0.1');
  return {
    url,
    recorded: () => writer.written,
    secretFields: () => redactor.fields,
    close: async () => {
      await closeServer(server, dispatcher);
      // The last exchanges are stored just after their answers: let them land, then write them.
      await new Promise((resolve) => setImmediate(resolve));
      writer.flush();
    },
  };
}

/** The upstream as a URL: http or https, without credentials (clients send their own). */
function upstreamUrl(text: string): URL {
  const upstream = new URL(text);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new TypeError(`--upstream must be an http or https URL, not ${upstream.protocol}`);
  if (upstream.username !== '' || upstream.password !== '')
    throw new TypeError('--upstream must not carry credentials: clients send their own');
  return upstream;
}

/** The recording folder's writer, its header naming the upstream and how secrets were handled. */
function recordingWriter(
  options: RecorderOptions,
  upstream: URL,
  redactor: Redactor,
  keepSecrets: boolean,
): RecordingWriter {
  return new RecordingWriter(
    options.out,
    {
      format: RECORDING_FORMAT,
      tool: options.tool ?? 'smskit',
      upstream: `${upstream.origin}${upstream.pathname === '/' ? '' : upstream.pathname}`,
      startedAt: new Date().toISOString(),
      secretsKept: keepSecrets,
      secretFields: redactor.fields,
    },
    { ...DEFAULT_STORE_LIMITS, ...options.limits },
    (message) => (options.onWarning ?? (() => undefined))(`record: ${message}`),
  );
}

/** The proxy's server: each exchange forwarded and stored; a failure answers 502 and is warned about. */
function recordingServer(context: ExchangeContext): Server {
  const server = createServer((req, res) => {
    handle(context, req, res).catch((error: unknown) => {
      context.onWarning(`record: ${(error as Error).message}`);
      // Once the status line has gone, only an aborted connection tells the client the answer is
      // incomplete (RFC 9112 §7.1): ending it would write a clean chunked terminator.
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listens and returns the address clients use (an IPv6 host in brackets). */
async function listen(server: Server, port: number | undefined, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

async function closeServer(server: Server, dispatcher: Dispatcher): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await dispatcher.close();
}

interface ExchangeContext extends StoreContext, AnswerContext {
  readonly dispatcher: Dispatcher;
  readonly maxRequestBytes: number;
}

/**
 * The request's headers as the upstream gets them. The client's address is appended to
 * X-Forwarded-For (so an upstream's per-address limits and logs see real clients, not the
 * recorder), and X-Forwarded-Proto/-Host say how the client reached the recorder unless an
 * earlier proxy said so already.
 */
function forwardedHeaders(req: IncomingMessage, upstream: URL): Record<string, string | string[]> {
  const raw = req.rawHeaders;
  // Answers come uncompressed, so a WSDL can be rewritten and a body redacted as it is read.
  const out: Record<string, string | string[]> = { host: upstream.host, 'accept-encoding': IDENTITY_ONLY };
  for (const [name, value] of withoutHopFields(headerPairs(raw), NOT_PASSED_UPSTREAM)) {
    const lower = name.toLowerCase();
    const had = out[lower];
    out[lower] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  const earlier = out['x-forwarded-for'];
  const chain = earlier === undefined ? [] : Array.isArray(earlier) ? earlier : [earlier];
  const client = req.socket.remoteAddress;
  if (client !== undefined) out['x-forwarded-for'] = [...chain, client].join(', ');
  out['x-forwarded-proto'] ??= 'http';
  if (req.headers.host !== undefined) out['x-forwarded-host'] ??= req.headers.host;
  return out;
}

async function handle(ctx: ExchangeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = performance.now();
  const at = new Date().toISOString();
  const target = req.url ?? '/';
  const method = req.method ?? 'GET';
  const body = await readBody(req, ctx.maxRequestBytes);
  if (body === undefined) {
    res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    res.end(`smskit record: request body over ${ctx.maxRequestBytes} bytes, not forwarded\n`);
    return;
  }
  const requestHeaders = headerPairs(req.rawHeaders);
  let upstreamRes: Dispatcher.ResponseData;
  try {
    upstreamRes = await ctx.dispatcher.request({
      origin: ctx.upstream.origin,
      path: target,
      method: method as Dispatcher.HttpMethod,
      headers: forwardedHeaders(req, ctx.upstream),
      body: body.length === 0 && (method === 'GET' || method === 'HEAD') ? null : body,
    });
  } catch (error) {
    const why = `the upstream did not answer (${failureText(error)})`;
    answerBadGateway(res, why);
    const failure = `${why}; the client was answered 502`;
    store(ctx, {
      at,
      started,
      finished: performance.now(),
      method,
      target,
      requestHeaders,
      body,
      response: undefined,
      failure,
    });
    return;
  }
  const responseHeaders = responseHeaderList(upstreamRes.headers);
  const answer = await forwardAnswer(ctx, req, res, upstreamRes, responseHeaders, target);
  const response = { status: upstreamRes.statusCode, headers: responseHeaders, body: answer.body, cut: answer.cut };
  const finished = performance.now();
  const failure = answer.failure;
  // After the answer has gone: storing never delays the client.
  setImmediate(() => store(ctx, { at, started, finished, method, target, requestHeaders, body, response, failure }));
}
