/**
 * Runs real exchanges between peers built from two versions of a WSDL, with the runtime the
 * generated code uses: `ServiceClient` and `createRequestListener` over the descriptors
 * `toDescriptor` builds (exactly what generated `descriptor.ts` embeds).
 *
 * A server per version serves every service of it on one port, each at its port address; its
 * handlers record what they receive and answer a sample of their own output. A call works when
 * it succeeds and everything the receiver reads is what the sender wrote (numbers compared as
 * numbers, a single value and a one-item array alike; members the receiver does not declare
 * are not compared). A call is only meaningful when the same call works between peers of the
 * same version (the baseline): a profile that fails there is skipped for that operation.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationDescriptor, Protocol, ServiceDescriptor } from '../../../runtime/descriptor.js';
import {
  ServiceClient,
  addressPath,
  createRequestListener,
  listen,
  type Listening,
  type OperationHandler,
  type RequestContext,
} from '../../../runtime/index.js';
import type { XmlElement } from '../../../runtime/xml/types.js';
import { Sampler, type Distinct, type Profile } from './samples.js';

export interface Version {
  readonly services: readonly ServiceDescriptor[];
  readonly distinct: Distinct;
}

interface Received {
  input?: unknown;
  headers?: Record<string, unknown>;
  output?: unknown;
  outputHeaders?: Record<string, unknown>;
}

export interface RunningVersion {
  readonly version: Version;
  readonly url: string;
  readonly last: Received;
  /** Clients calling this server, kept for the pair's later calls: by client descriptor, then binding, address and profile. */
  readonly clients: Map<ServiceDescriptor, Map<string, ServiceClient>>;
  close(): Promise<void>;
}

const PROFILE_HEADER = 'x-diff-profile';

/** Starts one server holding every service of a version. */
export async function startVersion(version: Version): Promise<RunningVersion> {
  const last: Received = {};
  const listeners = version.services.map((d) => ({
    d,
    listener: createRequestListener(d, handlers(d, version.distinct, last), { logger: { error: () => {} } }),
    paths: addressPaths(d),
  }));
  const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0]!.toLowerCase();
    const target = listeners.find((l) => l.paths.some((p) => path === p || path.startsWith(`${p}/`)));
    if (target === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.');
      return;
    }
    target.listener(req, res);
  };
  const listening: Listening = await listen(dispatch);
  const clients = new Map<ServiceDescriptor, Map<string, ServiceClient>>();
  const close = async (): Promise<void> => {
    await Promise.all([...clients.values()].flatMap((byKey) => [...byKey.values()].map((c) => c.close())));
    await listening.close();
  };
  return { version, url: listening.url, last, clients, close };
}

function addressPaths(d: ServiceDescriptor): string[] {
  return d.bindings.flatMap((b) => (b.address === undefined ? [] : [addressPath(b.address).toLowerCase() || '/']));
}

function profileOf(context: RequestContext): Profile {
  const value = context.headers[PROFILE_HEADER];
  return (typeof value === 'string' ? value : 'full') as Profile;
}

function handlers(d: ServiceDescriptor, distinct: Distinct, last: Received): Record<string, OperationHandler> {
  const out: Record<string, OperationHandler> = {};
  for (const binding of d.bindings) {
    for (const op of binding.operations) {
      if (out[op.method] !== undefined) continue;
      const soap = soapOperation(d, op.method) ?? op;
      out[op.method] = (input: unknown, context: RequestContext) => {
        const sampler = new Sampler(d, profileOf(context), distinct);
        last.input = input;
        last.headers = context.soapHeaders as Record<string, unknown>;
        for (const h of soap.outputHeaders)
          (context.responseSoapHeaders as Record<string, unknown>)[h.prop] = sampler.value(
            d.elements[h.element]!.value,
          );
        const output = outputSample(d, soap, op, sampler);
        last.output = output;
        last.outputHeaders = { ...(context.responseSoapHeaders as Record<string, unknown>) };
        return output;
      };
    }
  }
  return out;
}

function soapOperation(d: ServiceDescriptor, method: string): OperationDescriptor | undefined {
  for (const b of d.bindings) {
    if (b.protocol !== 'soap11' && b.protocol !== 'soap12') continue;
    const op = b.operations.find((o) => o.method === method);
    if (op !== undefined) return op;
  }
  return undefined;
}

function outputSample(
  d: ServiceDescriptor,
  soap: OperationDescriptor,
  op: OperationDescriptor,
  sampler: Sampler,
): unknown {
  if (soap.output.kind === 'element') return sampler.value(d.elements[soap.output.element]!.value);
  if (op.output.kind === 'xml-result')
    return { [op.output.field]: sampler.value(d.elements[op.output.element]!.value) };
  return undefined;
}

/** The method's input: the SOAP wrapper's members, and over HTTP any parameter the wrapper lacks (under its own name). */
function inputSample(d: ServiceDescriptor, op: OperationDescriptor, sampler: Sampler): unknown {
  const soap = soapOperation(d, op.method) ?? op;
  const wrapper =
    soap.input.kind === 'element'
      ? (sampler.value(d.elements[soap.input.element]!.value) as Record<string, unknown>)
      : undefined;
  if (op.input.kind !== 'params') return wrapper;
  const wrapperType = soap.input.kind === 'element' ? d.elements[soap.input.element]!.value : undefined;
  const type = wrapperType?.kind === 'type' ? d.types[wrapperType.type] : undefined;
  const known = new Set(type?.kind === 'complex' ? type.fields.map((f) => f.name.local) : []);
  const extra = op.input.params.filter((p) => !known.has(p.name)).map((p) => [p.name, sampler.value(p.value)] as const);
  return { ...wrapper, ...Object.fromEntries(extra) };
}

export interface Outcome {
  readonly works: boolean;
  readonly detail: string;
}

/** One call of `op` (an operation of `client`'s version) over `protocol`, to the server `server`. */
export async function exchange(
  client: Version,
  d: ServiceDescriptor,
  protocol: Protocol,
  op: OperationDescriptor,
  server: RunningVersion,
  profile: Profile,
): Promise<Outcome> {
  const binding = d.bindings.find((b) => b.protocol === protocol)!;
  const sampler = new Sampler(d, profile, client.distinct);
  const input = inputSample(d, op, sampler);
  const soap = protocol === 'soap11' || protocol === 'soap12';
  const soapHeaders = soap
    ? Object.fromEntries(op.inputHeaders.map((h) => [h.prop, sampler.value(d.elements[h.element]!.value)]))
    : {};
  const mustUnderstand = profile === 'must-understand' ? op.inputHeaders.map((h) => h.prop) : [];
  const call = clientFor(server, d, protocol, binding.address, profile);
  for (const key of Object.keys(server.last)) delete server.last[key as keyof Received];
  try {
    const options = soap && op.inputHeaders.length > 0 ? { soapHeaders, mustUnderstand } : {};
    const result = await call.callWithHeaders<unknown, unknown>(op.method, input, options);
    const mismatches = [
      ...arrives('request', input, server.last.input),
      ...(soap ? arrives('request headers', soapHeaders, server.last.headers ?? {}) : []),
      ...arrives('response', server.last.output, result.output),
      ...(soap ? arrives('response headers', server.last.outputHeaders ?? {}, result.soapHeaders) : []),
    ];
    return mismatches.length === 0 ? { works: true, detail: 'ok' } : { works: false, detail: mismatches.join('; ') };
  } catch (error) {
    return { works: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** One client per (descriptor, binding, address, profile) and server, as an application keeps one: its connections are reused. */
function clientFor(
  server: RunningVersion,
  d: ServiceDescriptor,
  protocol: Protocol,
  address: string | undefined,
  profile: Profile,
): ServiceClient {
  let byKey = server.clients.get(d);
  if (byKey === undefined) server.clients.set(d, (byKey = new Map()));
  const key = `${protocol} ${address ?? ''} ${profile}`;
  let client = byKey.get(key);
  if (client === undefined) {
    client = new ServiceClient(d, {
      url: `${server.url}${addressPath(address ?? 'http://localhost/')}`,
      binding: protocol,
      timeoutMs: 5000,
      headers: { [PROFILE_HEADER]: profile },
    });
    byKey.set(key, client);
  }
  return client;
}

/** What the receiver read differs from what the sender wrote, on the members the receiver declares. */
export function arrives(where: string, sent: unknown, received: unknown): string[] {
  const out: string[] = [];
  compare(where, sent, received, out);
  return out;
}

function compare(path: string, sent: unknown, received: unknown, out: string[]): void {
  if (received === undefined) return;
  if (Array.isArray(received) || Array.isArray(sent)) {
    const s = Array.isArray(sent) ? sent : [sent];
    const r = Array.isArray(received) ? received : [received];
    if (s.length !== r.length) out.push(`${path}: ${s.length} value(s) sent, ${r.length} read`);
    else for (const [i, v] of s.entries()) compare(`${path}[${i}]`, v, r[i], out);
    return;
  }
  if (isRecord(received)) {
    if (!isRecord(sent)) {
      out.push(`${path}: ${show(sent)} sent, an object read`);
      return;
    }
    for (const [key, value] of Object.entries(received)) {
      if (key === '$type' && sent[key] === undefined) continue;
      if (sent[key] === undefined && value !== undefined) out.push(`${path}.${key}: nothing sent, ${show(value)} read`);
      else compare(`${path}.${key}`, sent[key], value, out);
    }
    return;
  }
  if (canonical(sent) !== canonical(received)) out.push(`${path}: ${show(sent)} sent, ${show(received)} read`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !isXml(v);
}

function isXml(v: unknown): v is XmlElement {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as { type?: unknown }).type === 'element' &&
    Array.isArray((v as { children?: unknown }).children)
  );
}

/** Values as the receiver means them: numbers and numeric text by value, text and booleans as text. */
function canonical(v: unknown): string {
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (isXml(v)) return `xml:${xmlText(v)}`;
  if (typeof v === 'bigint') return `number:${v}`;
  if (typeof v === 'number') return Number.isInteger(v) && Number.isFinite(v) ? `number:${BigInt(v)}` : `number:${v}`;
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v)) return `number:${BigInt(v)}`;
  if (typeof v === 'string' && /^[+-]?\d*\.\d+$/.test(v)) {
    const trimmed = v.replace(/0+$/, '').replace(/\.$/, '');
    return /^[+-]?\d+$/.test(trimmed) ? `number:${BigInt(trimmed)}` : `number:${Number(trimmed)}`;
  }
  return `text:${String(v)}`;
}

function xmlText(el: XmlElement): string {
  return `<${el.ns}|${el.local}>${el.children.map((c) => (c.type === 'text' ? c.text : xmlText(c))).join('')}`;
}

function show(v: unknown): string {
  return typeof v === 'bigint' ? `${v}n` : (JSON.stringify(v) ?? String(v));
}
