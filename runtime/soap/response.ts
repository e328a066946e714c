/** The success response envelope of a SOAP operation. */
import type { OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { encodeBody, encodeHeaders } from '../message.js';
import type { SoapVersion } from './version.js';

/**
 * The response envelope. `echoMustUnderstand`: request header blocks that carried
 * mustUnderstand; a response block of the same property (an in-out header) carries it back, as
 * ASMX writes an InOut SoapHeader object with the MustUnderstand it was read with — as "1" in
 * both SOAP versions, which is what ASMX writes (SOAP 1.2 takes "1" as true).
 */
export function encodeSoapResponse(
  d: ServiceDescriptor,
  version: SoapVersion,
  op: OperationDescriptor,
  output: unknown,
  soapHeaders?: object,
  echoMustUnderstand?: readonly string[],
): string {
  const echoed =
    soapHeaders === undefined || echoMustUnderstand === undefined
      ? []
      : echoMustUnderstand.filter((p) => (soapHeaders as Record<string, unknown>)[p] !== undefined);
  const must = echoed.length > 0 ? { props: echoed, attribute: ' soap:mustUnderstand="1"' } : undefined;
  const headers = soapHeaders === undefined ? '' : encodeHeaders(d, op.outputHeaders, soapHeaders, must);
  return `${version.envelopeOpen}${headers === '' ? '' : `<soap:Header>${headers}</soap:Header>`}<soap:Body>${encodeBody(d, op.output, output, op.name)}</soap:Body></soap:Envelope>`;
}
