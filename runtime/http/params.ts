/**
 * HTTP GET/POST parameters: which values a parameter carries and how ASMX writes and reads them
 * (`a=1&b=2`, as a query string or a form). ASMX converts each string to the method's
 * parameter type (ScalarFormatter), which is not always the XML lexical form:
 *
 * - an array (`int[]`, `string[]`, an enum array) is one `name=value` pair per item, in order;
 * - `byte[]` is an array too: one pair per byte, in decimal (`data=0&data=255`), not base64;
 * - a `char` is the character itself (`flag=é`), not its code as in XML;
 * - a [Flags] enum (an xs:list of names) is the names joined by commas (`Read,Write`), not spaces
 *   (ASMX refuses `Read Write` there);
 * - a boolean is read case-insensitively (`yes=True`: bool.Parse), and written `true`/`false`.
 *
 * (test/fixtures/asmx/captures/rich: SumValues.get, EchoBytes.get, DescribeHttpScalars.get and
 * its error-char-as-number, EchoAccess.get and its space-separated variant.)
 */
import type { FieldDescriptor, OperationDescriptor, ServiceDescriptor, ValueDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { checkEnumeration, primitiveCodec, resolveValue, type PrimitiveCodec } from '../codec/index.js';
import { decodeLexical, type PrimitiveValue } from '../codec/shared.js';
import { isPrimitiveName, PRIMITIVES, type HttpParamForm, type PrimitiveName } from '../primitives.js';
import { type FormFields, LONE_SURROGATE, MORE_THAN_ONCE } from './form.js';

/** How one value is written as parameter text, where ASMX's HTTP readers differ from XML. */
type HttpForm = HttpParamForm | 'flags';

export interface CompiledParam {
  readonly name: string;
  readonly prop: string;
  /**
   * Whether the SOAP wrapper field this parameter maps to is required (true too when there is
   * no such field). Used only when the server passes absent optional parameters through.
   */
  readonly required: boolean;
  /** An array of a simple type (ArrayOfInt, or a field with maxOccurs > 1): one pair per item. */
  readonly repeated: boolean;
  readonly form: HttpForm;
  readonly xsd: PrimitiveName;
  readonly enumeration: readonly string[] | undefined;
  readonly codec: PrimitiveCodec;
  /** The (item) value resolved, for decoding its text as the XML codecs decode an element's. */
  readonly value: PrimitiveValue;
}

/** What HTTP parameter handling needs of an operation (binding.ts's HttpOperation). */
export interface ParamOperation {
  readonly op: OperationDescriptor;
  readonly params: readonly CompiledParam[];
  /** The properties an input object may have (the SOAP input wrapper's and the parameters'). */
  readonly inputProps: ReadonlySet<string>;
}

/**
 * A parameter takes its type from the SOAP wrapper field of the same name (ASMX converts to the
 * method's parameter types, whatever the WSDL's HTTP messages say), else from the HTTP part.
 * Neither simple nor an array of simple: a CODEC_UNSUPPORTED CodecError.
 */
export function compileParam(
  d: ServiceDescriptor,
  op: OperationDescriptor,
  p: { readonly name: string; readonly value: ValueDescriptor },
  field: FieldDescriptor | undefined,
): CompiledParam {
  const path = `${op.name}/${p.name}`;
  const simple =
    (field === undefined ? undefined : simpleOf(d, field.value, field.maxOccurs, path)) ??
    simpleOf(d, p.value, 1, path);
  if (simple === undefined) {
    const resolved = resolveValue(d, field?.value ?? p.value, path);
    const what =
      resolved.kind === 'complex' ? `of the complex type ${typeName(field?.value ?? p.value)}` : 'an XML fragment';
    throw new CodecError(
      'CODEC_UNSUPPORTED',
      path,
      `the parameter ${p.name} is ${what}: HTTP GET/POST carry only simple values and arrays of them`,
    );
  }
  const required = field === undefined || (field.minOccurs > 0 && field.inChoice !== true);
  return { name: p.name, prop: field?.prop ?? p.name, required, ...simple, codec: primitiveCodec(simple.xsd, path) };
}

type SimpleParam = Pick<CompiledParam, 'repeated' | 'form' | 'xsd' | 'enumeration' | 'value'>;

/** A simple value, or an array of one (a repeated field or an ArrayOfX wrapper of simple items). */
function simpleOf(d: ServiceDescriptor, vd: ValueDescriptor, maxOccurs: number, path: string): SimpleParam | undefined {
  const resolved = resolveValue(d, vd, path);
  if (resolved.kind === 'primitive') {
    const form = formOf(d, vd, resolved.xsd);
    if (form === 'bytes' && maxOccurs !== 1) return undefined; // byte[][]: no HTTP form
    return { repeated: maxOccurs !== 1, form, xsd: resolved.xsd, enumeration: resolved.enumeration, value: resolved };
  }
  if (resolved.kind !== 'complex' || maxOccurs !== 1) return undefined;
  const item = resolved.type.arrayItem;
  if (item === undefined || item.maxOccurs === 1) return undefined;
  const itemValue = resolveValue(d, item.value, path);
  if (itemValue.kind !== 'primitive') return undefined;
  const form = formOf(d, item.value, itemValue.xsd);
  return form === 'bytes'
    ? undefined
    : { repeated: true, form, xsd: itemValue.xsd, enumeration: itemValue.enumeration, value: itemValue };
}

function formOf(d: ServiceDescriptor, vd: ValueDescriptor, xsd: PrimitiveName): HttpForm {
  // A name the table does not know keeps the XML form; its codec lookup reports it.
  const form = isPrimitiveName(xsd) ? PRIMITIVES[xsd].http : 'xml';
  if (form !== 'xml') return form;
  const named = vd.kind === 'type' ? d.types[vd.type] : undefined;
  return named?.kind === 'simple' && named.list === true ? 'flags' : 'xml';
}

function typeName(vd: ValueDescriptor): string {
  if (vd.kind !== 'type') return vd.kind;
  const close = vd.type.lastIndexOf('}');
  return close < 0 ? vd.type : vd.type.slice(close + 1);
}

/**
 * Client: the parameters as `a=1&b=2` in descriptor order (undefined/null values are left out,
 * and the server answers `Missing parameter` for a required one). An empty array (or byte[]) or
 * a null item has no form on the wire (ASMX reads an absent array parameter as an error, not as
 * an empty array), so either is refused rather than lost; so is a property that is no parameter.
 */
export function encodeParams(hop: ParamOperation, input: unknown): string {
  const record = (input ?? {}) as Record<string, unknown>;
  for (const key in record) {
    if (!hop.inputProps.has(key))
      throw new CodecError(
        'CODEC_UNEXPECTED',
        hop.op.name,
        `unexpected property: "${key}" is not a parameter of ${hop.op.name}`,
      );
  }
  const search = new URLSearchParams();
  for (const p of hop.params) {
    const value = record[p.prop];
    if (value === undefined || value === null) continue;
    const path = `${hop.op.name}/${p.name}`;
    if (p.form === 'bytes') {
      p.codec.encode(value, path); // checks it is a Uint8Array
      const bytes = value as Uint8Array;
      if (bytes.length === 0) throw emptyArray(path);
      for (const byte of bytes) search.append(p.name, String(byte));
    } else if (!p.repeated) {
      search.append(p.name, encodeParam(p, value, path));
    } else {
      if (!Array.isArray(value)) throw new CodecError('CODEC_INVALID_VALUE', path, 'expected an array');
      if (value.length === 0) throw emptyArray(path);
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === null || item === undefined)
          throw new CodecError(
            'CODEC_UNSUPPORTED',
            `${path}[${i + 1}]`,
            'a null item cannot be sent over HTTP GET/POST',
          );
        search.append(p.name, encodeParam(p, item, `${path}[${i + 1}]`));
      }
    }
  }
  return search.toString();
}

function emptyArray(path: string): CodecError {
  return new CodecError(
    'CODEC_UNSUPPORTED',
    path,
    'an empty array cannot be sent over HTTP GET/POST (it would be an absent parameter, which ASMX refuses)',
  );
}

function encodeParam(p: CompiledParam, value: unknown, path: string): string {
  const lexical = p.codec.encode(value, path);
  checkEnumeration(p.enumeration, lexical, path);
  if (p.form === 'char') return String.fromCharCode(Number(lexical));
  if (p.form === 'flags') return lexical.trim().split(/\s+/).join(',');
  // URLSearchParams would write half a surrogate pair as U+FFFD: refused, as SOAP refuses it.
  if (LONE_SURROGATE.test(lexical))
    throw new CodecError('CODEC_ILLEGAL_CHAR', path, 'half of a surrogate pair is not a character');
  return lexical;
}

/**
 * Server: the input object, or the one-line error text for the caller. An absent parameter is
 * `Missing parameter: x.` (ASMX: every method parameter is required) unless `passAbsentOptional`
 * is set and the SOAP wrapper field is optional: then it reaches the handler as undefined,
 * exactly as the absent element does over SOAP. `code` is the stable error code that rides in
 * `X-Smskit-Error-Code`, so a client tells the refusal apart without parsing ASMX's wording.
 * An array parameter takes every value given for its name, in order (none: absent, which ASMX
 * answers with an error too).
 */
export type ParamDecodeError = { readonly error: string; readonly code: 'MissingParameter' | 'InvalidParameter' };

/** A %u escape that cannot be decoded: refused like any invalid value, saying why. */
function malformedEscapeError(malformed: { readonly name: string; readonly why: string }): ParamDecodeError {
  return { error: `Invalid value for parameter: ${malformed.name}. ${malformed.why}.`, code: 'InvalidParameter' };
}

export function decodeParams(
  hop: ParamOperation,
  search: FormFields,
  passAbsentOptional = false,
): { input: Record<string, unknown> } | ParamDecodeError {
  const input: Record<string, unknown> = {};
  for (const p of hop.params) {
    const malformed = search.malformedValue(p.name);
    if (malformed !== undefined) return malformedEscapeError(malformed.malformed);
    const texts = p.repeated || p.form === 'bytes' ? search.getAll(p.name) : undefined;
    const text = texts === undefined ? search.single(p.name) : texts.length === 0 ? null : '';
    // As the SOAP bindings refuse an element that occurs more than once: one of the values would be lost.
    if (text === MORE_THAN_ONCE)
      return { error: `Invalid value for parameter: ${p.name}. It is given more than once.`, code: 'InvalidParameter' };
    if (text === null) {
      if (p.required || !passAbsentOptional)
        return { error: `Missing parameter: ${p.name}.`, code: 'MissingParameter' };
      continue;
    }
    try {
      if (p.form === 'bytes') input[p.prop] = decodeBytes(texts!, p.name);
      else
        input[p.prop] =
          texts === undefined
            ? decodeParam(p, text, p.name)
            : texts.map((t, i) => decodeParam(p, t, `${p.name}[${i + 1}]`));
    } catch (err) {
      if (err instanceof CodecError)
        return { error: `Invalid value for parameter: ${p.name}.`, code: 'InvalidParameter' };
      throw err;
    }
  }
  return { input };
}

function decodeParam(p: CompiledParam, text: string, path: string): unknown {
  if (p.form === 'char') {
    // Convert.ToChar: exactly one UTF-16 code unit ("String must be exactly one character long").
    if (text.length !== 1)
      throw new CodecError('CODEC_INVALID_VALUE', path, 'a char parameter must be exactly one character');
    return decodeLexical(p.value, String(text.charCodeAt(0)), path);
  }
  if (p.form === 'flags') {
    const names = text.split(',').map((name) => name.trim());
    if (names.some((name) => /\s/.test(name)))
      throw new CodecError('CODEC_INVALID_VALUE', path, 'the names of a flags value are separated by commas');
    return decodeLexical(p.value, names.join(' '), path);
  }
  if (p.form === 'boolean') return decodeLexical(p.value, text.trim().toLowerCase(), path);
  if (p.xsd === 'dateTime') return decodeLexical(p.value, httpDateTime(text), path);
  return decodeLexical(p.value, text, path);
}

/**
 * ASMX reads an HTTP dateTime parameter with DateTime.Parse, which takes a space between date
 * and time (Python zeep over HTTP GET/POST sends `2024-01-02 03:04:05+02:00`) and a time without
 * seconds; both become the XSD form. Over SOAP ASMX is strict, and so is smskit.
 */
function httpDateTime(text: string): string {
  const match = /^\s*(-?\d{4,}-\d\d-\d\d)[ T](\d\d:\d\d)(:\d\d(?:\.\d+)?)?(Z|[+-]\d\d:\d\d)?\s*$/.exec(text);
  if (match === null) return text;
  return `${match[1]}T${match[2]}${match[3] ?? ':00'}${match[4] ?? ''}`;
}

const UNSIGNED_BYTE = primitiveCodec('unsignedByte', '');

function decodeBytes(texts: readonly string[], path: string): Uint8Array {
  const bytes = new Uint8Array(texts.length);
  for (let i = 0; i < texts.length; i++) bytes[i] = UNSIGNED_BYTE.decode(texts[i]!, `${path}[${i + 1}]`) as number;
  return bytes;
}
