/**
 * Read-only views of a captured response that the checks share: the parsed XML body (parsed
 * once per exchange, with the reason when it cannot be), the Content-Type, the SOAP envelope
 * parts and a fault's code and reason. Every function is pure and tolerant: it describes what
 * is there and leaves judging to the checks, so one defect is reported by one check.
 */
import { readXml, XmlReadError, childElements, textContent, resolveQNameValue } from '../../runtime/xml/reader.js';
import { readXmlFast } from '../../runtime/xml/fast-reader.js';
import type { XmlDocument, XmlElement } from '../../runtime/xml/types.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS, XML_NS } from '../../runtime/namespaces.js';
import type { Exchange } from '../types.js';

export type SoapVersion = '1.1' | '1.2';

export function envelopeNamespace(version: SoapVersion): string {
  return version === '1.1' ? SOAP11_ENV_NS : SOAP12_ENV_NS;
}

export function soapMediaType(version: SoapVersion): string {
  return version === '1.1' ? 'text/xml' : 'application/soap+xml';
}

export interface ParsedBody {
  readonly doc?: XmlDocument;
  /** Why the body is not a readable XML document (code + position + detail). */
  readonly error?: { readonly code: string; readonly message: string };
  /** The document is readable only after ignoring its encoding declaration. */
  readonly encodingError?: string;
}

const parsedBodies = new WeakMap<Exchange, ParsedBody>();

/** The response body read with the shared XML reader; memoised per exchange. */
export function parseBody(exchange: Exchange): ParsedBody {
  let parsed = parsedBodies.get(exchange);
  if (parsed === undefined) {
    parsed = readBody(exchange.response.body);
    parsedBodies.set(exchange, parsed);
  }
  return parsed;
}

function readBody(body: Uint8Array): ParsedBody {
  if (body.length === 0) return { error: { code: 'XML_MALFORMED', message: 'the body is empty' } };
  try {
    // The fast path gives readXml's tree or defers to it (same errors): test/runtime/fast-reader.test.ts.
    return { doc: readXmlFast(body) };
  } catch (error) {
    const described = describeReadError(error);
    if (described.code !== 'XML_ENCODING') return { error: described };
    // A wrong encoding declaration on UTF-8 bytes: read the tree anyway so that structural
    // checks still run, and leave the encoding finding to xml.encoding alone.
    const retried = readIgnoringDeclaredEncoding(body);
    return retried === undefined
      ? { error: described, encodingError: described.message }
      : { doc: retried, encodingError: described.message };
  }
}

function readIgnoringDeclaredEncoding(body: Uint8Array): XmlDocument | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
  const patched = text.replace(/^(\uFEFF?<\?xml[^>]*?encoding\s*=\s*)(["'])[^"']*\2/, '$1$2utf-8$2');
  try {
    return readXml(patched);
  } catch {
    return undefined;
  }
}

function describeReadError(error: unknown): { code: string; message: string } {
  if (error instanceof XmlReadError)
    return { code: error.code, message: `${error.code} at ${error.line}:${error.column}: ${error.detail}` };
  return { code: 'XML_MALFORMED', message: error instanceof Error ? error.message : String(error) };
}

export interface MediaType {
  /** Lowercased `type/subtype`, '' when the header is absent. */
  readonly type: string;
  /** Parameters with lowercased names; values unquoted. */
  readonly params: Readonly<Record<string, string>>;
  /** The header exactly as received ('' when absent). */
  readonly raw: string;
}

export function contentTypeOf(headers: Readonly<Record<string, string>>): MediaType {
  const raw = headers['content-type'] ?? '';
  const [type = '', ...rest] = raw.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const value = part.slice(eq + 1).trim();
    params[part.slice(0, eq).trim().toLowerCase()] = value.replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params, raw };
}

export interface SoapView {
  readonly envelope: XmlElement;
  /** The version the envelope namespace names, or undefined for any other namespace. */
  readonly version?: SoapVersion;
  /** Element children of the Envelope, in order. */
  readonly parts: readonly XmlElement[];
  readonly body?: XmlElement;
  readonly bodyChildren: readonly XmlElement[];
}

/** The envelope as received. Body is found in the envelope's own namespace, whatever it is. */
function soapView(doc: XmlDocument): SoapView {
  const envelope = doc.root;
  const version = envelope.ns === SOAP11_ENV_NS ? '1.1' : envelope.ns === SOAP12_ENV_NS ? '1.2' : undefined;
  const parts = childElements(envelope);
  const body = parts.find((el) => el.local === 'Body' && el.ns === envelope.ns);
  const view = { envelope, parts, bodyChildren: body === undefined ? [] : childElements(body) };
  return { ...view, ...(version === undefined ? {} : { version }), ...(body === undefined ? {} : { body }) };
}

export function soapViewOf(exchange: Exchange): SoapView | undefined {
  const { doc } = parseBody(exchange);
  return doc === undefined ? undefined : soapView(doc);
}

export function isFaultElement(el: XmlElement | undefined): boolean {
  return el !== undefined && el.local === 'Fault' && (el.ns === SOAP11_ENV_NS || el.ns === SOAP12_ENV_NS);
}

export interface FaultView {
  readonly version: SoapVersion;
  /** The fault code resolved to a QName ({ns}local); undefined when missing or unresolvable. */
  readonly code?: { readonly ns: string; readonly local: string };
  readonly subcodes: readonly { readonly ns: string; readonly local: string }[];
  readonly reason?: string;
  readonly reasonLang?: string;
  readonly detail?: string;
  /** Required parts that are missing, by their element names. */
  readonly missing: readonly string[];
}

/** A Fault element read in its own version's layout (SOAP 1.1 §4.4, SOAP 1.2 Part 1 §5.4). */
export function readFault(fault: XmlElement): FaultView {
  return fault.ns === SOAP11_ENV_NS ? readFault11(fault) : readFault12(fault);
}

function child(el: XmlElement | undefined, local: string, ns: string): XmlElement | undefined {
  return el === undefined ? undefined : childElements(el).find((c) => c.local === local && c.ns === ns);
}

function qnameOf(el: XmlElement | undefined): { ns: string; local: string } | undefined {
  if (el === undefined) return undefined;
  try {
    return resolveQNameValue(el, textContent(el));
  } catch {
    return undefined;
  }
}

function readFault11(fault: XmlElement): FaultView {
  // SOAP 1.1 §4.4: faultcode and faultstring are unqualified children.
  const code = child(fault, 'faultcode', '');
  const reason = child(fault, 'faultstring', '');
  const detail = child(fault, 'detail', '');
  const missing = [code === undefined ? 'faultcode' : '', reason === undefined ? 'faultstring' : ''].filter(
    (m) => m !== '',
  );
  const resolved = qnameOf(code);
  return {
    version: '1.1',
    subcodes: [],
    missing,
    ...(resolved === undefined ? {} : { code: resolved }),
    ...(reason === undefined ? {} : { reason: textContent(reason) }),
    ...(detail === undefined ? {} : { detail: textContent(detail) }),
  };
}

function readFault12(fault: XmlElement): FaultView {
  const codeEl = child(fault, 'Code', SOAP12_ENV_NS);
  const value = child(codeEl, 'Value', SOAP12_ENV_NS);
  const subcodes: { ns: string; local: string }[] = [];
  for (
    let sub = child(codeEl, 'Subcode', SOAP12_ENV_NS);
    sub !== undefined;
    sub = child(sub, 'Subcode', SOAP12_ENV_NS)
  ) {
    const q = qnameOf(child(sub, 'Value', SOAP12_ENV_NS));
    if (q !== undefined) subcodes.push(q);
  }
  const text = child(child(fault, 'Reason', SOAP12_ENV_NS), 'Text', SOAP12_ENV_NS);
  const detail = child(fault, 'Detail', SOAP12_ENV_NS);
  const missing = [value === undefined ? 'Code/Value' : '', text === undefined ? 'Reason/Text' : ''].filter(
    (m) => m !== '',
  );
  const lang = text?.attributes.find((a) => a.local === 'lang' && a.ns === XML_NS)?.value;
  const resolved = qnameOf(value);
  return {
    version: '1.2',
    subcodes,
    missing,
    ...(resolved === undefined ? {} : { code: resolved }),
    ...(text === undefined ? {} : { reason: textContent(text) }),
    ...(lang === undefined ? {} : { reasonLang: lang }),
    ...(detail === undefined ? {} : { detail: textContent(detail) }),
  };
}

/**
 * A fault in one line with its code and its text apart (`Fault soap:Client: Server was unable to
 * read the request`), never the element's text run together (`soap:ClientServer was …`).
 */
export function faultSummary(fault: XmlElement, shorten: (text: string) => string = (t) => t): string {
  const view = readFault(fault);
  const code = [view.code, ...view.subcodes].filter((q) => q !== undefined).map((q) => q.local);
  const reason = shorten((view.reason ?? '').trim());
  return `Fault ${code.length === 0 ? '(no code)' : code.join('/')}: ${reason === '' ? '(no reason)' : reason}`;
}

/** The response body as text for messages (UTF-8, replacement characters for bad bytes). */
export function bodyText(exchange: Exchange): string {
  return new TextDecoder('utf-8').decode(exchange.response.body);
}

export function clarkOf(name: { ns: string; local: string }): string {
  return `{${name.ns}}${name.local}`;
}
