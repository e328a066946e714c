/**
 * SOAP 1.1 specifics: `text/xml; charset=utf-8`, the quoted SOAPAction header, faults as
 * faultcode (soap:Client / soap:Server / soap:VersionMismatch / soap:MustUnderstand),
 * faultstring and detail. The shared request/response logic is in soap/client.ts and the server's
 * decoding and encoding in soap/ (soap/envelope.ts, soap/request-decoder.ts, soap/response.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { SoapFaultError } from '../errors.js';
import type { XmlElement } from '../xml/types.js';
import { escapeAttr, escapeText } from '../escape/xml.js';
import { unquote, type ContentType } from '../content-type.js';
import {
  child,
  detailEntries,
  envelopeOpen,
  mustUnderstandValue,
  qnameText,
  textOf,
  type FaultKind,
  type FaultSpec,
  type SoapVersion,
} from './version.js';

import { SOAP11_ACTOR_NEXT as ACTOR_NEXT, SOAP11_ENV_NS } from '../namespaces.js';

const FAULT_CODES: Record<FaultKind, string> = {
  client: 'soap:Client',
  server: 'soap:Server',
  versionMismatch: 'soap:VersionMismatch',
  mustUnderstand: 'soap:MustUnderstand',
};

/**
 * A Client or Server fault always has a detail, empty when there is nothing to say (SOAP 1.1
 * section 4.4: it MUST be present when the Body could not be processed; ASMX writes `<detail />`
 * on every such fault); a MustUnderstand or VersionMismatch fault, about headers or the
 * envelope, has none (it MUST NOT carry header errors).
 */
export function faultDetail(kind: FaultKind, entries: string, tag: string): string {
  if (kind === 'mustUnderstand' || kind === 'versionMismatch') return '';
  return entries === '' ? `<${tag}/>` : `<${tag}>${entries}</${tag}>`;
}

/**
 * The last SOAPAction header read and its action. A client sends the same header with every
 * call; giving back the same string also lets a shape decoder see at a glance that it routed
 * this action already (soap/shape-decoder.ts).
 */
let lastAction: { raw: string | undefined; action: string | undefined } = { raw: undefined, action: undefined };

export const soap11: SoapVersion = {
  protocol: 'soap11',
  wire: {
    protocol: 'soap11',
    methods: ['POST'],
    mediaTypes: ['text/xml'],
    shownAs: 'text/xml (SOAP 1.1)',
    // XML 1.0 §4.3.3 has every XML processor read both, and WS-I BP R4003 allows both.
    charsets: ['utf-8', 'utf-16'],
  },
  envNs: SOAP11_ENV_NS,
  contentType: 'text/xml; charset=utf-8',
  mustUnderstandAttribute: ' soap:mustUnderstand="1"',
  envelopeOpen: envelopeOpen(SOAP11_ENV_NS),
  requestHeaders(soapAction) {
    return { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${soapAction}"` };
  },
  requestAction(headers: IncomingHttpHeaders, _contentType: ContentType) {
    const raw = headers.soapaction;
    if (typeof raw !== 'string') return undefined;
    if (raw === lastAction.raw) return lastAction.action;
    const unquoted = unquote(raw.trim());
    const action = unquoted === '' ? undefined : unquoted;
    lastAction = { raw, action };
    return action;
  },
  writeFault(fault: FaultSpec) {
    let detail = '';
    if (fault.detail !== undefined) {
      const ns = escapeAttr(fault.detail.ns, 'detail');
      for (const [name, value] of Object.entries(fault.detail.entries))
        detail += `<${name} xmlns="${ns}">${escapeText(value, `detail/${name}`)}</${name}>`;
    }
    detail += fault.detailElement ?? '';
    return (
      `${this.envelopeOpen}<soap:Body><soap:Fault><faultcode>${FAULT_CODES[fault.kind]}</faultcode>` +
      `<faultstring>${escapeText(fault.message, 'faultstring')}</faultstring>` +
      faultDetail(fault.kind, detail, 'detail') +
      '</soap:Fault></soap:Body></soap:Envelope>'
    );
  },
  readFault(fault: XmlElement, httpStatus: number) {
    // faultcode/faultstring/detail are unqualified in SOAP 1.1; some stacks qualify them anyway.
    const codeEl = child(fault, '', 'faultcode') ?? child(fault, SOAP11_ENV_NS, 'faultcode');
    const code = qnameText(codeEl).local;
    const dot = code.indexOf('.');
    const detailXml = child(fault, '', 'detail') ?? child(fault, SOAP11_ENV_NS, 'detail');
    return new SoapFaultError({
      code: dot < 0 ? code : code.slice(0, dot),
      subcode: dot < 0 ? undefined : code.slice(dot + 1),
      message: textOf(child(fault, '', 'faultstring') ?? child(fault, SOAP11_ENV_NS, 'faultstring')),
      detail: detailEntries(detailXml),
      detailXml,
      httpStatus,
      binding: 'soap11',
    });
  },
  mustUnderstand(block: XmlElement) {
    let must = false;
    let targeted = true;
    for (const a of block.attributes) {
      if (a.ns !== SOAP11_ENV_NS) continue;
      if (a.local === 'mustUnderstand') must = mustUnderstandValue(a.value) === true;
      else if (a.local === 'actor') targeted = a.value.trim() === ACTOR_NEXT;
    }
    return must && targeted;
  },
};
