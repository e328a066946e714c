/**
 * What the bindings put on the wire: the request a client builds and sends (or the conformance
 * runner), what each binding declares its requests look like, and the path of a port address.
 */
import type { CharsetFamily } from './content-type.js';
import type { Protocol } from './descriptor.js';

/** A request as the bindings build it and the client (or the conformance runner) sends it. */
export interface WireRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query, relative to the origin. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** The path part of a port address URL ('' for the root), e.g. '/serviceapi.asmx'. */
export function addressPath(address: string): string {
  const path = new URL(address).pathname;
  return path === '/' ? '' : path.replace(/\/+$/, '');
}

/**
 * What a binding's requests look like on the wire, declared by the binding itself (soap-version/soap11.ts,
 * soap-version/soap12.ts, http/get.ts, http/post.ts), as connect-es's protocol handlers declare
 * `allowedMethods` and `supportedContentType`: the server builds its routing from these
 * declarations once, and never names a method or a media type of a binding itself.
 */
export interface BindingWire {
  readonly protocol: Protocol;
  /** The HTTP methods its requests use. */
  readonly methods: readonly WireRequest['method'][];
  /** The media types of its request bodies, lowercased; none for a binding without a body. */
  readonly mediaTypes: readonly string[];
  /** How an answer naming what the server accepts (415) shows this binding's media types. */
  readonly shownAs: string;
  /**
   * The charsets its request bodies may be in, in the order a 415 names them (a body without a
   * charset parameter is read as the binding reads it: by its BOM and XML declaration, or UTF-8).
   */
  readonly charsets: readonly CharsetFamily[];
}
