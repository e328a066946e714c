/** A fault in reports: its code and its text apart, in both SOAP versions. */
import { describe, expect, it } from 'vitest';
import { childElements } from '../../runtime/xml/helpers.js';
import { readXml } from '../../runtime/xml/reader.js';
import { faultSummary } from '../../conformance/validate/response-view.js';

function fault(envelope: string) {
  const body = childElements(readXml(envelope).root).find((e) => e.local === 'Body')!;
  return childElements(body)[0]!;
}

describe('faultSummary', () => {
  it.each([
    [
      'SOAP 1.1 (ASMX)',
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read the request</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>',
      'Fault Client: Server was unable to read the request',
    ],
    [
      'SOAP 1.2 with a subcode',
      '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value xmlns:a="urn:a">a:Bad</s:Value></s:Subcode></s:Code><s:Reason><s:Text xml:lang="en">Server was unable to read the request</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>',
      'Fault Sender/Bad: Server was unable to read the request',
    ],
    [
      'a fault without its parts',
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault/></soap:Body></soap:Envelope>',
      'Fault (no code): (no reason)',
    ],
  ])('%s', (_name, xml, want) => {
    expect(faultSummary(fault(xml))).toBe(want);
  });
});
