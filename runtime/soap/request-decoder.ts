/**
 * Reading SOAP requests for one server: the envelope through the shape cache, then a shape
 * decoder for shapes that keep coming, else the generic route-and-decode (envelope.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ServiceDescriptor } from '../descriptor.js';
import type { ContentType } from '../content-type.js';
import { xmlBodyInput } from '../xml/body-encoding.js';
import { ShapeCache, type ShapeMatch } from '../xml/shape-cache.js';
import type { XmlReadLimits } from '../xml/types.js';
import type { SoapEndpoint, SoapEndpoints } from './endpoint.js';
import {
  decodeSoapDocument,
  routeOperation,
  routeSoapDocument,
  type SoapDecoded,
  type SoapRouted,
} from './envelope.js';
import { shapeDecoderFor, type ShapeDecoder } from './shape-decoder.js';
import type { SoapVersion } from '../soap-version/version.js';

/**
 * Reads, routes and decodes SOAP requests for one server: envelopes go through a shape cache
 * (xml/shape-cache.ts) and, for shapes that keep coming, a shape decoder (shape-decoder.ts) that
 * gives the generic path's result from the texts alone.
 */
export class SoapRequestDecoder {
  /** Requests answered by a shape decoder (for tests and diagnostics). */
  shapeDecodedReads = 0;
  private readonly shapes: ShapeCache;
  /** Per shape: its shape decoder, or null when the shape is outside the plain case. */
  private readonly shapeDecoders = new WeakMap<ShapeMatch, ShapeDecoder<SoapEndpoint> | null>();

  /**
   * `understandsWsSecurity`: the server verifies WS-Security headers, so a `wsse:Security`
   * block marked mustUnderstand is understood (no MustUnderstand fault) and is handed over in
   * `securityHeaders`; otherwise it is any other header block.
   */
  constructor(
    private readonly d: ServiceDescriptor,
    limits: XmlReadLimits | undefined,
    private readonly understandsWsSecurity = false,
  ) {
    this.shapes = new ShapeCache(limits === undefined ? {} : { limits });
  }

  /**
   * `fallback` is the version the Content-Type suggests: it is used for faults when the
   * envelope cannot tell (malformed XML, unknown version). The body may be UTF-8 or UTF-16, as
   * its BOM or the Content-Type's charset says (xml/body-encoding.ts). Throws XmlReadError for a
   * document that is not well-formed (or over a limit, or not in its encoding), as readXml does.
   */
  decode(
    endpoints: SoapEndpoints,
    fallback: SoapVersion,
    headers: IncomingHttpHeaders,
    contentType: ContentType,
    body: Uint8Array,
  ): SoapDecoded {
    const found = this.shapes.lookup(xmlBodyInput(body, contentType.charset), contentType.charset);
    const understands = this.understandsWsSecurity;
    if ('root' in found)
      return decodeSoapDocument(this.d, endpoints, fallback, headers, contentType, found, understands);
    const shapeDecoder = this.shapeDecoders.get(found);
    if (shapeDecoder != null && shapeDecoder.endpoints === endpoints) {
      const byShape = shapeDecoder.run(found.texts, headers, contentType, routeOperation);
      if (byShape !== undefined) {
        found.release();
        this.shapeDecodedReads++;
        return byShape;
      }
    }
    const doc = found.document(); // (also when the shape decoder declined: the generic path says why)
    const decoded = decodeSoapDocument(this.d, endpoints, fallback, headers, contentType, doc, understands);
    if (shapeDecoder === undefined && decoded.ok)
      this.shapeDecoders.set(found, shapeDecoderFor(this.d, endpoints, decoded.endpoint, decoded.op, doc) ?? null);
    return decoded;
  }

  /**
   * Like decode, but the Body and declared headers are decoded only when `decodeInput` is
   * called (it throws what decode throws): a server that verifies WS-Security checks the token
   * first, so an unauthenticated caller costs no Body decode and gets no codec fault. Always
   * the generic path: a shape decoder decodes the Body as it routes.
   */
  route(
    endpoints: SoapEndpoints,
    fallback: SoapVersion,
    headers: IncomingHttpHeaders,
    contentType: ContentType,
    body: Uint8Array,
  ): SoapRouted {
    const found = this.shapes.lookup(xmlBodyInput(body, contentType.charset), contentType.charset);
    const doc = 'root' in found ? found : found.document();
    return routeSoapDocument(this.d, endpoints, fallback, headers, contentType, doc, this.understandsWsSecurity);
  }
}
