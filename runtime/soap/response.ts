/** The success response envelope of a SOAP operation. */
import { Buffer } from 'node:buffer';
import { UNCOUNTED, type Written } from '../codec/plain-writer.js';
import type { OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { encodeHeaders, writeBody } from '../message.js';
import type { SoapVersion } from '../soap-version/version.js';

const BODY_OPEN = '<soap:Body>';
const BODY_CLOSE = '</soap:Body></soap:Envelope>';

/** UTF-8 bytes of each version's envelope around a Body without headers. */
const envelopeByteCounts = new WeakMap<SoapVersion, number>();

function envelopeBytes(version: SoapVersion): number {
  let bytes = envelopeByteCounts.get(version);
  if (bytes === undefined)
    envelopeByteCounts.set(version, (bytes = Buffer.byteLength(version.envelopeOpen + BODY_OPEN + BODY_CLOSE)));
  return bytes;
}

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
): Written {
  const echoed =
    soapHeaders === undefined || echoMustUnderstand === undefined
      ? []
      : echoMustUnderstand.filter((p) => (soapHeaders as Record<string, unknown>)[p] !== undefined);
  const must = echoed.length > 0 ? { props: echoed, attribute: ' soap:mustUnderstand="1"' } : undefined;
  const headers = soapHeaders === undefined ? '' : encodeHeaders(d, op.outputHeaders, soapHeaders, must);
  const body = writeBody(d, op.output, output, op.name);
  const header = headers === '' ? '' : `<soap:Header>${headers}</soap:Header>`;
  const text = `${version.envelopeOpen}${header}${BODY_OPEN}${body.text}${BODY_CLOSE}`;
  // Headers are written by the generic encoder, which does not count: then writeText measures.
  const counted = header === '' && body.bytes !== UNCOUNTED;
  return { text, bytes: counted ? envelopeBytes(version) + body.bytes : UNCOUNTED };
}
