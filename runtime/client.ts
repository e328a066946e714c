/**
 * `ServiceClient`: calls any operation of a descriptor over one binding, on a keep-alive undici
 * Pool per client (or a proxy agent, or the caller's own dispatcher: network/). Faults reject
 * with `SoapFaultError`, transport failures with `TransportError`, values the contract cannot
 * carry with `CodecError` (before anything is sent).
 */
import type { BindingDescriptor, OperationDescriptor, Protocol, ServiceDescriptor } from './descriptor.js';
import { CodecError, SoapFaultError, TransportError } from './errors.js';
import {
  compileHttpBinding,
  decodeHttpResponse,
  isUnusable,
  type HttpOperation,
  type UnusableHttpOperation,
} from './http/binding.js';
import { buildGetRequest } from './http/get.js';
import { buildPostRequest } from './http/post.js';
import { buildSoapRequest, readSoapResponse } from './soap/client.js';
import { soap11 } from './soap-version/soap11.js';
import { soap12 } from './soap-version/soap12.js';
import { resolveNetwork, type ClientNetwork } from './network/resolve.js';
import type { NetworkOptions } from './network/types.js';
import { send } from './transport.js';
import type { WireRequest } from './wire.js';
import { clientUsernameToken } from './wsse/header.js';
import type { UsernameTokenOptions } from './wsse/types.js';

/**
 * How a client reaches the service. `B` is the bindings it may choose from: a generated client
 * narrows it to the bindings its WSDL has, so asking for another one does not compile.
 */
export interface ClientOptions<B extends Protocol = Protocol> extends NetworkOptions {
  /** The port address, e.g. `http://host:8080/serviceapi.asmx` (default: the binding's address in the WSDL). */
  url?: string;
  /** The binding to call over; required, as each binding puts different bytes on the wire. */
  binding: B;
  /** Whole-call time limit (default 30 s). */
  timeoutMs?: number;
  /**
   * Extra HTTP headers on every request (a call's own `headers` are merged over them). An
   * `Authorization` here conflicts with `auth` and is refused.
   */
  headers?: Record<string, string>;
  /** Largest accepted response body (default 16 MiB). */
  maxResponseBytes?: number;
  /** Keep-alive connections to the origin (default 32; not with `dispatcher`). */
  connections?: number;
  /**
   * A WS-Security UsernameToken in the `wsse:Security` header of every request (SOAP bindings
   * only: HTTP GET/POST have no SOAP header, so giving it there is refused).
   */
  wsse?: UsernameTokenOptions;
}

export interface CallOptions<InHeaders extends object = Record<string, unknown>> {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
  /**
   * SOAP header blocks by the operation's input header property names. SOAP bindings only:
   * HTTP GET/POST cannot carry them, and giving any there is an error rather than a silent loss.
   */
  soapHeaders?: InHeaders;
  /** Header blocks (of `soapHeaders`) to mark `soap:mustUnderstand` ("1" in SOAP 1.1, "true" in 1.2). */
  mustUnderstand?: readonly (keyof InHeaders & string)[];
}

/**
 * What `call` and `callWithHeaders` accept: CallOptions for any header type (generated clients
 * narrow it per operation; `CallOptions<AuthIn>` is assignable to this, not to `CallOptions`).
 */
export type AnyCallOptions = Omit<CallOptions, 'soapHeaders' | 'mustUnderstand'> & {
  soapHeaders?: object;
  mustUnderstand?: readonly string[];
};

/** A call's output with the response's declared SOAP header blocks, by property name. */
export interface CallResult<O, OutHeaders extends object = Record<string, unknown>> {
  output: O;
  /**
   * The declared output header blocks the response carries ({} over HTTP GET/POST): a block
   * may be absent (ASMX writes none for a null header), so OutHeaders' properties are optional.
   */
  soapHeaders: OutHeaders;
}

interface PreparedOperation {
  readonly op: OperationDescriptor;
  readonly http: HttpOperation | undefined;
}

const CLIENT_OPTIONS = new Set([
  'url',
  'binding',
  'timeoutMs',
  'headers',
  'maxResponseBytes',
  'connections',
  'tls',
  'proxy',
  'auth',
  'dispatcher',
  'wsse',
]);
const PROTOCOLS = new Set<Protocol>(['soap11', 'soap12', 'http-get', 'http-post']);

export class ServiceClient {
  readonly binding: Protocol;
  private readonly descriptor: ServiceDescriptor;
  private readonly network: ClientNetwork;
  private readonly origin: string;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Record<string, string>;
  private readonly wsse: UsernameTokenOptions | undefined;
  private readonly operations = new Map<string, PreparedOperation>();
  /** Operations of the service this binding cannot carry, with the error a call gets. */
  private readonly unusable = new Map<string, UnusableHttpOperation>();

  constructor(descriptor: ServiceDescriptor, options: ClientOptions) {
    for (const key of Object.keys(options))
      if (!CLIENT_OPTIONS.has(key)) throw new TypeError(`Unknown client option: ${key}`);
    if (!PROTOCOLS.has(options.binding))
      throw new TypeError(`Unknown binding "${String(options.binding)}": use soap11, soap12, http-get or http-post`);
    const binding = descriptor.bindings.find((b) => b.protocol === options.binding);
    if (binding === undefined) throw new TypeError(`${descriptor.name} has no ${options.binding} binding`);
    const url = clientUrl(descriptor, binding, options.url);
    this.descriptor = descriptor;
    this.binding = options.binding;
    this.path = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.origin = url.origin;
    this.wsse = clientUsernameToken(options.wsse, options.binding);
    this.network = resolveNetwork(url, {
      ...options,
      timeoutMs: this.timeoutMs,
      secrets: this.wsse === undefined ? [] : [this.wsse.password],
    });
    // `auth` goes under the client's headers; a call's own headers may still replace it.
    this.headers =
      this.network.authorization === undefined
        ? { ...options.headers }
        : { authorization: this.network.authorization, ...options.headers };
    this.prepare(binding);
  }

  private prepare(binding: BindingDescriptor): void {
    if (binding.protocol === 'http-get' || binding.protocol === 'http-post') {
      for (const [method, compiled] of compileHttpBinding(this.descriptor, binding)) {
        if (isUnusable(compiled)) this.unusable.set(method, compiled);
        else this.operations.set(method, { op: compiled.op, http: compiled });
      }
      return;
    }
    for (const op of binding.operations) this.operations.set(op.method, { op, http: undefined });
    for (const omitted of binding.omitted ?? []) {
      const error = new CodecError(
        'CODEC_UNSUPPORTED',
        omitted.name,
        `the operation ${omitted.name} cannot be called over ${binding.protocol} (binding ${binding.name}): ${omitted.reason}`,
      );
      this.unusable.set(omitted.method, { name: omitted.name, method: omitted.method, error });
    }
  }

  /** Calls the operation whose method name is `method` (OperationDescriptor.method); resolves to its output. */
  async call<I, O>(method: string, input: I, options: AnyCallOptions = {}): Promise<O> {
    return (await this.exchange(method, input, options, false)).output as O;
  }

  /**
   * Like `call`, and also resolves to the response's declared output SOAP header blocks.
   * Undeclared blocks are ignored, unless marked mustUnderstand for this node: then the call
   * fails (TransportError BAD_RESPONSE), as SOAP requires of any receiver.
   */
  async callWithHeaders<I, O, OutHeaders extends object = Record<string, unknown>>(
    method: string,
    input: I,
    options: AnyCallOptions = {},
  ): Promise<CallResult<O, OutHeaders>> {
    const { output, soapHeaders } = await this.exchange(method, input, options, true);
    return { output: output as O, soapHeaders: soapHeaders as OutHeaders };
  }

  private async exchange(
    method: string,
    input: unknown,
    options: AnyCallOptions,
    withHeaders: boolean,
  ): Promise<{ output: unknown; soapHeaders: Record<string, unknown> }> {
    const prepared = this.prepared(method);
    const request = this.prepareRequest(prepared, input, options);
    try {
      return await this.sendAndRead(prepared, request, options, withHeaders);
    } catch (error) {
      if (error instanceof TransportError) throw this.network.explain(error);
      if (error instanceof SoapFaultError) throw this.network.explainFault(error);
      throw error;
    }
  }

  private async sendAndRead(
    prepared: PreparedOperation,
    request: WireRequest,
    options: AnyCallOptions,
    withHeaders: boolean,
  ): Promise<{ output: unknown; soapHeaders: Record<string, unknown> }> {
    const response = await send(this.network.dispatcher, request, {
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      signal: options.signal,
      origin: this.origin,
      wholeCallTimer: this.network.proxied,
    });
    if (prepared.http !== undefined)
      return {
        output: decodeHttpResponse(
          this.descriptor,
          prepared.http,
          this.binding,
          response.status,
          response.headers,
          response.body,
        ),
        soapHeaders: {},
      };
    const version = this.binding === 'soap12' ? soap12 : soap11;
    const contentType = response.headers['content-type'];
    return readSoapResponse(
      this.descriptor,
      version,
      prepared.op,
      response.status,
      typeof contentType === 'string' ? contentType : '',
      response.body,
      withHeaders,
    );
  }

  /** The request a call would send, without sending it (for the conformance runner and tests). */
  buildRequest(method: string, input: unknown, options: AnyCallOptions = {}): WireRequest {
    return this.prepareRequest(this.prepared(method), input, options);
  }

  private prepared(method: string): PreparedOperation {
    const prepared = this.operations.get(method);
    if (prepared !== undefined) return prepared;
    const unusable = this.unusable.get(method);
    if (unusable !== undefined) throw unusable.error;
    const elsewhere = this.descriptor.bindings
      .filter((b) => b.operations.some((o) => o.method === method))
      .map((b) => b.protocol);
    if (elsewhere.length > 0) {
      // The WSDL leaves it out of this binding (ASMX does so for complex parameters on HTTP).
      throw new CodecError(
        'CODEC_UNSUPPORTED',
        method,
        `${this.descriptor.name} offers ${method} on ${elsewhere.join(', ')}, not on ${this.binding}`,
      );
    }
    throw new TypeError(`${this.descriptor.name} has no operation method "${method}" on ${this.binding}`);
  }

  private prepareRequest(prepared: PreparedOperation, input: unknown, options: AnyCallOptions): WireRequest {
    const headers = options.headers === undefined ? this.headers : mergeHeaders(this.headers, options.headers);
    if (prepared.http !== undefined) {
      checkNoSoapHeaders(prepared.op, this.binding, options);
      return this.binding === 'http-get'
        ? buildGetRequest(this.path, prepared.http, input, headers)
        : buildPostRequest(this.path, prepared.http, input, headers);
    }
    const version = this.binding === 'soap12' ? soap12 : soap11;
    return buildSoapRequest(
      this.descriptor,
      version,
      this.path === '' ? '/' : this.path,
      prepared.op,
      input,
      options.soapHeaders,
      headers,
      options.mustUnderstand,
      this.wsse,
    );
  }

  /** Closes the client's own connections; a dispatcher passed in options stays open (its owner closes it). */
  async close(): Promise<void> {
    if (this.network.ownsDispatcher) await this.network.dispatcher.close();
  }
}

/**
 * A call's headers over the client's, by name in any case: a call's `Authorization` replaces
 * the one from `auth` (HTTP names are case-insensitive; two spellings would send both).
 */
function mergeHeaders(base: Record<string, string>, call: Record<string, string>): Record<string, string> {
  const replaced = new Set(Object.keys(call).map((name) => name.toLowerCase()));
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (!replaced.has(name.toLowerCase())) merged[name] = value;
  return Object.assign(merged, call);
}

/** `options.url`, else the address the WSDL gives the binding's port; either must be an http(s) URL. */
function clientUrl(descriptor: ServiceDescriptor, binding: BindingDescriptor, given: string | undefined): URL {
  if (given === undefined && binding.address === undefined) {
    throw new TypeError(
      `${descriptor.name}: the WSDL gives no address for binding ${binding.name} (${binding.protocol}): pass options.url`,
    );
  }
  let url: URL;
  try {
    url = new URL(given ?? binding.address!);
  } catch {
    throw new TypeError(
      given === undefined
        ? `${descriptor.name}: the WSDL's address for binding ${binding.name} is not a URL (${binding.address}): pass options.url`
        : // A URL with user:password@ is shown without that part, or not at all.
          `options.url is not a URL${given.includes('@') ? '' : `: ${given}`}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`Unsupported URL scheme: ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new TypeError('options.url carries user:password@: pass the credentials as options.auth instead');
  return url;
}

/** HTTP GET/POST have no SOAP headers: a caller's header blocks would be lost, so they are refused. */
function checkNoSoapHeaders(op: OperationDescriptor, binding: Protocol, options: AnyCallOptions): void {
  const given =
    options.soapHeaders === undefined ? [] : Object.entries(options.soapHeaders).filter(([, v]) => v !== undefined);
  if (given.length !== 0 || (options.mustUnderstand !== undefined && options.mustUnderstand.length !== 0)) {
    throw new CodecError(
      'CODEC_UNSUPPORTED',
      op.name,
      `SOAP headers cannot be sent over ${binding} (${given.map(([k]) => k).join(', ') || 'mustUnderstand'} given for ${op.name}): use a SOAP binding`,
    );
  }
}
