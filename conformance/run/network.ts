/**
 * How the runner reaches its target over a real network, from the options a ServiceClient takes
 * (runtime/network, docs/networks.md): TLS beyond Node's defaults (a company CA, a client
 * certificate), an HTTP proxy, HTTP Basic or Bearer on every request, and a WS-Security
 * UsernameToken in every SOAP request. A malformed option is the runtime's TypeError naming it
 * (never its value). Every secret the options hold is listed for the run's redaction.
 *
 * A run has one target, so a proxy is one route for all of it: the URL given, or the one the
 * environment gives for the target (HTTPS_PROXY or HTTP_PROXY, unless NO_PROXY names the host,
 * read as undici's EnvHttpProxyAgent reads them). The keep-alive pool and the raw sockets of the
 * over-size cases both take that route.
 */
import type tls from 'node:tls';
import type { ClientTlsOptions, HttpAuth, ProxyOption, UsernameTokenOptions } from '../../runtime/index.js';
import { authSecrets, authorizationValue } from '../../runtime/network/auth.js';
import { readProxyOption } from '../../runtime/network/proxy.js';
import { caOnlyContext, type TlsConnectOptions, tlsConnectOptions } from '../../runtime/network/tls.js';
import { checkUsernameTokenOptions } from '../../runtime/wsse/header.js';

/** The network options of a run: the same shapes as a ServiceClient's `tls`, `proxy`, `auth` and `wsse`. */
export interface NetworkOptions {
  readonly tls?: ClientTlsOptions;
  readonly proxy?: ProxyOption;
  readonly auth?: HttpAuth;
  /** Sent in every SOAP request, a fresh nonce and time each (HTTP GET/POST cannot carry it). */
  readonly wsse?: UsernameTokenOptions;
}

/** The proxy a run's requests go through. */
export interface ProxyRoute {
  /** The proxy's URL without credentials (shown in traces and curl commands). */
  readonly url: string;
  /** `Basic …` from the URL's credentials, sent as Proxy-Authorization. */
  readonly authorization: string | undefined;
  /** The extra CAs, for an https proxy's own certificate. */
  readonly secureContext: tls.SecureContext | undefined;
}

/** The options made ready to send with, for one URL (the target, or the WSDL's). */
export interface RunnerNetwork {
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
  options: NetworkOptions,
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
export function resolveNetwork(url: URL, options: NetworkOptions, env: Environment = process.env): RunnerNetwork {
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
