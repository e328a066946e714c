/**
 * What HTTP GET and HTTP POST share: named parameters (query string or form) on the way in,
 * an XML document whose root is the result element (`<string xmlns="{ns}">`) on the way out,
 * and one-line text/plain errors (ASMX's behaviour: `Missing parameter: smsto.`).
 *
 * The input object is the same as on SOAP: parameters map to the properties of the SOAP input
 * wrapper that has the same element name (so a renamed property still lines up), see soapWrappers.
 */
import type { FieldDescriptor, OperationDescriptor, ServiceDescriptor } from './descriptor.js';
import { CodecError, SoapFaultError, TransportError } from './errors.js';
import { decodeElement, decodeText, encodeElement, primitiveCodec, resolveValue, type PrimitiveCodec } from './codec/index.js';
import type { Protocol } from './descriptor.js';
import { elementOf } from './message.js';
import { XmlReadError } from './xml/reader.js';
import { readXmlFast as readXml } from './xml/fast-reader.js';

interface CompiledParam {
  readonly name: string;
  readonly prop: string;
  /**
   * Whether the SOAP wrapper field this parameter maps to is required (true too when there is
   * no such field). Used only when the server passes absent optional parameters through.
   */
  readonly required: boolean;
  readonly xsd: string;
  readonly enumeration: readonly string[] | undefined;
  readonly codec: PrimitiveCodec;
}

export interface HttpOperation {
  readonly op: OperationDescriptor;
  readonly params: readonly CompiledParam[];
  /**
   * The response root element and the output property its value goes to (undefined: empty
   * output). A nil root becomes null when the SOAP result field is nillable, else it is left out
   * (so the output object is the same as over SOAP).
   */
  readonly result: { readonly elementKey: string; readonly field: string; readonly nilAsNull: boolean } | undefined;
}

/**
 * Compiles an HTTP operation. `wrapperProps` maps a wire name to the property of the SOAP
 * input wrapper (from the SOAP binding's operation with the same method), when there is one.
 */
export function compileHttpOperation(d: ServiceDescriptor, op: OperationDescriptor, wrapperOrProps?: SoapWrapper | ReadonlyMap<string, string>): HttpOperation {
  // A plain Map (wire name -> property) is the earlier form of this parameter, still accepted.
  const wrapper = wrapperOrProps instanceof Map ? legacyWrapper(wrapperOrProps) : (wrapperOrProps as SoapWrapper | undefined);
  const params: CompiledParam[] = [];
  if (op.input.kind === 'params') {
    for (const p of op.input.params) {
      const field = wrapper?.inputByWireName.get(p.name);
      const fieldValue = field !== undefined && field.maxOccurs === 1 ? resolveValue(d, field.value, p.name) : undefined;
      const resolved = fieldValue?.kind === 'primitive' ? fieldValue : resolveValue(d, p.value, p.name);
      if (resolved.kind !== 'primitive') throw new CodecError('CODEC_DESCRIPTOR', `${op.name}/${p.name}`, 'an HTTP parameter must be of a simple type');
      const required = field === undefined || (field.minOccurs > 0 && field.inChoice !== true);
      params.push({ name: p.name, prop: field?.prop ?? p.name, required, xsd: resolved.xsd, enumeration: resolved.enumeration, codec: primitiveCodec(resolved.xsd, p.name) });
    }
  } else if (op.input.kind !== 'empty') {
    throw new CodecError('CODEC_DESCRIPTOR', op.name, `HTTP input of kind ${op.input.kind} is not supported`);
  }
  let result: HttpOperation['result'];
  if (op.output.kind === 'xml-result') {
    result = { elementKey: op.output.element, field: op.output.field, nilAsNull: wrapper?.outputByProp.get(op.output.field)?.nillable === true };
  }
  else if (op.output.kind !== 'empty') throw new CodecError('CODEC_DESCRIPTOR', op.name, `HTTP output of kind ${op.output.kind} is not supported`);
  return { op, params, result };
}

/** Client: the parameters as `a=1&b=2` in descriptor order (undefined/null values are left out). */
export function encodeParams(hop: HttpOperation, input: unknown): string {
  const record = (input ?? {}) as Record<string, unknown>;
  const search = new URLSearchParams();
  for (const p of hop.params) {
    const value = record[p.prop];
    if (value === undefined || value === null) continue;
    search.append(p.name, p.codec.encode(value, `${hop.op.name}/${p.name}`));
  }
  return search.toString();
}

/**
 * Server: the input object, or the one-line error text for the caller. An absent parameter is
 * `Missing parameter: x.` (ASMX: every method parameter is required) unless `passAbsentOptional`
 * is set and the SOAP wrapper field is optional: then it reaches the handler as undefined,
 * exactly as the absent element does over SOAP. `code` is the stable error code that rides in
 * `X-Smskit-Error-Code`, so a client tells the refusal apart without parsing ASMX's wording.
 */
export type ParamDecodeError = { readonly error: string; readonly code: 'MissingParameter' | 'InvalidParameter' };

export function decodeParams(hop: HttpOperation, search: URLSearchParams, passAbsentOptional = false): { input: Record<string, unknown> } | ParamDecodeError {
  const input: Record<string, unknown> = {};
  for (const p of hop.params) {
    const text = search.get(p.name);
    if (text === null) {
      if (p.required || !passAbsentOptional) return { error: `Missing parameter: ${p.name}.`, code: 'MissingParameter' };
      continue;
    }
    try {
      input[p.prop] = decodeText(p.xsd, p.enumeration, text, p.name);
    } catch (err) {
      if (err instanceof CodecError) return { error: `Invalid value for parameter: ${p.name}.`, code: 'InvalidParameter' };
      throw err;
    }
  }
  return { input };
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

/** Server: the response document (`<?xml ...?>\n<string xmlns="{ns}">...</string>`). */
export function encodeHttpResponse(d: ServiceDescriptor, hop: HttpOperation, output: unknown): string {
  if (hop.result === undefined) return '';
  const element = elementOf(d, hop.result.elementKey, hop.op.name);
  const value = output === undefined || output === null ? undefined : (output as Record<string, unknown>)[hop.result.field];
  // An absent result is written as xsi:nil when the element allows it (ASMX does the same).
  const shown = value === undefined && element.nillable ? null : value;
  if (shown === undefined) throw new CodecError('CODEC_MISSING', `${hop.op.name}/${hop.result.field}`, 'the result is required');
  return XML_DECLARATION + encodeElement(d, element.name, element.value, shown, element.nillable, '', element.name.local);
}

/** Client: the output object from a response, or the error to reject with. */
export function decodeHttpResponse(
  d: ServiceDescriptor,
  hop: HttpOperation,
  protocol: Protocol,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array,
): unknown {
  const mediaType = String(headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (status !== 200) throw httpError(protocol, status, mediaType, headers, body);
  if (hop.result === undefined) return {};
  if (!mediaType.endsWith('xml')) throw new TransportError('BAD_RESPONSE', `Expected an XML response, got ${mediaType || 'no content type'} (HTTP ${status})`, { httpStatus: status });
  const element = elementOf(d, hop.result.elementKey, hop.op.name);
  let value: unknown;
  try {
    const root = readXml(body).root;
    if (root.local !== element.name.local || root.ns !== element.name.ns) {
      throw new TransportError('BAD_RESPONSE', `Expected the response element {${element.name.ns}}${element.name.local}, got {${root.ns}}${root.local}`, { httpStatus: status });
    }
    value = decodeElement(d, element.value, root, element.nillable, element.name.local);
  } catch (err) {
    if (err instanceof XmlReadError) throw new TransportError('BAD_RESPONSE', `The response is not well-formed XML: ${err.message}`, { httpStatus: status, cause: err });
    if (err instanceof CodecError) throw new TransportError('BAD_RESPONSE', `The response does not match the contract: ${err.message}`, { httpStatus: status, cause: err });
    throw err;
  }
  return value === null && !hop.result.nilAsNull ? {} : { [hop.result.field]: value };
}

function httpError(protocol: Protocol, status: number, mediaType: string, headers: Record<string, string | string[] | undefined>, body: Uint8Array): SoapFaultError | TransportError {
  if (status >= 500 && mediaType === 'text/plain') {
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8').trim();
    const faultCode = headers['x-smskit-fault-code'];
    const errorCode = headers['x-smskit-error-code'];
    return new SoapFaultError({
      code: typeof faultCode === 'string' ? faultCode : 'HTTP',
      message: text.split(/\r?\n/)[0] ?? '',
      detail: typeof errorCode === 'string' ? { code: errorCode } : {},
      httpStatus: status,
      binding: protocol,
    });
  }
  return new TransportError('BAD_RESPONSE', `Unexpected HTTP ${status} (${mediaType || 'no content type'}) from the server`, { httpStatus: status });
}

/** Per method: the SOAP input wrapper's wire name -> property, so HTTP parameters fill the same object. */
function legacyWrapper(props: ReadonlyMap<string, string>): SoapWrapper | undefined {
  if (props.size === 0) return undefined;
  const inputByWireName = new Map<string, FieldDescriptor>();
  for (const [name, prop] of props) inputByWireName.set(name, { prop, name: { ns: '', local: name }, value: { kind: 'primitive', xsd: 'string' }, minOccurs: 1, maxOccurs: -1, nillable: false });
  return { inputByWireName, outputByProp: new Map() };
}

/** The SOAP wrapper fields of one method: what HTTP parameters and results map to. */
export interface SoapWrapper {
  /** Input wrapper fields by wire (element) name. */
  readonly inputByWireName: ReadonlyMap<string, FieldDescriptor>;
  /** Output wrapper fields by property name. */
  readonly outputByProp: ReadonlyMap<string, FieldDescriptor>;
}

/**
 * Per method, the SOAP binding's input/output wrapper fields. The method's TypeScript input
 * and output come from them, so HTTP parameters take their property names and, for simple
 * values, their types (ASMX converts HTTP strings to the method's parameter types, even where
 * the WSDL's HTTP messages say s:string).
 */
export function soapWrappers(d: ServiceDescriptor): Map<string, SoapWrapper> {
  const out = new Map<string, SoapWrapper>();
  for (const binding of d.bindings) {
    if (binding.protocol !== 'soap11' && binding.protocol !== 'soap12') continue;
    for (const op of binding.operations) {
      if (out.has(op.method)) continue;
      out.set(op.method, { inputByWireName: wrapperFields(d, op.input, (f) => f.name.local), outputByProp: wrapperFields(d, op.output, (f) => f.prop) });
    }
  }
  return out;
}

function wrapperFields(d: ServiceDescriptor, body: OperationDescriptor['input'], key: (f: FieldDescriptor) => string): Map<string, FieldDescriptor> {
  if (body.kind !== 'element') return new Map();
  const element = d.elements[body.element];
  if (element === undefined || element.value.kind !== 'type') return new Map();
  const type = d.types[element.value.type];
  if (type === undefined || type.kind !== 'complex') return new Map();
  return new Map(type.fields.map((f) => [key(f), f]));
}
