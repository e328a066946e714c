/**
 * What HTTP GET and HTTP POST share: named parameters (query string or form, params.ts)
 * on the way in, an XML document whose root is the result element (`<string xmlns="{ns}">`) on
 * the way out, and one-line text/plain errors (ASMX's behaviour: `Missing parameter: smsto.`).
 *
 * The input object is the same as on SOAP: parameters map to the properties of the SOAP input
 * wrapper that has the same element name (so a renamed property still lines up), see soapWrappers.
 */
import { Buffer } from 'node:buffer';
import type {
  BindingDescriptor,
  FieldDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../descriptor.js';
import { CodecError, SoapFaultError, TransportError } from '../errors.js';
import { decodeElement, encodeElementWith, isStringLike, resolveValue } from '../codec/index.js';
import { simpleWriterFor, UNCOUNTED, type PlainWriter, type Written } from '../codec/plain-writer.js';
import { XSD_NS, XSI_NS } from '../namespaces.js';
import { compileParam, type CompiledParam, type ParamOperation } from './params.js';
import type { Protocol } from '../descriptor.js';
import { elementOf } from '../message.js';
import { parseContentType } from '../content-type.js';
import { xmlBodyInput } from '../xml/body-encoding.js';
import { XmlReadError } from '../xml/reader.js';
import { readXmlFast as readXml } from '../xml/fast-reader.js';
import type { XmlElement } from '../xml/types.js';
import { escapeAttr } from '../escape/xml.js';

export interface HttpOperation extends ParamOperation {
  readonly op: OperationDescriptor;
  readonly params: readonly CompiledParam[];
  /**
   * The response root element and the output property its value goes to (undefined: empty
   * output). A nil root becomes null when the SOAP result field is nillable, else it is left out
   * (so the output object is the same as over SOAP).
   */
  readonly result: { readonly elementKey: string; readonly field: string; readonly nilAsNull: boolean } | undefined;
  /** The properties an output object may have, when the SOAP output wrapper is known. */
  readonly outputProps: ReadonlySet<string> | undefined;
  /** The method's output SOAP header properties (from its SOAP operation): a handler may set them. */
  readonly outputHeaderProps: ReadonlySet<string>;
}

/**
 * Compiles an HTTP operation. `wrapperProps` maps a wire name to the property of the SOAP
 * input wrapper (from the SOAP binding's operation with the same method), when there is one.
 * Throws a CODEC_UNSUPPORTED CodecError for an operation HTTP GET/POST cannot carry (a
 * parameter that is neither simple nor an array of a simple type); compileHttpBinding turns
 * that into an unusable operation rather than a failed binding.
 */
export function compileHttpOperation(
  d: ServiceDescriptor,
  op: OperationDescriptor,
  wrapperOrProps?: SoapWrapper | ReadonlyMap<string, string>,
): HttpOperation {
  // A plain Map (wire name -> property) is the earlier form of this parameter, still accepted.
  const wrapper =
    wrapperOrProps instanceof Map ? legacyWrapper(wrapperOrProps) : (wrapperOrProps as SoapWrapper | undefined);
  const params: CompiledParam[] = [];
  if (op.input.kind === 'params') {
    for (const p of op.input.params) params.push(compileParam(d, op, p, wrapper?.inputByWireName.get(p.name)));
  } else if (op.input.kind !== 'empty') {
    throw new CodecError('CODEC_UNSUPPORTED', op.name, `an HTTP input of kind ${op.input.kind} is not supported`);
  }
  let result: HttpOperation['result'];
  if (op.output.kind === 'xml-result') {
    result = {
      elementKey: op.output.element,
      field: op.output.field,
      nilAsNull: wrapper?.outputByProp.get(op.output.field)?.nillable === true,
    };
  } else if (op.output.kind !== 'empty') {
    throw new CodecError('CODEC_UNSUPPORTED', op.name, `an HTTP output of kind ${op.output.kind} is not supported`);
  }
  const inputProps = new Set(params.map((p) => p.prop));
  if (wrapper !== undefined) for (const field of wrapper.inputByWireName.values()) inputProps.add(field.prop);
  const outputProps =
    wrapper === undefined || wrapper.outputByProp.size === 0 ? undefined : new Set(wrapper.outputByProp.keys());
  return { op, params, result, inputProps, outputProps, outputHeaderProps: wrapper?.outputHeaderProps ?? new Set() };
}

/** An operation of an HTTP binding that cannot be called on it, and why. */
export interface UnusableHttpOperation {
  readonly name: string;
  readonly method: string;
  readonly error: CodecError;
}

/**
 * Compiles every operation of an HTTP GET/POST binding. An operation the binding cannot carry
 * (and those the generator left out, `binding.omitted`) becomes an UnusableHttpOperation, so
 * one complex parameter makes that one operation unusable, not the whole binding.
 */
export function compileHttpBinding(
  d: ServiceDescriptor,
  binding: BindingDescriptor,
  wrappers = soapWrappers(d),
): Map<string, HttpOperation | UnusableHttpOperation> {
  const out = new Map<string, HttpOperation | UnusableHttpOperation>();
  for (const op of binding.operations) {
    try {
      out.set(op.method, compileHttpOperation(d, op, wrappers.get(op.method)));
    } catch (err) {
      if (!(err instanceof CodecError) || err.code !== 'CODEC_UNSUPPORTED') throw err;
      out.set(op.method, {
        name: op.name,
        method: op.method,
        error: unusable(binding, op.name, err.path, err.message),
      });
    }
  }
  for (const omitted of binding.omitted ?? []) {
    if (!out.has(omitted.method))
      out.set(omitted.method, {
        name: omitted.name,
        method: omitted.method,
        error: unusable(binding, omitted.name, omitted.name, omitted.reason),
      });
  }
  return out;
}

function unusable(binding: BindingDescriptor, operation: string, path: string, why: string): CodecError {
  return new CodecError(
    'CODEC_UNSUPPORTED',
    path,
    `the operation ${operation} cannot be called over ${binding.protocol} (binding ${binding.name}): ${why}`,
  );
}

export function isUnusable(compiled: HttpOperation | UnusableHttpOperation): compiled is UnusableHttpOperation {
  return 'error' in compiled;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';
const XML_DECLARATION_BYTES = Buffer.byteLength(XML_DECLARATION);
/** What ASMX declares on every response root that is not a plain simple value. */
const ROOT_DECLARATIONS = ` xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}"`;

/**
 * Server: the response document, as ASMX writes it: `<int xmlns="{ns}">6</int>` for a simple
 * value; a complex, array or null result has xsd and xsi declared on the root. A null result is
 * `xsi:nil="true"` when the result element is nillable, else an empty element (what ASMX writes
 * for a null `int?` when the service's global `int` element is not nillable).
 */
export function encodeHttpResponse(d: ServiceDescriptor, hop: HttpOperation, output: unknown): Written {
  if (hop.result === undefined) return { text: '', bytes: 0 };
  const record = output === undefined || output === null ? undefined : (output as Record<string, unknown>);
  if (record !== undefined && hop.outputProps !== undefined) {
    for (const key in record) {
      if (!hop.outputProps.has(key))
        throw new CodecError(
          'CODEC_UNEXPECTED',
          hop.op.name,
          `unexpected property: "${key}" is not a member of the output of ${hop.op.name}`,
        );
    }
  }
  const element = elementOf(d, hop.result.elementKey, hop.op.name);
  const path = element.name.local;
  const value = record?.[hop.result.field];
  if (value === undefined || value === null) {
    // An absent result is written as null when the element allows it (ASMX does the same).
    if (value === undefined && !element.nillable)
      throw new CodecError('CODEC_MISSING', `${hop.op.name}/${hop.result.field}`, 'the result is required');
    if (value === null && !element.nillable && !hop.result.nilAsNull)
      throw new CodecError(
        'CODEC_NIL',
        `${hop.op.name}/${hop.result.field}`,
        'null given for a result that is not nillable',
      );
    const nil = element.nillable ? ' xsi:nil="true"' : '';
    const text = `${XML_DECLARATION}<${path} xmlns="${escapeAttr(element.name.ns, path)}"${nil}${ROOT_DECLARATIONS}/>`;
    return { text, bytes: UNCOUNTED };
  }
  let simpleWriter = simpleWriters.get(hop);
  if (simpleWriter === undefined) simpleWriters.set(hop, (simpleWriter = simpleWriterFor(d, element) ?? null));
  const written = simpleWriter?.(value);
  if (written !== undefined)
    return { text: XML_DECLARATION + written.text, bytes: XML_DECLARATION_BYTES + written.bytes };
  const simple = resolveValue(d, element.value, path).kind === 'primitive';
  const text =
    XML_DECLARATION +
    encodeElementWith(
      d,
      element.name,
      element.value,
      value,
      element.nillable,
      '',
      path,
      !simple,
      simple ? '' : ROOT_DECLARATIONS,
    );
  return { text, bytes: UNCOUNTED };
}

/** Per operation: the straight-line writer of its simple result element, or null where it has none. */
const simpleWriters = new WeakMap<HttpOperation, PlainWriter | null>();

/** Client: the output object from a response, or the error to reject with. */
export function decodeHttpResponse(
  d: ServiceDescriptor,
  hop: HttpOperation,
  protocol: Protocol,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array,
): unknown {
  const { mediaType, charset } = parseContentType(String(headers['content-type'] ?? ''));
  if (status !== 200) throw httpError(protocol, status, mediaType, headers, body);
  if (hop.result === undefined) return {};
  if (!mediaType.endsWith('xml'))
    throw new TransportError(
      'BAD_RESPONSE',
      `Expected an XML response, got ${mediaType || 'no content type'} (HTTP ${status})`,
      { httpStatus: status },
    );
  const element = elementOf(d, hop.result.elementKey, hop.op.name);
  const { nilAsNull } = hop.result;
  let value: unknown;
  try {
    // UTF-8, or UTF-16 by its BOM or charset, as a SOAP response is read (soap/client.ts).
    const root = readXml(xmlBodyInput(body, charset), { charset }).root;
    if (root.local !== element.name.local || root.ns !== element.name.ns) {
      throw new TransportError(
        'BAD_RESPONSE',
        `Expected the response element {${element.name.ns}}${element.name.local}, got {${root.ns}}${root.local}`,
        { httpStatus: status },
      );
    }
    // ASMX shares one global element per result type (`int`) among a service's methods, and its
    // nillable says little about this method: a nullable result may come as xsi:nil on an
    // element declared not nillable, or as an empty element (see encodeHttpResponse).
    value =
      nilAsNull && isEmptyNull(d, element.value, root)
        ? null
        : decodeElement(d, element.value, root, element.nillable || nilAsNull, element.name.local);
  } catch (err) {
    if (err instanceof XmlReadError)
      throw new TransportError('BAD_RESPONSE', `The response is not well-formed XML: ${err.message}`, {
        httpStatus: status,
        cause: err,
      });
    if (err instanceof CodecError)
      throw new TransportError('BAD_RESPONSE', `The response does not match the contract: ${err.message}`, {
        httpStatus: status,
        cause: err,
      });
    throw err;
  }
  return value === null && !nilAsNull ? {} : { [hop.result.field]: value };
}

/** An empty root of a simple type for which '' is not a value (int, an enum): ASMX's null. */
function isEmptyNull(d: ServiceDescriptor, vd: ValueDescriptor, root: XmlElement): boolean {
  if (root.children.length !== 0) return false;
  const resolved = resolveValue(d, vd, root.local);
  if (resolved.kind !== 'primitive') return false;
  return (
    !isStringLike(resolved.xsd) ||
    (resolved.enumeration !== undefined && resolved.enumeration.length !== 0 && !resolved.enumeration.includes(''))
  );
}

function httpError(
  protocol: Protocol,
  status: number,
  mediaType: string,
  headers: Record<string, string | string[] | undefined>,
  body: Uint8Array,
): SoapFaultError | TransportError {
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
  return new TransportError(
    'BAD_RESPONSE',
    `Unexpected HTTP ${status} (${mediaType || 'no content type'}) from the server`,
    { httpStatus: status },
  );
}

/** Per method: the SOAP input wrapper's wire name -> property, so HTTP parameters fill the same object. */
function legacyWrapper(props: ReadonlyMap<string, string>): SoapWrapper | undefined {
  if (props.size === 0) return undefined;
  const inputByWireName = new Map<string, FieldDescriptor>();
  for (const [name, prop] of props)
    inputByWireName.set(name, {
      prop,
      name: { ns: '', local: name },
      value: { kind: 'primitive', xsd: 'string' },
      minOccurs: 1,
      maxOccurs: -1,
      nillable: false,
    });
  return { inputByWireName, outputByProp: new Map(), outputHeaderProps: new Set() };
}

/** The SOAP wrapper fields of one method: what HTTP parameters and results map to. */
export interface SoapWrapper {
  /** Input wrapper fields by wire (element) name. */
  readonly inputByWireName: ReadonlyMap<string, FieldDescriptor>;
  /** Output wrapper fields by property name. */
  readonly outputByProp: ReadonlyMap<string, FieldDescriptor>;
  /** The SOAP operation's output header properties. */
  readonly outputHeaderProps: ReadonlySet<string>;
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
      out.set(op.method, {
        inputByWireName: wrapperFields(d, op.input, (f) => f.name.local),
        outputByProp: wrapperFields(d, op.output, (f) => f.prop),
        outputHeaderProps: new Set(op.outputHeaders.map((h) => h.prop)),
      });
    }
  }
  return out;
}

function wrapperFields(
  d: ServiceDescriptor,
  body: OperationDescriptor['input'],
  key: (f: FieldDescriptor) => string,
): Map<string, FieldDescriptor> {
  if (body.kind !== 'element') return new Map();
  const element = d.elements[body.element];
  if (element === undefined || element.value.kind !== 'type') return new Map();
  const type = d.types[element.value.type];
  if (type === undefined || type.kind !== 'complex') return new Map();
  return new Map(type.fields.map((f) => [key(f), f]));
}
