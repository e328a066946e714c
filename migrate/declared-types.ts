/**
 * Leaf texts compared after canonical parsing of their declared type: the WSDL says which XSD
 * type each element carries, and two texts of that type are the same when they read as the same
 * value (`12.50` and `12.5` as xs:decimal, `1` and `true` as xs:boolean, `1E+300` and `1e+300` as
 * xs:double, two spellings of one instant as xs:dateTime), while a string is compared as written
 * (`007` and `7` as xs:string differ). The runtime's codecs do the reading.
 *
 * Types are looked up by element QName across the service's descriptor: global elements, the
 * members of every complex type, array items and attributes. A QName declared with two
 * different types (rare) is left to the lexical rule (canonical.ts), as is any element the WSDL
 * does not declare.
 */
import { readFileSync } from 'node:fs';
import { descriptorFromWsdlText } from '../contract/descriptor/from-text.js';
import { findPrimitiveCodec, isStringLike } from '../runtime/codec/primitives.js';
import type { NameDescriptor, ServiceDescriptor, ValueDescriptor } from '../runtime/descriptor.js';
import { canonicalDateTime, canonicalText } from './canonical.js';
import type { TextNormaliser } from './outline.js';
import { type LoadedRecording, RecordingError } from './recording.js';

const AMBIGUOUS = '';

function primitiveOf(descriptor: ServiceDescriptor, value: ValueDescriptor): string | undefined {
  if (value.kind === 'primitive') return value.xsd;
  if (value.kind !== 'type') return undefined;
  const type = descriptor.types[value.type];
  return type?.kind === 'simple' && type.list !== true ? type.xsd : undefined;
}

/** `{ns}local` → the XSD primitive of every element so declared, when all declarations agree. */
export function declaredPrimitives(descriptor: ServiceDescriptor): Map<string, string> {
  const out = new Map<string, string>();
  const note = (name: NameDescriptor, value: ValueDescriptor): void => {
    const xsd = primitiveOf(descriptor, value);
    if (xsd === undefined) return;
    const key = `{${name.ns}}${name.local}`;
    const had = out.get(key);
    out.set(key, had === undefined || had === xsd ? xsd : AMBIGUOUS);
  };
  for (const element of Object.values(descriptor.elements)) note(element.name, element.value);
  for (const type of Object.values(descriptor.types)) {
    if (type.kind !== 'complex') continue;
    for (const field of type.fields) note(field.name, field.value);
    if (type.arrayItem !== undefined) note(type.arrayItem.name, type.arrayItem.value);
  }
  for (const [key, xsd] of out) if (xsd === AMBIGUOUS) out.delete(key);
  return out;
}

/** An xs:decimal without sign noise, leading zeros or trailing fraction zeros. */
function canonicalDecimal(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (m === null) return text;
  const whole = (m[2] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const sign = m[1] === '-' && !(whole === '0' && fraction === '') ? '-' : '';
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

function canonicalFloat(text: string): string {
  const codec = findPrimitiveCodec('float')!;
  try {
    const value = codec.decode(text, '') as number;
    return codec.encode(Math.fround(value), '');
  } catch {
    return text;
  }
}

/** The text as its declared type reads it, written back in one canonical form; unreadable text stays as it is. */
export function canonicalAs(xsd: string, text: string): string {
  if (xsd === 'dateTime') return canonicalDateTime(text.trim()) ?? text;
  if (xsd === 'guid') return text.trim().toLowerCase();
  if (xsd === 'decimal') return canonicalDecimal(text);
  if (isStringLike(xsd)) return text;
  // xs:float's values are 32-bit (XSD 1.0 Part 2 §3.2.4): "-1.401298E-45" and
  // "-1.401298464324817e-45" are one float, though not one double.
  if (xsd === 'float') return canonicalFloat(text);
  const codec = findPrimitiveCodec(xsd);
  if (codec === undefined) return text;
  try {
    return codec.encode(codec.decode(text, ''), '');
  } catch {
    return text;
  }
}

/** A leaf normaliser for a service: by declared type where the WSDL declares one, else lexical. */
export function declaredTypeNormaliser(descriptor: ServiceDescriptor): TextNormaliser {
  const types = declaredPrimitives(descriptor);
  return (text, element) => {
    const xsd = element === undefined ? undefined : types.get(`{${element.ns}}${element.local}`);
    return xsd === undefined ? canonicalText(text) : canonicalAs(xsd, text);
  };
}

/**
 * The service's descriptor read from the recording's own `?wsdl` exchange (the first whole one
 * answered 200), or undefined when the recording has none or it cannot be read.
 */
export function recordedDescriptor(
  recording: LoadedRecording,
): { descriptor: ServiceDescriptor; from: string } | undefined {
  for (const exchange of recording.exchanges) {
    const response = exchange.response;
    if (
      !/\?wsdl$/i.test(exchange.request.target) ||
      response === undefined ||
      exchange.failure !== undefined ||
      response.status !== 200 ||
      response.truncated
    )
      continue;
    try {
      return {
        descriptor: descriptorFromWsdlText(Buffer.from(response.body, 'base64')),
        from: `the recorded ${exchange.request.target}`,
      };
    } catch {
      // A WSDL the contract layer cannot read leaves the comparison to the lexical rule.
    }
  }
  return undefined;
}

/** A WSDL file's descriptor; a file that cannot be read or parsed is a RecordingError naming it. */
export function readWsdlFile(file: string): ServiceDescriptor {
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RecordingError(`--wsdl ${file}: ${typeof code === 'string' ? code : 'not readable'}`);
  }
  try {
    return descriptorFromWsdlText(text);
  } catch (error) {
    throw new RecordingError(`--wsdl ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
}
