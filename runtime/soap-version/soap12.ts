/**
 * SOAP 1.2 specifics: `application/soap+xml; charset=utf-8` with the action as a media-type
 * parameter (no SOAPAction header), faults as Code/Value (soap:Sender / soap:Receiver /
 * soap:VersionMismatch / soap:MustUnderstand), Reason/Text xml:lang="en" and Detail; a
 * MustUnderstand fault lists the blocks in NotUnderstood header blocks, and VersionMismatch
 * carries an Upgrade block (SOAP 1.2 part 1, 5.4.7 and 5.4.8).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { SoapFaultError } from '../errors.js';
import type { XmlElement } from '../xml/types.js';
import { escapeAttr, escapeText } from '../escape/xml.js';
import type { ContentType } from '../content-type.js';
import { faultDetail } from './soap11.js';
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

import {
  SOAP11_ENV_NS,
  SOAP12_ENV_NS,
  SOAP12_ROLE_NEXT as ROLE_NEXT,
  SOAP12_ROLE_ULTIMATE as ROLE_ULTIMATE,
} from '../namespaces.js';

const FAULT_CODES: Record<FaultKind, string> = {
  client: 'soap:Sender',
  server: 'soap:Receiver',
  versionMismatch: 'soap:VersionMismatch',
  mustUnderstand: 'soap:MustUnderstand',
};

function faultHeader(fault: FaultSpec): string {
  if (fault.kind === 'versionMismatch') {
    return `<soap:Header><soap:Upgrade><soap:SupportedEnvelope qname="s12:Envelope" xmlns:s12="${SOAP12_ENV_NS}"/><soap:SupportedEnvelope qname="s11:Envelope" xmlns:s11="${SOAP11_ENV_NS}"/></soap:Upgrade></soap:Header>`;
  }
  if (fault.notUnderstood === undefined || fault.notUnderstood.length === 0) return '';
  let blocks = '';
  for (const name of fault.notUnderstood)
    blocks += `<soap:NotUnderstood qname="q:${name.local}" xmlns:q="${escapeAttr(name.ns, 'NotUnderstood')}"/>`;
  return `<soap:Header>${blocks}</soap:Header>`;
}

export const soap12: SoapVersion = {
  protocol: 'soap12',
  wire: {
    protocol: 'soap12',
    methods: ['POST'],
    mediaTypes: ['application/soap+xml'],
    shownAs: 'application/soap+xml (SOAP 1.2)',
    // XML 1.0 §4.3.3 has every XML processor read both, and WS-I BP R4003 allows both.
    charsets: ['utf-8', 'utf-16'],
  },
  envNs: SOAP12_ENV_NS,
  contentType: 'application/soap+xml; charset=utf-8',
  mustUnderstandAttribute: ' soap:mustUnderstand="true"',
  envelopeOpen: envelopeOpen(SOAP12_ENV_NS),
  requestHeaders(soapAction) {
    return {
      'content-type':
        soapAction === ''
          ? 'application/soap+xml; charset=utf-8'
          : `application/soap+xml; charset=utf-8; action="${soapAction}"`,
    };
  },
  requestAction(_headers: IncomingHttpHeaders, contentType: ContentType) {
    return contentType.action === '' ? undefined : contentType.action;
  },
  writeFault(fault: FaultSpec) {
    let detail = '';
    if (fault.detail !== undefined) {
      const ns = escapeAttr(fault.detail.ns, 'Detail');
      for (const [name, value] of Object.entries(fault.detail.entries))
        detail += `<${name} xmlns="${ns}">${escapeText(value, `Detail/${name}`)}</${name}>`;
    }
    detail += fault.detailElement ?? '';
    return (
      `${this.envelopeOpen}${faultHeader(fault)}<soap:Body><soap:Fault>` +
      `<soap:Code><soap:Value>${FAULT_CODES[fault.kind]}</soap:Value></soap:Code>` +
      `<soap:Reason><soap:Text xml:lang="en">${escapeText(fault.message, 'Reason')}</soap:Text></soap:Reason>` +
      faultDetail(fault.kind, detail, 'soap:Detail') +
      '</soap:Fault></soap:Body></soap:Envelope>'
    );
  },
  readFault(fault: XmlElement, httpStatus: number) {
    const code = child(fault, SOAP12_ENV_NS, 'Code');
    const subcode = code === undefined ? undefined : child(code, SOAP12_ENV_NS, 'Subcode');
    const reason = child(fault, SOAP12_ENV_NS, 'Reason');
    const texts =
      reason === undefined
        ? []
        : reason.children.filter((c): c is XmlElement => c.type === 'element' && c.local === 'Text');
    const english =
      texts.find((t) => t.attributes.some((a) => a.local === 'lang' && a.value.toLowerCase().startsWith('en'))) ??
      texts[0];
    const detailXml = child(fault, SOAP12_ENV_NS, 'Detail');
    return new SoapFaultError({
      code: code === undefined ? '' : qnameText(child(code, SOAP12_ENV_NS, 'Value')).local,
      subcode: subcode === undefined ? undefined : qnameText(child(subcode, SOAP12_ENV_NS, 'Value')).local,
      message: textOf(english),
      detail: detailEntries(detailXml),
      detailXml,
      httpStatus,
      binding: 'soap12',
    });
  },
  mustUnderstand(block: XmlElement) {
    let must = false;
    let targeted = true;
    for (const a of block.attributes) {
      if (a.ns !== SOAP12_ENV_NS) continue;
      const v = a.value.trim();
      if (a.local === 'mustUnderstand') must = mustUnderstandValue(v) === true;
      else if (a.local === 'role') targeted = v === ROLE_NEXT || v === ROLE_ULTIMATE || v === '';
    }
    return must && targeted;
  },
};
