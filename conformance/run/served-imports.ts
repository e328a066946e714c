/**
 * The `wsdl` case reads the served `?wsdl` as a client would, imports included: PHP, JAX-WS and
 * WCF services put their types in documents the WSDL imports (wsdl:import, xsd:import,
 * xsd:include by URL). The runner fetches them through the same transport as every case (its
 * TLS, proxy, headers, time and size limits), from the target's origin only, like the WSDL
 * loader without --allow-import-host, and at most 32 documents in all; an import elsewhere is
 * refused with the reason, which the check reports if the contract needs it.
 */
import { collectServedImports } from '../../contract/read/index.js';
import type { Exchange } from '../types.js';
import { TransportFailure, type Transport } from './transport.js';

export async function withServedImports(
  transport: Transport,
  exchange: Exchange,
  signal: AbortSignal,
): Promise<Exchange> {
  if (exchange.response.status !== 200) return exchange;
  const origin = new URL(exchange.request.url).origin;
  const fetch = async (url: URL): Promise<Uint8Array | string> => {
    if (url.origin !== origin) return `not fetched: ${url.href} is not on the target's origin (${origin})`;
    try {
      const fetched = await transport.send(
        { method: 'GET', path: `${url.pathname}${url.search}`, headers: { accept: 'text/xml, application/xml' } },
        signal,
      );
      if (fetched.response.status !== 200) return `the server answered HTTP ${fetched.response.status}`;
      return fetched.response.body;
    } catch (error) {
      if (error instanceof TransportFailure) return error.message;
      throw error;
    }
  };
  const imports = await collectServedImports(exchange.response.body, exchange.request.url, fetch);
  return imports.documents.size === 0 && imports.refused.size === 0 ? exchange : { ...exchange, imports };
}
