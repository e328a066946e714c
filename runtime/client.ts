/**
 * `ServiceClient`: calls any operation of a descriptor over one binding, on a keep-alive undici
 * Pool per client. Faults reject with `SoapFaultError`, transport failures with
 * `TransportError`, values the contract cannot carry with `CodecError` (before anything is sent).
 */
import { Pool } from 'undici';
import type { BindingDescriptor, OperationDescriptor, Protocol, ServiceDescriptor } from './descriptor.js';
import { compileHttpOperation, decodeHttpResponse, soapWrappers, type HttpOperation } from './http-binding.js';
import { buildGetRequest } from './http-get.js';
import { buildPostRequest } from './http-post.js';
import { buildSoapRequest, parseSoapResponse } from './soap/client.js';
import { soap11 } from './soap11.js';
import { soap12 } from './soap12.js';
import { send } from './transport.js';
import type { WireRequest } from './wire.js';

export interface ClientOptions {
  /** The port address, e.g. `http://host:8080/serviceapi.asmx`. */
  url: string;
  binding: Protocol;
  /** Whole-call time limit (default 30 s). */
  timeoutMs?: number;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** Largest accepted response body (default 16 MiB). */
  maxResponseBytes?: number;
  /** Keep-alive connections to the origin (default 32). */
  connections?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** SOAP header blocks by the operation's header property names. */
  soapHeaders?: Record<string, unknown>;
}

interface PreparedOperation {
  readonly op: OperationDescriptor;
  readonly http: HttpOperation | undefined;
}

const CLIENT_OPTIONS = new Set(['url', 'binding', 'timeoutMs', 'headers', 'maxResponseBytes', 'connections']);
const PROTOCOLS = new Set<Protocol>(['soap11', 'soap12', 'http-get', 'http-post']);

export class ServiceClient {
  readonly binding: Protocol;
  private readonly descriptor: ServiceDescriptor;
  private readonly pool: Pool;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Record<string, string>;
  private readonly operations = new Map<string, PreparedOperation>();

  constructor(descriptor: ServiceDescriptor, options: ClientOptions) {
    for (const key of Object.keys(options)) if (!CLIENT_OPTIONS.has(key)) throw new TypeError(`Unknown client option: ${key}`);
    if (!PROTOCOLS.has(options.binding)) throw new TypeError(`Unknown binding "${String(options.binding)}": use soap11, soap12, http-get or http-post`);
    const binding = descriptor.bindings.find((b) => b.protocol === options.binding);
    if (binding === undefined) throw new TypeError(`${descriptor.name} has no ${options.binding} binding`);
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`Unsupported URL scheme: ${url.protocol}`);
    this.descriptor = descriptor;
    this.binding = options.binding;
    this.path = url.pathname.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxResponseBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
    this.headers = { ...options.headers };
    this.pool = new Pool(url.origin, { connections: options.connections ?? 32, keepAliveTimeout: 4_000, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    this.prepare(binding);
  }

  private prepare(binding: BindingDescriptor): void {
    const wrappers = soapWrappers(this.descriptor);
    for (const op of binding.operations) {
      const http = binding.protocol === 'http-get' || binding.protocol === 'http-post' ? compileHttpOperation(this.descriptor, op, wrappers.get(op.method)) : undefined;
      this.operations.set(op.method, { op, http });
    }
  }

  /** Calls the operation whose method name is `method` (OperationDescriptor.method). */
  async call<I, O>(method: string, input: I, options: CallOptions = {}): Promise<O> {
    const prepared = this.operations.get(method);
    if (prepared === undefined) throw new TypeError(`${this.descriptor.name} has no operation method "${method}" on ${this.binding}`);
    const request = this.prepareRequest(prepared, input, options);
    const response = await send(this.pool, request, {
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      signal: options.signal,
    });
    if (prepared.http !== undefined) return decodeHttpResponse(this.descriptor, prepared.http, this.binding, response.status, response.headers, response.body) as O;
    const version = this.binding === 'soap12' ? soap12 : soap11;
    const contentType = response.headers['content-type'];
    return parseSoapResponse(this.descriptor, version, prepared.op, response.status, typeof contentType === 'string' ? contentType : '', response.body) as O;
  }

  /** The request a call would send, without sending it (for the conformance runner and tests). */
  buildRequest(method: string, input: unknown, options: CallOptions = {}): WireRequest {
    const prepared = this.operations.get(method);
    if (prepared === undefined) throw new TypeError(`${this.descriptor.name} has no operation method "${method}" on ${this.binding}`);
    return this.prepareRequest(prepared, input, options);
  }

  private prepareRequest(prepared: PreparedOperation, input: unknown, options: CallOptions): WireRequest {
    const headers = options.headers === undefined ? this.headers : { ...this.headers, ...options.headers };
    if (prepared.http !== undefined) {
      return this.binding === 'http-get' ? buildGetRequest(this.path, prepared.http, input, headers) : buildPostRequest(this.path, prepared.http, input, headers);
    }
    return buildSoapRequest(this.descriptor, this.binding === 'soap12' ? soap12 : soap11, this.path === '' ? '/' : this.path, prepared.op, input, options.soapHeaders, headers);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}
