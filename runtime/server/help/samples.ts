/**
 * The sample request and response of one operation on one binding, as the wire carries them:
 * built by the same functions the client and the server use (buildSoapRequest,
 * encodeSoapResponse, buildGetRequest, buildPostRequest, encodeHttpResponse) from placeholder
 * values (placeholders.ts). Only the indentation of XML bodies is added, for reading.
 */
import type { OperationDescriptor, Protocol, ServiceDescriptor } from '../../descriptor.js';
import { compileHttpOperation, encodeHttpResponse, soapWrappers, type HttpOperation } from '../../http/binding.js';
import { buildGetRequest, HTTP_GET_RESPONSE_TYPE } from '../../http/get.js';
import { buildPostRequest } from '../../http/post.js';
import { buildSoapRequest } from '../../soap/client.js';
import { encodeSoapResponse } from '../../soap/response.js';
import type { SoapVersion } from '../../soap-version/version.js';
import type { WireRequest } from '../../wire.js';
import { indentXml } from './indent.js';
import type { Placeholders, PlaceholderDescriptor } from './placeholders.js';

export interface SampleMessage {
  /** `POST /serviceapi.asmx HTTP/1.1`, or `HTTP/1.1 200 OK`. */
  readonly startLine: string;
  /** Display-cased header lines (a request's Host is added by the page). */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

export interface Sample {
  readonly request: SampleMessage;
  readonly response: SampleMessage;
}

/** What the samples are built from: the service, its placeholder copy and the marker source. */
export interface SampleContext {
  readonly d: ServiceDescriptor;
  readonly placeholders: PlaceholderDescriptor;
  readonly values: Placeholders;
}

const HEADER_NAMES: Record<string, string> = { soapaction: 'SOAPAction' };

function displayName(name: string): string {
  return HEADER_NAMES[name] ?? name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

function requestMessage(wire: WireRequest, lengthLabel: string): SampleMessage {
  const headers: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(wire.headers)) {
    headers.push([displayName(name), value]);
    if (name === 'content-type') headers.push(['Content-Length', lengthLabel]);
  }
  const body =
    wire.body === undefined
      ? ''
      : wire.headers['content-type']?.includes('xml') === true
        ? indentXml(wire.body)
        : wire.body;
  return { startLine: `${wire.method} ${wire.path} HTTP/1.1`, headers, body };
}

function responseMessage(contentType: string | undefined, body: string, lengthLabel: string): SampleMessage {
  const headers: (readonly [string, string])[] =
    contentType === undefined
      ? [['Content-Length', '0']]
      : [
          ['Content-Type', contentType],
          ['Content-Length', lengthLabel],
        ];
  return { startLine: 'HTTP/1.1 200 OK', headers, body: body === '' ? '' : indentXml(body) };
}

/** Placeholder values of an operation's declared SOAP header blocks, by property. */
function headerValues(
  ctx: SampleContext,
  headers: OperationDescriptor['inputHeaders'],
): Record<string, unknown> | undefined {
  if (headers.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const h of headers) {
    const element = ctx.d.elements[h.element];
    if (element !== undefined) out[h.prop] = ctx.values.value(element.value);
  }
  return out;
}

function bodyValue(ctx: SampleContext, body: OperationDescriptor['input']): unknown {
  if (body.kind !== 'element') return undefined;
  const element = ctx.d.elements[body.element];
  return element === undefined ? undefined : ctx.values.value(element.value);
}

export function soapSample(ctx: SampleContext, version: SoapVersion, path: string, op: OperationDescriptor): Sample {
  const sop = ctx.placeholders.operation(op);
  const length = ctx.values.marker('length');
  const wire = buildSoapRequest(
    ctx.placeholders.descriptor,
    version,
    path,
    sop,
    bodyValue(ctx, op.input),
    headerValues(ctx, op.inputHeaders),
    {},
  );
  const response = encodeSoapResponse(
    ctx.placeholders.descriptor,
    version,
    sop,
    bodyValue(ctx, op.output),
    headerValues(ctx, op.outputHeaders),
  );
  return {
    request: requestMessage(wire, length),
    response: responseMessage(version.contentType, response.text, length),
  };
}

/** `hop` is the original descriptor's compiled operation (its parameters name the placeholders). */
export function httpSample(
  ctx: SampleContext,
  protocol: Extract<Protocol, 'http-get' | 'http-post'>,
  base: string,
  hop: HttpOperation,
): Sample {
  const pd = ctx.placeholders.descriptor;
  const sop = ctx.placeholders.operation(hop.op);
  const shop = compileHttpOperation(pd, sop, soapWrappers(pd).get(sop.method));
  const input: Record<string, unknown> = {};
  hop.params.forEach((p, i) => {
    const value = ctx.values.simple(p.xsd, p.enumeration);
    input[p.prop] = shop.params[i]?.repeated === true ? [value, ctx.values.simple(p.xsd, p.enumeration)] : value;
  });
  const length = ctx.values.marker('length');
  const wire =
    protocol === 'http-get' ? buildGetRequest(base, shop, input, {}) : buildPostRequest(base, shop, input, {});
  if (shop.result === undefined)
    return { request: requestMessage(wire, length), response: responseMessage(undefined, '', length) };
  const element = ctx.d.elements[shop.result.elementKey];
  const output = { [shop.result.field]: element === undefined ? undefined : ctx.values.value(element.value) };
  return {
    request: requestMessage(wire, length),
    response: responseMessage(HTTP_GET_RESPONSE_TYPE, encodeHttpResponse(pd, shop, output).text, length),
  };
}
