/**
 * The faults a UsernameToken check answers: WSS 1.0 (SOAP Message Security 1.0, section 12)
 * names each failure with a QName in the wsse namespace. SOAP 1.1 carries it as the faultcode
 * itself, as the WSS spec shows and WCF and WSS4J send it; SOAP 1.2 as the Subcode under
 * `soap:Sender`. No detail: SOAP 1.1 reserves detail for errors in the Body, and these are about
 * a header.
 */
import type { SoapVersion } from '../soap-version/version.js';
import { escapeText } from '../escape/xml.js';
import { WSSE_NS } from '../namespaces.js';

export type WsseFaultCode =
  | 'UnsupportedSecurityToken'
  | 'InvalidSecurity'
  | 'InvalidSecurityToken'
  | 'FailedAuthentication'
  | 'MessageExpired';

export interface WsseFault {
  readonly code: WsseFaultCode;
  /** The fault string: the WSS spec's text, plus what was wrong where that tells an attacker nothing. Never a secret. */
  readonly message: string;
}

/** The complete fault document in the request's SOAP version. */
export function writeSecurityFault(version: SoapVersion, fault: WsseFault): string {
  const reason = escapeText(fault.message, 'faultstring');
  const code = `xmlns:wsse="${WSSE_NS}">wsse:${fault.code}`;
  const body =
    version.protocol === 'soap11'
      ? `<soap:Fault><faultcode ${code}</faultcode><faultstring>${reason}</faultstring></soap:Fault>`
      : `<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value ${code}</soap:Value></soap:Subcode></soap:Code>` +
        `<soap:Reason><soap:Text xml:lang="en">${reason}</soap:Text></soap:Reason></soap:Fault>`;
  return `${version.envelopeOpen}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}
