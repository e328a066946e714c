/**
 * `GET {path}?disco`: the DISCO document ASMX serves there — where the contract is (`?wsdl`),
 * where its help page is, and each SOAP binding's address — so that discovery tools (Visual
 * Studio's "Add Web Reference", wsdl.exe /disco) find the service.
 */
import { escapeAttr } from '../../escape/xml.js';
import type { HelpSite } from './site.js';

import { DISCO_NS, DISCO_SCL_NS as SCL_NS, DISCO_SOAP_NS, XSD_NS, XSI_NS } from '../../namespaces.js';

/** `origin` is the scheme://host:port the request was addressed to; `path` the page's path. */
export function renderDisco(site: HelpSite, origin: string, path: string): string {
  const attr = (value: string): string => escapeAttr(value, 'disco');
  const docRef = site.mode === 'off' ? '' : ` docRef="${attr(origin + path)}"`;
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<discovery xmlns:xsd="${XSD_NS}" xmlns:xsi="${XSI_NS}" xmlns="${DISCO_NS}">`,
    `  <contractRef ref="${attr(`${origin}${path}?wsdl`)}"${docRef} xmlns="${SCL_NS}" />`,
  ];
  site.soapEndpoints.forEach(({ binding, path: address }, i) => {
    const prefix = `q${i + 1}`;
    lines.push(
      `  <soap address="${attr(origin + address)}" xmlns:${prefix}="${attr(site.d.targetNamespace)}" binding="${prefix}:${attr(binding.name)}" xmlns="${DISCO_SOAP_NS}" />`,
    );
  });
  lines.push('</discovery>');
  return lines.join('\n');
}
