/**
 * The network options made ready for a caller that writes its own requests rather than going
 * through a ServiceClient's dispatcher: the conformance runner, whose keep-alive pool and raw
 * sockets (the over-size cases) both need the TLS settings, the proxy route, the Authorization
 * value and the secrets to redact. Same options, same checks and same TypeErrors naming the
 * option (never its value) as the client's (resolve.ts).
 *
 * One target, so a proxy is one route for all of it: the URL given, or the one the environment
 * gives for the target (HTTPS_PROXY or HTTP_PROXY, unless NO_PROXY names the host, read as
 * undici's EnvHttpProxyAgent reads them).
 */
import type tls from 'node:tls';
import type { UsernameTokenOptions } from '../wsse/types.js';
import { checkUsernameTokenOptions } from '../wsse/header.js';
import { authSecrets, authorizationValue } from './auth.js';
import { readProxyOption } from './proxy.js';
import { caOnlyContext, type TlsConnectOptions, tlsConnectOptions } from './tls.js';
import type { NetworkOptions } from './types.js';

/** The network options of raw sockets: a client's, without a dispatcher of one's own (raw sockets use none). */
export type RawNetworkOptions = Omit<NetworkOptions, 'dispatcher'>;

/** The proxy requests go through. */
export interface ProxyRoute {
  /** The proxy's URL without credentials (shown in traces and curl commands). */
  readonly url: string;
  /** `Basic …` from the URL's credentials, sent as Proxy-Authorization. */
  readonly authorization: string | undefined;
  /** The extra CAs, for an https proxy's own certificate. */
  readonly secureContext: tls.SecureContext | undefined;
}

/** The options made ready to send with, for one URL. */
export interface RawNetwork {
  /** The service's TLS settings (https URLs, and inside a proxy's tunnel). */
  readonly tls: TlsConnectOptions | undefined;
  /** A client certificate is offered (mutual TLS). */
  readonly clientCertificate: boolean;
  readonly proxy: ProxyRoute | undefined;
  /** `Authorization` for every request. */
  readonly authorization: string | undefined;
  readonly wsse: UsernameTokenOptions | undefined;
  /** Every secret of the options, in each spelling it takes on the wire. */
  readonly secrets: readonly string[];
}

type Environment = Readonly<Record<string, string | undefined>>;

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** Whether NO_PROXY (or no_proxy) exempts the host: `*`, the host itself or a parent domain, with a port or not. */
function exemptFromProxy(url: URL, env: Environment): boolean {
  const value = env.no_proxy ?? env.NO_PROXY ?? '';
  if (value === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of value.split(/[,\s]/)) {
    if (entry === '') continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed === null ? 0 : Number.parseInt(parsed[2]!, 10);
    if (entryPort !== 0 && entryPort !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return true;
  }
  return false;
}

/** The proxy variable that applies to `url`, lower-case names first, or undefined for a direct connection. */
function proxyFromEnvironment(url: URL, env: Environment): { name: string; value: string } | undefined {
  const names =
    url.protocol === 'https:'
      ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']
      : ['http_proxy', 'HTTP_PROXY'];
  const name = names.find((n) => env[n] !== undefined && env[n] !== '');
  if (name === undefined || exemptFromProxy(url, env)) return undefined;
  return { name, value: env[name]! };
}

function routeOf(
  url: URL,
  options: RawNetworkOptions,
  env: Environment,
): { route: ProxyRoute; secrets: readonly string[] } | undefined {
  if (options.proxy === undefined) return undefined;
  let choice: ReturnType<typeof readProxyOption>;
  if (typeof options.proxy === 'string') choice = readProxyOption(options.proxy);
  else {
    // Checks the option's own shape, whatever the environment holds.
    readProxyOption(options.proxy);
    const found = proxyFromEnvironment(url, env);
    if (found === undefined) return undefined;
    choice = readProxyOption(found.value, `the ${found.name} environment variable`);
  }
  if (choice.kind !== 'url') return undefined;
  const secureContext = options.tls === undefined ? undefined : caOnlyContext(options.tls);
  return { route: { url: choice.url, authorization: choice.authorization, secureContext }, secrets: choice.secrets };
}

/**
 * The network settings for requests to `url`, checked. `env` is read only for `proxy: { fromEnv:
 * true }` (default: the process's environment, as the runtime's clients read it).
 */
export function resolveRawNetwork(url: URL, options: RawNetworkOptions, env: Environment = process.env): RawNetwork {
  const tls = options.tls === undefined ? undefined : tlsConnectOptions(options.tls);
  const authorization = options.auth === undefined ? undefined : authorizationValue(options.auth);
  const wsse = options.wsse === undefined ? undefined : checkUsernameTokenOptions(options.wsse);
  const proxy = routeOf(url, options, env);
  const secrets = [
    ...(options.auth === undefined || authorization === undefined ? [] : authSecrets(options.auth, authorization)),
    ...(proxy?.secrets ?? []),
    ...(options.tls?.passphrase === undefined ? [] : [options.tls.passphrase]),
    ...(wsse === undefined ? [] : [wsse.password]),
  ].filter((secret) => secret !== '');
  return { tls, clientCertificate: options.tls?.cert !== undefined, proxy: proxy?.route, authorization, wsse, secrets };
}
