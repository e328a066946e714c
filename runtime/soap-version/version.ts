/** What differs between SOAP 1.1 and SOAP 1.2; implemented by soap11.ts and soap12.ts. */
import type { IncomingHttpHeaders } from 'node:http';
import type { NameDescriptor } from '../descriptor.js';
import type { SoapFaultError } from '../errors.js';
import type { XmlElement } from '../xml/types.js';
import type { ContentType } from '../content-type.js';
import type { BindingWire } from '../wire.js';

/** Fault families, named for what happened (each version has its own code for them). */
export type FaultKind = 'client' | 'server' | 'versionMismatch' | 'mustUnderstand';

export interface FaultSpec {
  readonly kind: FaultKind;
  /** Human text for faultstring / Reason. Never an internal message or a stack trace. */
  readonly message: string;
  /** Leaf elements for the detail, written in `ns`. */
  readonly detail?: { readonly ns: string; readonly entries: Readonly<Record<string, string>> };
  /** A declared fault's detail element, encoded (written after `detail`'s entries). */
  readonly detailElement?: string;
  /** MustUnderstand: the header blocks that were not understood. */
  readonly notUnderstood?: readonly NameDescriptor[];
}

export interface SoapVersion {
  readonly protocol: 'soap11' | 'soap12';
  /** What its requests look like: POST, and the media type a server routes by. */
  readonly wire: BindingWire;
  readonly envNs: string;
  /** Content-Type of every message this side sends, without the action parameter. */
  readonly contentType: string;
  /** `<?xml ...?><soap:Envelope ...>` with the xsi/xsd namespaces declared, ready to concatenate. */
  readonly envelopeOpen: string;
  /** Client: HTTP headers naming the action (SOAPAction for 1.1, the action parameter for 1.2). */
  requestHeaders(soapAction: string): Record<string, string>;
  /** Server: the action the request names, undefined when it names none. */
  requestAction(headers: IncomingHttpHeaders, contentType: ContentType): string | undefined;
  /** A complete fault document. */
  writeFault(fault: FaultSpec): string;
  /** Client: the error for a received Fault element. */
  readFault(fault: XmlElement, httpStatus: number): SoapFaultError;
  /** Whether a header block is addressed to this node and carries mustUnderstand true. */
  mustUnderstand(block: XmlElement): boolean;
  /** The attribute that marks a header block mustUnderstand (the envelope declares `soap`). */
  readonly mustUnderstandAttribute: string;
}

import { XSD_NS, XSI_NS } from '../namespaces.js';

export function envelopeOpen(envNs: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}" xmlns:xsi="${XSI_NS}" xmlns:xsd="${XSD_NS}">`;
}

/** Leaf text of each element child of a detail element (structured entries are skipped). */
export function detailEntries(detail: XmlElement | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (detail === undefined) return out;
  for (const child of detail.children) {
    if (child.type !== 'element') continue;
    if (child.children.every((c) => c.type === 'text'))
      out[child.local] = child.children.map((c) => (c.type === 'text' ? c.text : '')).join('');
  }
  return out;
}

/** The first child element named `{ns}local` (ns '' for unqualified). */
export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  for (const c of el.children) if (c.type === 'element' && c.local === local && c.ns === ns) return c;
  return undefined;
}

export function textOf(el: XmlElement | undefined): string {
  if (el === undefined) return '';
  let text = '';
  for (const c of el.children) text += c.type === 'text' ? c.text : textOf(c);
  return text;
}

/** Resolves a QName-valued text (`soap:Client`) to its local name and namespace. */
export function qnameText(el: XmlElement | undefined): { ns: string; local: string } {
  const text = textOf(el).trim();
  const colon = text.indexOf(':');
  if (colon < 0) return { ns: el?.namespaces[''] ?? '', local: text };
  return { ns: el?.namespaces[text.slice(0, colon)] ?? '', local: text.slice(colon + 1) };
}

/**
 * A mustUnderstand attribute's value as a boolean, or undefined when it is none: SOAP 1.1 §4.2.3
 * allows "0" and "1", SOAP 1.2 Part 1 §5.2.3 an xs:boolean; both versions read all four.
 */
export function mustUnderstandValue(value: string): boolean | undefined {
  const v = value.trim();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return undefined;
}
