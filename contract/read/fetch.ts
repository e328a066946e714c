/**
 * Fetches one contract document (a WSDL or a schema) over HTTP(S) with the runtime's own
 * network options and bounds: the client's TLS, proxy and auth settings, a time limit and a
 * size limit per document. What comes back must look like XML: an HTML answer is a service's
 * page (an ASMX `.asmx` URL without `?wsdl`), said so with the URL to try instead.
 */
import { resolveNetwork } from '../../runtime/network/resolve.js';
import type { NetworkOptions } from '../../runtime/network/types.js';
import { TransportError } from '../../runtime/errors.js';
import { send } from '../../runtime/transport.js';
import { withoutCredentials } from '../../runtime/network/proxy.js';

export interface FetchLimits {
  /** Per document: connect, headers and body. */
  readonly timeoutMs: number;
  /** Per document. */
  readonly maxBytes: number;
}

/** Why a document could not be fetched, in words fit to follow "cannot read <url>: ". */
export class FetchFailure extends Error {
  override readonly name = 'FetchFailure';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchDocument(url: URL, network: NetworkOptions, limits: FetchLimits): Promise<Buffer> {
  const client = resolveNetwork(url, { ...network, connections: 1, timeoutMs: limits.timeoutMs });
  const headers: Record<string, string> = { accept: 'text/xml, application/xml, */*;q=0.1' };
  if (client.authorization !== undefined) headers.authorization = client.authorization;
  try {
    const response = await send(
      client.dispatcher,
      { method: 'GET', path: `${url.pathname}${url.search}`, headers, body: undefined },
      {
        timeoutMs: limits.timeoutMs,
        maxResponseBytes: limits.maxBytes,
        signal: undefined,
        origin: url.origin,
        wholeCallTimer: client.proxied,
      },
    );
    if (REDIRECTS.has(response.status)) {
      const location = response.headers.location;
      throw new FetchFailure(
        `HTTP ${response.status}: the document moved${typeof location === 'string' ? ` to ${location}` : ''}; give that URL instead`,
      );
    }
    if (response.status !== 200) throw new FetchFailure(`HTTP ${response.status}`);
    return response.body;
  } catch (error) {
    if (error instanceof TransportError) throw new FetchFailure(client.explain(error).message);
    throw error;
  } finally {
    if (client.ownsDispatcher) void client.dispatcher.close().catch(() => {});
  }
}

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i;

/** True when the bytes are an HTML page rather than an XML document. */
export function isHtmlPage(body: Buffer): boolean {
  return HTML_START.test(body.subarray(0, 4096).toString('utf8'));
}

/** How much of an HTML page is looked at to tell what kind of page it is. */
const PAGE_LOOK_BYTES = 64 * 1024;
const LISTING_TITLE = /<(?:title|h1)[^>]*>\s*(?:index of\b|directory listing\b)/i;
const WSDL_LINK = /href\s*=\s*["']?[^"'\s>]*\?(?:wsdl|singlewsdl)\b/i;
const FILE_LINK = /href\s*=\s*["']([^"'?#]+\.wsdl)["']/i;

/**
 * What to say about a URL that answered an HTML page instead of a WSDL, by the kind of page:
 * - a service page (ASMX, WCF, JAX-WS and PHP pages link to their `?wsdl`): the same URL with `?wsdl`;
 * - a directory listing (`Index of /…`): that, and a `.wsdl` file it lists when there is one;
 * - any other page: that it is neither, so no `?wsdl` is suggested that would fail too.
 */
export function htmlPageHint(url: URL, body: Buffer): string {
  if (/(^|&)wsdl\b/i.test(url.search.slice(1)))
    return "this URL answers an HTML page, not a WSDL: check that it is the service's WSDL address";
  const page = body.subarray(0, PAGE_LOOK_BYTES).toString('utf8');
  if (LISTING_TITLE.test(page)) {
    const file = FILE_LINK.exec(page)?.[1];
    const example = file === undefined ? '' : `, e.g. ${withoutCredentials(new URL(file, url))}`;
    return `this is a directory listing, not a WSDL or a service page — give the WSDL file's own URL${example}`;
  }
  if (!WSDL_LINK.test(page))
    return "this is an HTML page that is not a service page (it links to no ?wsdl), not a WSDL — check the service's WSDL address";
  const wsdl = new URL(url);
  wsdl.search = url.search === '' ? '?wsdl' : `${url.search}&wsdl`;
  return `this is a service page, not a WSDL — try ${withoutCredentials(wsdl)}`;
}
