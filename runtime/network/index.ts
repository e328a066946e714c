/**
 * The network layer of the client (TLS, proxies, HTTP authentication, one's own dispatcher)
 * and of `listen` (HTTPS): docs/networks.md.
 */
export type { ClientTlsOptions, HttpAuth, NetworkOptions, Pem, ProxyOption } from './types.js';
export { tlsConnectOptions, caOnlyContext, type TlsConnectOptions } from './tls.js';
export { authorizationValue } from './auth.js';
export { readProxyOption, withoutCredentials, PROXY_VARIABLES, type ProxyChoice } from './proxy.js';
export { createDispatcher, type DispatcherSettings } from './dispatcher.js';
export { resolveNetwork, type ClientNetwork, type NetworkSettings } from './resolve.js';
export { redact, REDACTED } from './redact.js';
export { tlsReason } from './tls-reasons.js';
export { serverTlsOptions, type ServerTlsOptions } from './server-tls.js';
export { TlsAlertLog } from './tls-alerts.js';
