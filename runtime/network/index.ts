/**
 * The network layer of the client (TLS, proxies, HTTP authentication, one's own dispatcher)
 * and of `listen` (HTTPS): docs/networks.md. The public types; the modules import each other
 * directly.
 */
export type { ClientTlsOptions, HttpAuth, NetworkOptions, Pem, ProxyOption } from './types.js';
export type { ServerTlsOptions } from './server-tls.js';
