/**
 * The server: `createRequestListener(descriptor, handlers, options)` -> a node:http request
 * listener serving every binding of the descriptor at its port address.
 *
 * Status codes: 200 success; SOAP faults 500 in both versions (ASMX's convention, also for
 * SOAP 1.2 Sender faults); GET/POST errors 500 text/plain; 404 unknown path; 405 wrong method
 * (with Allow); 415 unsupported content type; 413 body over maxBodyBytes; 408 body too slow;
 * 400 invalid Content-Length; 403 HTTP GET/POST when `wsSecurity` requires a UsernameToken. See docs/runtime.md, "Errors the server answers".
 * GET on the service address: the help pages and `?disco` (server/help.ts), `?wsdl`.
 */
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { OperationDescriptor, Protocol, ServiceDescriptor } from './descriptor.js';
import { CodecError, ServiceError } from './errors.js';
import { isAcceptedCharset, parseContentType } from './content-type.js';
import { encodeHttpResponse, type HttpOperation } from './http/binding.js';
import type { ParamDecodeError } from './http/params.js';
import { decodeGetRequest } from './http/get.js';
import { decodePostRequest, FORM_CONTENT_TYPE } from './http/post.js';
import { encodeSoapResponse, SoapRequestDecoder, type SoapDecoded, type SoapRouted } from './soap/server.js';
import type { FaultSpec, SoapVersion } from './soap/version.js';
import { soap11 } from './soap/soap11.js';
import { soap12 } from './soap/soap12.js';
import { XmlReadError } from './xml/reader.js';
import type { XmlReadLimits } from './xml/types.js';
import { BodyReader, type BodyFailure } from './server/body.js';
import { compileRoutes, lookupRoute, operationMethods, type Route, type RouteTable } from './server/routes.js';
import { isWsdlQuery, requestOrigin, WsdlCache } from './server/wsdl.js';
import { answerHelp, compileHelp, helpPagesMode, type HelpPagesMode, type HelpSite } from './server/help.js';
import { writeSecurityFault } from './wsse/fault.js';
import type { VerifiedIdentity, WsSecurityOptions } from './wsse/types.js';
import { UsernameTokenVerifier } from './wsse/verify.js';

export interface RequestContext<InHeaders = Record<string, unknown>, OutHeaders = Record<string, unknown>> {
  readonly binding: Protocol;
  /** The operation's WSDL name. */
  readonly operation: string;
  readonly remoteAddress?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** Declared SOAP header blocks of the request, by property name ({} over HTTP GET/POST). */
  readonly soapHeaders: InHeaders;
  /**
   * SOAP header blocks for the response, by the operation's output header property names: the
   * handler sets them, the server writes the set ones in the response's Header. A property that
   * is not a declared output header is a handler bug (a Server fault, logged). HTTP GET/POST
   * have no headers: there they are checked the same way but not sent, as ASMX does.
   */
  readonly responseSoapHeaders: Partial<OutHeaders>;
  /**
   * Adds an HTTP header to the answer, on every binding: an out-of-band hint beside the contract
   * (e.g. the SMS service's `X-Smskit-Delivery`). Only `X-` extension names; the body's headers
   * (Content-Type, Content-Length) stay the server's.
   */
  setHttpHeader(name: string, value: string): void;
  /** Aborted when the client goes away before the response is sent. */
  readonly signal: AbortSignal;
  /**
   * Who the request's WS-Security UsernameToken proved the caller to be (`ServerOptions.wsSecurity`
   * verified it before the handler was called); undefined when the server checks no tokens, or
   * when the token is optional and the request had none.
   */
  readonly identity: VerifiedIdentity | undefined;
}

/**
 * A handler gets the decoded input and returns the output (or a promise of it). The input and
 * the context's header types are `any` here because generated code narrows them per operation
 * (`(input: SMSSend, context: RequestContext<AuthIn, TraceOut>) => ...`), which `unknown` would
 * not accept under strictFunctionTypes.
 */
// biome-ignore lint/suspicious/noExplicitAny: generated handlers narrow input and context per operation (see above)
export type OperationHandler = (input: any, context: RequestContext<any, any>) => unknown;

export interface Logger {
  /** One line about a failure the client only saw as a generic Server fault. Never request values. */
  error(message: string): void;
}

export interface ServerOptions {
  /** The WSDL text served at `{address}?wsdl` (addresses rewritten to the request's origin). */
  readonly wsdl?: string;
  /** Largest accepted request body (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Applied by `listen` to `server.headersTimeout` (default 10 s). */
  readonly headersTimeoutMs?: number;
  /** Applied by `listen` to `server.requestTimeout` (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Time allowed for the request body once the headers are in (default 10 s). */
  readonly bodyTimeoutMs?: number;
  readonly logger?: Logger;
  /** Serve every binding under this path instead of the port addresses' paths. */
  readonly basePath?: string;
  /** Honour X-Forwarded-Proto / X-Forwarded-Host for the ?wsdl addresses (only behind a trusted proxy). */
  readonly trustForwardedHeaders?: boolean;
  /** Limits for the XML reader (depth, attributes, elements); the reader's defaults otherwise. */
  readonly xmlLimits?: XmlReadLimits;
  /**
   * HTTP GET/POST parameters that are absent: 'refuse' (default, ASMX) answers every one with
   * `Missing parameter: x.`; 'pass' lets an absent parameter whose SOAP wrapper field is
   * optional reach the handler as undefined, as the absent element does over SOAP (required
   * ones are still refused), so a service can validate all four bindings the same way.
   */
  readonly httpMissingParameters?: 'refuse' | 'pass';
  /**
   * The help pages at the service address (`GET {path}`, `{path}?op=NAME`, with sample messages
   * and an HTTP POST test form): 'local-test-form' (default, as ASMX) shows the test form only to
   * requests from this machine, 'test-form' to every client, 'off' serves no pages.
   */
  readonly helpPages?: HelpPagesMode;
  /**
   * Verify a WS-Security UsernameToken (WSS UsernameToken Profile) on every SOAP request before
   * its handler runs; the handler gets the identity as `context.identity`. A failure is a SOAP
   * fault with a WSS fault code (wsse:FailedAuthentication...), and the handler is not called.
   * docs/ws-security.md.
   */
  readonly wsSecurity?: WsSecurityOptions;
}

const OPTION_NAMES = new Set([
  'wsdl',
  'maxBodyBytes',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'bodyTimeoutMs',
  'logger',
  'basePath',
  'trustForwardedHeaders',
  'xmlLimits',
  'httpMissingParameters',
  'helpPages',
  'wsSecurity',
]);

interface Plan {
  readonly d: ServiceDescriptor;
  readonly routes: RouteTable;
  readonly handlers: ReadonlyMap<string, OperationHandler>;
  readonly wsdl: WsdlCache | undefined;
  readonly bodies: BodyReader;
  readonly logger: Logger;
  readonly trustForwarded: boolean;
  /** Reads and decodes SOAP requests (shape cache and decode plans: soap/server.ts). */
  readonly soapRequests: SoapRequestDecoder;
  readonly passAbsentOptional: boolean;
  /** Help pages and DISCO; undefined when neither is served. */
  readonly help: HelpSite | undefined;
  /** The UsernameToken check; undefined when the server checks none. */
  readonly wsSecurity: UsernameTokenVerifier | undefined;
}

/** Marks the listener with its options, so `listen` can apply the server-level timeouts. */
export const LISTENER_OPTIONS = Symbol.for('smskit.listenerOptions');

export type SmskitRequestListener = RequestListener & { [LISTENER_OPTIONS]: ServerOptions; close(): void };

const stderrLogger: Logger = { error: (message) => process.stderr.write(`smskit: ${message}\n`) };

export function createRequestListener(
  descriptor: ServiceDescriptor,
  handlers: Record<string, OperationHandler>,
  options: ServerOptions = {},
): SmskitRequestListener {
  const plan = compilePlan(descriptor, handlers, options);
  const listener = ((req: IncomingMessage, res: ServerResponse) =>
    handleRequest(plan, req, res)) as SmskitRequestListener;
  listener[LISTENER_OPTIONS] = options;
  listener.close = () => {}; // nothing to release today; kept so callers can treat listeners uniformly
  return listener;
}

function compilePlan(d: ServiceDescriptor, handlers: Record<string, OperationHandler>, options: ServerOptions): Plan {
  for (const key of Object.keys(options))
    if (!OPTION_NAMES.has(key)) throw new TypeError(`Unknown server option: ${key}`);
  const logger = options.logger ?? stderrLogger;
  const positive = (name: string, value: number | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value <= 0) throw new TypeError(`Server option ${name} must be a positive number`);
    return value;
  };
  const byMethod = new Map<string, OperationHandler>();
  for (const method of operationMethods(d)) {
    const handler = handlers[method];
    if (typeof handler !== 'function') throw new TypeError(`No handler for the operation method "${method}"`);
    byMethod.set(method, handler);
  }
  for (const method of Object.keys(handlers))
    if (!byMethod.has(method)) throw new TypeError(`Handler "${method}" matches no operation of ${d.name}`);
  return {
    d,
    routes: compileRoutes(d, options.basePath),
    handlers: byMethod,
    wsdl: options.wsdl === undefined ? undefined : new WsdlCache(options.wsdl),
    bodies: new BodyReader({
      maxBytes: positive('maxBodyBytes', options.maxBodyBytes, 4 * 1024 * 1024),
      timeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs, 10_000),
    }),
    logger,
    trustForwarded: options.trustForwardedHeaders === true,
    soapRequests: new SoapRequestDecoder(d, options.xmlLimits, options.wsSecurity !== undefined),
    passAbsentOptional: missingParameters(options.httpMissingParameters) === 'pass',
    help: compileHelp(d, helpPagesMode(options.helpPages), options.basePath, options.wsdl),
    wsSecurity:
      options.wsSecurity === undefined
        ? undefined
        : new UsernameTokenVerifier(options.wsSecurity, (line) => logger.error(line)),
  };
}

function missingParameters(value: unknown): 'refuse' | 'pass' {
  if (value === undefined || value === 'refuse' || value === 'pass') return value ?? 'refuse';
  throw new TypeError(`Server option httpMissingParameters must be 'refuse' or 'pass'`);
}

function handleRequest(plan: Plan, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (
    req.method === 'GET' &&
    answerHelp(plan.help, req, res, {
      path,
      query: q < 0 ? '' : url.slice(q + 1),
      trustForwarded: plan.trustForwarded,
      logError: (m) => plan.logger.error(m),
    })
  )
    return;
  const route = lookupRoute(plan.routes, path);
  if (route === undefined) return writePlain(res, 404, 'Not found.');
  const method = req.method;
  if (method === 'POST') {
    const contentType = parseContentType(req.headers['content-type']);
    const soapVersion =
      contentType.mediaType === 'text/xml'
        ? soap11
        : contentType.mediaType === 'application/soap+xml'
          ? soap12
          : undefined;
    if (soapVersion !== undefined && (route.soap11 !== undefined || route.soap12 !== undefined)) {
      if (!isAcceptedCharset(contentType.charset))
        return writePlain(res, 415, `Unsupported charset: ${contentType.charset}. Use utf-8.`);
      return receive(
        req,
        plan,
        (body) => serveSoap(plan, route, soapVersion, req, res, contentType, body),
        (f) => writeBodyFailure(res, f),
      );
    }
    if (route.post !== undefined && contentType.mediaType === FORM_CONTENT_TYPE) {
      const hop = route.post;
      return receive(
        req,
        plan,
        (body) => serveHttp(plan, hop, 'http-post', req, res, decodePostRequest(hop, body, plan.passAbsentOptional)),
        (f) => writeBodyFailure(res, f),
      );
    }
    if (route.soap11 !== undefined || route.soap12 !== undefined || route.post !== undefined)
      return writeUnsupportedType(res, route, contentType.mediaType);
  } else if (method === 'GET') {
    if (
      plan.wsdl !== undefined &&
      q >= 0 &&
      (route.soap11 !== undefined || route.soap12 !== undefined) &&
      isWsdlQuery(url.slice(q + 1))
    ) {
      return writeWsdl(plan, req, res);
    }
    if (route.get !== undefined)
      return serveHttp(
        plan,
        route.get,
        'http-get',
        req,
        res,
        decodeGetRequest(route.get, q < 0 ? '' : url.slice(q + 1), plan.passAbsentOptional),
      );
  }
  return writeMethodNotAllowed(plan, req, res, route);
}

function receive(
  req: IncomingMessage,
  plan: Plan,
  onBody: (body: Buffer) => void,
  onFailure: (f: BodyFailure) => void,
): void {
  plan.bodies.read(req, onBody, onFailure);
}

// ---------------------------------------------------------------------------------------------
// SOAP

function serveSoap(
  plan: Plan,
  route: Route,
  hinted: SoapVersion,
  req: IncomingMessage,
  res: ServerResponse,
  contentType: ReturnType<typeof parseContentType>,
  body: Buffer,
): void {
  if (plan.wsSecurity !== undefined) {
    let routed: SoapRouted;
    try {
      routed = plan.soapRequests.route(route, hinted, req.headers, contentType, body);
    } catch (err) {
      return writeFault(res, hinted, requestFault(plan, err, 'SOAP request'));
    }
    if (!routed.ok) return writeFault(res, routed.version, routed.fault);
    return verifyThenAnswer(plan, plan.wsSecurity, routed, req, res);
  }
  let decoded: ReturnType<typeof plan.soapRequests.decode>;
  try {
    decoded = plan.soapRequests.decode(route, hinted, req.headers, contentType, body);
  } catch (err) {
    return writeFault(res, hinted, requestFault(plan, err, 'SOAP request'));
  }
  if (!decoded.ok) return writeFault(res, decoded.version, decoded.fault);
  answerSoap(plan, decoded, req, res, undefined);
}

/** The UsernameToken check first, then the Body is decoded; the handler runs only when both pass. */
function verifyThenAnswer(
  plan: Plan,
  verifier: UsernameTokenVerifier,
  routed: Extract<SoapRouted, { ok: true }>,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const { version, op } = routed;
  verifier.verify(routed.securityHeaders ?? []).then(
    (outcome) => {
      if (res.destroyed) return;
      if (!outcome.ok) {
        // The fault says which WSS check failed, never with what.
        writeText(res, 500, version.contentType, writeSecurityFault(version, outcome.fault));
        return;
      }
      let decoded: Extract<SoapDecoded, { ok: true }>;
      try {
        decoded = routed.decodeInput();
      } catch (err) {
        return writeFault(res, version, requestFault(plan, err, 'SOAP request'));
      }
      answerSoap(plan, decoded, req, res, outcome.identity);
    },
    (err: unknown) => {
      writeFault(res, version, internalFault(plan, err, op, version.protocol, 'wsSecurity.passwordOf'));
    },
  );
}

/** Calls the handler of a decoded (and, with wsSecurity, verified) SOAP request and writes its answer. */
function answerSoap(
  plan: Plan,
  decoded: Extract<SoapDecoded, { ok: true }>,
  req: IncomingMessage,
  res: ServerResponse,
  identity: VerifiedIdentity | undefined,
): void {
  const { version, op } = decoded;
  invoke(
    plan,
    op,
    version.protocol,
    decoded.input,
    decoded.soapHeaders,
    identity,
    req,
    res,
    (output, responseHeaders) => {
      let xml: string;
      try {
        xml = encodeSoapResponse(plan.d, version, op, output, responseHeaders, decoded.mustUnderstand);
      } catch (err) {
        return writeFault(res, version, internalFault(plan, err, op, version.protocol, 'encoding the response'));
      }
      writeText(res, 200, version.contentType, xml);
    },
    (fault) => writeFault(res, version, fault),
  );
}

/** The fault for a request that could not be read or decoded (the client's mistake). */
function requestFault(plan: Plan, err: unknown, what: string): FaultSpec {
  if (err instanceof XmlReadError) {
    const why =
      err.code === 'XML_DOCTYPE'
        ? 'a DOCTYPE is not allowed'
        : err.code === 'XML_LIMIT'
          ? 'the document exceeds a size or nesting limit'
          : err.code === 'XML_ENCODING'
            ? 'unsupported encoding'
            : 'the XML is not well-formed';
    return {
      kind: 'client',
      message: `Server was unable to read the request: ${why} (line ${err.line}, column ${err.column}).`,
    };
  }
  if (err instanceof CodecError)
    return { kind: 'client', message: `Server was unable to read the request: ${err.message}.` };
  plan.logger.error(`unexpected error reading a ${what}: ${describeError(err)}`);
  return { kind: 'server', message: 'Server was unable to process request.' };
}

function internalFault(plan: Plan, err: unknown, op: OperationDescriptor, binding: Protocol, what: string): FaultSpec {
  plan.logger.error(`${op.name} (${binding}): ${what} failed: ${describeError(err)}`);
  return { kind: 'server', message: 'Server was unable to process request.' };
}

/**
 * Class, code and where it was thrown — not the message: handler errors often quote request
 * values (a password in an SQL error, say), and the log must not carry them.
 */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `non-Error thrown (${typeof err})`;
  const code = (err as { code?: unknown }).code;
  const frame = err.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim();
  return `${err.name}${typeof code === 'string' ? ` [${code}]` : ''}${frame === undefined ? '' : ` ${frame}`}`;
}

function writeFault(res: ServerResponse, version: SoapVersion, fault: FaultSpec): void {
  let xml: string;
  try {
    xml = version.writeFault(fault);
  } catch {
    // The message itself cannot be written (a forbidden character in a ServiceError text).
    xml = version.writeFault({
      kind: fault.kind === 'client' ? 'client' : 'server',
      message: 'The fault message could not be encoded.',
    });
  }
  writeText(res, 500, version.contentType, xml);
}

// ---------------------------------------------------------------------------------------------
// HTTP GET / POST

function serveHttp(
  plan: Plan,
  hop: HttpOperation,
  binding: Protocol,
  req: IncomingMessage,
  res: ServerResponse,
  decoded: { input: Record<string, unknown> } | ParamDecodeError,
): void {
  // A UsernameToken travels in a SOAP header, which GET and POST do not have. 403, not 401: a
  // 401 must offer an HTTP authentication scheme (WWW-Authenticate), and none would help here.
  if (plan.wsSecurity?.required === true) {
    const method = binding === 'http-get' ? 'GET' : 'POST';
    const line = `${hop.op.name} requires a WS-Security UsernameToken, which HTTP ${method} cannot carry: call it over SOAP.`;
    writePlain(res, 403, line, 'Client');
    return;
  }
  if ('error' in decoded) return writePlain(res, 500, decoded.error, 'Client', decoded.code);
  invoke(
    plan,
    hop.op,
    binding,
    decoded.input,
    {},
    undefined,
    req,
    res,
    (output, responseHeaders) => {
      let xml: string;
      try {
        checkResponseHeaders(hop, responseHeaders);
        xml = encodeHttpResponse(plan.d, hop, output);
      } catch (err) {
        internalFault(plan, err, hop.op, binding, 'encoding the response');
        return writePlain(res, 500, 'Server was unable to process request.', 'Server');
      }
      // A void operation: ASMX answers 200 with an empty body and no Content-Type.
      if (hop.result === undefined) return writeEmpty(res);
      writeText(res, 200, 'text/xml; charset=utf-8', xml);
    },
    (fault) =>
      writePlain(res, 500, fault.message, fault.kind === 'client' ? 'Client' : 'Server', fault.detail?.entries.code),
  );
}

/**
 * HTTP GET/POST carry no SOAP headers, so the handler's are not sent (ASMX does the same); one
 * its operation does not declare (on its SOAP bindings) is still a handler bug.
 */
function checkResponseHeaders(hop: HttpOperation, headers: Record<string, unknown> | undefined): void {
  if (headers === undefined) return;
  for (const prop of Object.keys(headers)) {
    if (headers[prop] !== undefined && !hop.outputHeaderProps.has(prop)) {
      throw new CodecError('CODEC_UNEXPECTED', `Header/${prop}`, 'this operation declares no such output SOAP header');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Calling the handler

function invoke(
  plan: Plan,
  op: OperationDescriptor,
  binding: Protocol,
  input: unknown,
  soapHeaders: Record<string, unknown>,
  identity: VerifiedIdentity | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  onOutput: (output: unknown, responseHeaders: Record<string, unknown> | undefined) => void,
  onFault: (fault: FaultSpec) => void,
): void {
  const handler = plan.handlers.get(op.method)!;
  const context = new HandlerContext(binding, op.name, req, res, soapHeaders, identity);
  let result: unknown;
  try {
    result = handler(input, context);
  } catch (err) {
    return handlerFailed(plan, op, binding, res, onFault, err);
  }
  if (
    result instanceof Promise ||
    (typeof result === 'object' && result !== null && typeof (result as PromiseLike<unknown>).then === 'function')
  ) {
    Promise.resolve(result).then(
      (output) => {
        if (!res.destroyed) onOutput(output, context.setHeaders);
      },
      (err: unknown) => handlerFailed(plan, op, binding, res, onFault, err),
    );
  } else {
    onOutput(result, context.setHeaders);
  }
}

function handlerFailed(
  plan: Plan,
  op: OperationDescriptor,
  binding: Protocol,
  res: ServerResponse,
  onFault: (fault: FaultSpec) => void,
  err: unknown,
): void {
  if (res.destroyed) return;
  onFault(err instanceof ServiceError ? serviceFault(plan, err) : internalFault(plan, err, op, binding, 'the handler'));
}

function serviceFault(plan: Plan, err: ServiceError): FaultSpec {
  return {
    kind: 'client',
    message: err.message,
    detail: { ns: plan.d.targetNamespace, entries: { code: err.code, ...err.detail } },
  };
}

/** The handler's context; the AbortSignal is only built when a handler asks for it. */
class HandlerContext implements RequestContext {
  readonly remoteAddress: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** The response header object, made when a handler first asks for it (most never do). */
  setHeaders: Record<string, unknown> | undefined;
  private controller: AbortController | undefined;

  constructor(
    readonly binding: Protocol,
    readonly operation: string,
    req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly soapHeaders: Record<string, unknown>,
    readonly identity: VerifiedIdentity | undefined,
  ) {
    this.remoteAddress = req.socket.remoteAddress;
    this.headers = req.headers;
  }

  get responseSoapHeaders(): Record<string, unknown> {
    return (this.setHeaders ??= {});
  }

  setHttpHeader(name: string, value: string): void {
    if (!/^X-[A-Za-z0-9-]{1,60}$/.test(name) || !/^[\x20-\x7e]{0,200}$/.test(value))
      throw new TypeError(`setHttpHeader: "${name}" must be an X- header name with a printable ASCII value`);
    if (!this.res.headersSent) this.res.setHeader(name, value);
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = (this.controller = new AbortController());
      const res = this.res;
      if (res.destroyed) controller.abort();
      else
        res.once('close', () => {
          if (!res.writableFinished) controller.abort();
        });
    }
    return this.controller.signal;
  }
}

// ---------------------------------------------------------------------------------------------
// Plain responses

function writeText(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, ['Content-Type', contentType, 'Content-Length', String(Buffer.byteLength(text))]);
  res.end(text);
}

function writeEmpty(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, ['Content-Length', '0']);
  res.end();
}

/** A one-line text/plain answer; for GET/POST errors the fault family rides in a header. */
function writePlain(
  res: ServerResponse,
  status: number,
  message: string,
  faultCode?: string,
  errorCode?: string,
): void {
  if (res.headersSent || res.destroyed) return;
  const line = message.replace(/[\r\n]+/g, ' ');
  const headers = ['Content-Type', 'text/plain; charset=utf-8', 'Content-Length', String(Buffer.byteLength(line))];
  if (faultCode !== undefined) headers.push('X-Smskit-Fault-Code', faultCode);
  if (errorCode !== undefined && /^[\x21-\x7e]{1,100}$/.test(errorCode)) headers.push('X-Smskit-Error-Code', errorCode);
  res.writeHead(status, headers);
  res.end(line);
}

/** 408/413/400 while reading the body: answer, then close the connection (the rest is not read). */
function writeBodyFailure(res: ServerResponse, failure: BodyFailure): void {
  if (res.headersSent || res.destroyed) return;
  res.shouldKeepAlive = false;
  const line = failure.message;
  res.writeHead(failure.status, [
    'Content-Type',
    'text/plain; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(line)),
    'Connection',
    'close',
  ]);
  res.end(line, () => res.socket?.destroy());
}

function allowedMethods(plan: Plan, route: Route): string {
  const methods = new Set<string>();
  const soap = route.soap11 !== undefined || route.soap12 !== undefined;
  if (
    route.get !== undefined ||
    (soap && (plan.wsdl !== undefined || (plan.help !== undefined && plan.help.mode !== 'off')))
  )
    methods.add('GET');
  if (route.post !== undefined || route.soap11 !== undefined || route.soap12 !== undefined) methods.add('POST');
  return [...methods].join(', ');
}

function writeMethodNotAllowed(plan: Plan, req: IncomingMessage, res: ServerResponse, route: Route): void {
  const allow = allowedMethods(plan, route);
  // The method is allowed here, only not with this query (`?wsdl` on a server without a WSDL).
  if (req.method !== undefined && allow.split(', ').includes(req.method)) return writePlain(res, 404, 'Not found.');
  const line = `Method not allowed. Use ${allow}.`;
  res.writeHead(405, [
    'Content-Type',
    'text/plain; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(line)),
    'Allow',
    allow,
  ]);
  res.end(line);
}

function writeUnsupportedType(res: ServerResponse, route: Route, mediaType: string): void {
  const accepted: string[] = [];
  if (route.soap11 !== undefined) accepted.push('text/xml (SOAP 1.1)');
  if (route.soap12 !== undefined) accepted.push('application/soap+xml (SOAP 1.2)');
  if (route.post !== undefined) accepted.push(FORM_CONTENT_TYPE);
  const shown = mediaType === '' ? 'none' : mediaType.slice(0, 100);
  writePlain(res, 415, `Unsupported content type: ${shown}. Use ${accepted.join(' or ')}.`);
}

function writeWsdl(plan: Plan, req: IncomingMessage, res: ServerResponse): void {
  const doc = plan.wsdl!.get(requestOrigin(req, plan.trustForwarded));
  res.writeHead(200, ['Content-Type', 'text/xml; charset=utf-8', 'Content-Length', String(doc.length)]);
  res.end(doc);
}
