/**
 * Serving `?wsdl`: the contract with every port address (soap:address, soap12:address,
 * http:address, whatever their prefixes) rewritten to the origin the client used, so that a
 * client reading the WSDL calls this server and not the one the WSDL was written for.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { escapeBareAmpersands } from '../escape/xml.js';

const ADDRESS = /(<(?:[A-Za-z_][\w.-]*:)?address\b[^>]*?\blocation\s*=\s*)(["'])([^"']*)\2/g;
/** A Host header we are willing to echo into a document: a host name or IP literal and a port. */
const SAFE_HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Whether the query asks for the contract: a `wsdl` parameter, with or without a value, among any
 * others and in any case (`?wsdl`, `?WSDL`, `?wsdl=`, `?wsdl&x=1`), as ASMX reads it.
 */
export function isWsdlQuery(query: string): boolean {
  if (query.length === 4) return query.toLowerCase() === 'wsdl';
  for (const part of query.split('&')) {
    const name = part.split('=', 1)[0]!;
    if (name.length === 4 && name.toLowerCase() === 'wsdl') return true;
  }
  return false;
}

/** The scheme://host:port the request was addressed to. */
export function requestOrigin(req: IncomingMessage, trustForwarded: boolean): string {
  let scheme = (req.socket as TLSSocket).encrypted === true ? 'https' : 'http';
  let host = req.headers.host;
  if (trustForwarded) {
    const proto = firstValue(req.headers['x-forwarded-proto']);
    if (proto === 'http' || proto === 'https') scheme = proto;
    const forwardedHost = firstValue(req.headers['x-forwarded-host']);
    if (forwardedHost !== undefined) host = forwardedHost;
  }
  if (host === undefined || !SAFE_HOST.test(host)) {
    const address = req.socket.localAddress ?? '127.0.0.1';
    host = `${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}`;
  }
  return `${scheme}://${host}`;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim().toLowerCase();
}

/** Rewrites every port address's scheme, host and port; the path is kept. */
export function rewriteWsdlAddresses(wsdl: string, origin: string): string {
  return wsdl.replace(ADDRESS, (_match, head: string, quote: string, location: string) => {
    let path: string;
    try {
      const url = new URL(location);
      path = url.pathname + url.search;
    } catch {
      path = location.startsWith('/') ? location : `/${location}`;
    }
    return `${head}${quote}${origin}${escapeBareAmpersands(path)}${quote}`;
  });
}

/** A small cache: the rewritten document per origin (clients usually use one or two). */
export class WsdlCache {
  private readonly byOrigin = new Map<string, Buffer>();
  constructor(private readonly wsdl: string) {}
  get(origin: string): Buffer {
    let doc = this.byOrigin.get(origin);
    if (doc === undefined) {
      doc = Buffer.from(rewriteWsdlAddresses(this.wsdl, origin), 'utf8');
      if (this.byOrigin.size >= 32) this.byOrigin.clear();
      this.byOrigin.set(origin, doc);
    }
    return doc;
  }
}
