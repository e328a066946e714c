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
  type HeaderList,
  RECORDING_FORMAT,
  RecordingWriter,
  type StoreLimits,
} from './recording.js';
import { decodedBody, IDENTITY_ONLY } from './content-coding.js';
import { HOP_BY_HOP, withoutHopFields } from './hop-by-hop.js';
import { type StoreContext, store } from './recorder-store.js';
import { Redactor, secretFieldsOfWsdl } from './redact.js';
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

/** What the recorder does not pass on, either way: besides the hop-by-hop fields, those it sets itself. */
const NOT_PASSED = new Set([
  ...HOP_BY_HOP,
  'proxy-authenticate',
  'host',
  // Node answers `Expect: 100-continue` itself (.NET clients send it); undici will not send it on.
  'expect',
]);
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

interface ExchangeContext extends StoreContext {
  readonly upstream: URL;
  readonly dispatcher: Dispatcher;
  readonly maxRequestBytes: number;
  /** How much of an answer is kept for the store (its body limit). */
  readonly keepBytes: number;
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

const isWsdlRequest = (target: string): boolean => /\?wsdl(?:&|=|$)/i.test(target);

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
    const code = (error as { code?: unknown }).code;
    res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`smskit record: the upstream did not answer (${typeof code === 'string' ? code : 'error'})\n`);
    store(ctx, { at, started, finished: performance.now(), method, target, requestHeaders, body, response: undefined });
    return;
  }
  const responseHeaders = headerPairs(rawResponseHeaders(upstreamRes.headers));
  const { body: kept, cut } = await forwardAnswer(ctx, req, res, upstreamRes, responseHeaders, target);
  const response = { status: upstreamRes.statusCode, headers: responseHeaders, body: kept, cut };
  const finished = performance.now();
  // After the answer has gone: storing never delays the client.
  setImmediate(() => store(ctx, { at, started, finished, method, target, requestHeaders, body, response }));
}

/**
 * Sends the upstream's answer to the client (a WSDL with the recorder's address in it, anything
 * else streamed as it comes) and returns what of it the store keeps. An upstream that fails
 * mid-body has the client's connection aborted, never ended (RFC 9112 §7.1: an incomplete
 * message must not be passed on as complete), and the answer is kept marked cut.
 */
async function forwardAnswer(
  ctx: ExchangeContext,
  req: IncomingMessage,
  res: ServerResponse,
  upstreamRes: Dispatcher.ResponseData,
  responseHeaders: HeaderList,
  target: string,
): Promise<{ body: Buffer; cut: boolean }> {
  const passed = withoutHopFields(responseHeaders, NOT_PASSED);
  const collected: Buffer[] = [];
  if (isWsdlRequest(target) && upstreamRes.statusCode === 200) {
    const coded = Buffer.from(await upstreamRes.body.arrayBuffer());
    collected.push(coded);
    // Compressed though identity was asked for: decoded before the rewrite, sent uncoded.
    const decoded = decodedBody(passed, coded);
    if (decoded === undefined) {
      res.writeHead(upstreamRes.statusCode, passed.flat());
      res.end(coded);
      return { body: coded, cut: false };
    }
    const wsdl = decoded.body;
    ctx.redactor.learn(secretFieldsOfWsdl(wsdl.toString('utf8')));
    const rewritten = Buffer.from(
      wsdl
        .toString('utf8')
        .split(`${ctx.upstream.origin}/`)
        .join(`http://${req.headers.host ?? ctx.upstream.host}/`),
    );
    const headers = decoded.headers.filter(([n]) => n.toLowerCase() !== 'content-length');
    res.writeHead(upstreamRes.statusCode, [...headers, ['Content-Length', String(rewritten.length)]].flat());
    res.end(rewritten);
  } else {
    res.writeHead(upstreamRes.statusCode, passed.flat());
    // Keep one byte past what will be stored, so the store knows to mark it cut; forward it all.
    let kept = 0;
    try {
      for await (const chunk of upstreamRes.body) {
        const bytes = chunk as Buffer;
        if (kept <= ctx.keepBytes) {
          collected.push(bytes.subarray(0, ctx.keepBytes + 1 - kept));
          kept += bytes.length;
        }
        res.write(bytes);
      }
    } catch (error) {
      ctx.onWarning(`record: the upstream's answer to ${target} broke off: ${(error as Error).message}`);
      res.destroy();
      return { body: Buffer.concat(collected), cut: true };
    }
    res.end();
  }
  return { body: Buffer.concat(collected), cut: false };
}

function rawResponseHeaders(headers: Record<string, string | string[] | undefined>): string[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((v) => [name, v]),
  );
}
