/**
 * The undici dispatcher a client sends through, chosen from its network options: a keep-alive
 * Pool to the origin (the fast path), that Pool with TLS settings, or undici's own ProxyAgent /
 * EnvHttpProxyAgent. Every pool involved (to the origin, to the proxy for CONNECT, the one that
 * forwards absolute-form requests) has the call's connect, headers and body time limits and the
 * client's connection limit. Through a proxy one call takes several such steps, so the client
 * also arms one deadline for the whole call there (`proxied`).
 */
import { EnvHttpProxyAgent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import type { ProxyChoice } from './proxy.js';
import type { TlsAlertLog } from './tls-alerts.js';
import { caOnlyContext, tlsConnectOptions } from './tls.js';
import type { ClientTlsOptions } from './types.js';

export interface DispatcherSettings {
  /** Keep-alive connections per origin. */
  readonly connections: number;
  /** Connect, headers and body time limit. */
  readonly timeoutMs: number;
  readonly tls?: ClientTlsOptions | undefined;
  readonly proxy?: ProxyChoice | undefined;
  /** Records the TLS alerts of direct https connections, for errors that name them. */
  readonly alerts?: TlsAlertLog | undefined;
}

const KEEP_ALIVE_MS = 4_000;

export function createDispatcher(origin: URL, settings: DispatcherSettings): Dispatcher {
  const tls = settings.tls === undefined ? {} : tlsConnectOptions(settings.tls);
  const limits = {
    connections: settings.connections,
    keepAliveTimeout: KEEP_ALIVE_MS,
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  };
  const connect = { timeout: settings.timeoutMs, ...tls };
  // Direct connections (no proxy, or a host NO_PROXY excludes); a tunnel's TLS is undici's own.
  const direct = settings.alerts === undefined ? connect : settings.alerts.connector(connect);
  if (settings.proxy === undefined) return new Pool(origin.origin, { ...limits, connect: direct });
  // The extra CAs also check an https proxy's own certificate (a company CA usually signs both);
  // the client certificate is for the service only.
  const proxyCa = settings.tls === undefined ? undefined : caOnlyContext(settings.tls);
  // undici's own pools (to the proxy, and the one forwarding http requests) would otherwise
  // have its defaults: a 300 s headers timeout and no connection limit.
  const limited = (url: string | URL, options: object): Dispatcher => new Pool(url, { ...limits, ...options });
  const proxied = {
    ...limits,
    // http targets go to an http proxy as absolute-form requests, as proxies expect; https ones
    // (and everything through an https proxy) through a CONNECT tunnel, with the service's TLS
    // settings inside it.
    proxyTunnel: false,
    requestTls: connect,
    proxyTls: { timeout: settings.timeoutMs, ...(proxyCa === undefined ? {} : { secureContext: proxyCa }) },
    connect: direct,
    clientFactory: limited,
    factory: limited,
  };
  if (settings.proxy.kind === 'env') return new EnvHttpProxyAgent(proxied);
  return new ProxyAgent({
    ...proxied,
    uri: settings.proxy.url,
    ...(settings.proxy.authorization === undefined ? {} : { token: settings.proxy.authorization }),
  });
}
