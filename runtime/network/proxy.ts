/**
 * Reading a proxy setting: the URL without its credentials (shown in messages), the credentials
 * as a Proxy-Authorization value (sent to the proxy only), and the secrets a message must never
 * show. The variables are the ones undici's EnvHttpProxyAgent reads, lower-case first.
 */
import type { ProxyOption } from './types.js';

export interface ExplicitProxy {
  readonly kind: 'url';
  /** The proxy's URL without user and password. */
  readonly url: string;
  /** `Basic …` from the URL's credentials, if any. */
  readonly authorization: string | undefined;
  readonly secrets: readonly string[];
}

export interface EnvProxy {
  readonly kind: 'env';
  readonly secrets: readonly string[];
}

export type ProxyChoice = ExplicitProxy | EnvProxy;

export const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'] as const;

export function readProxyOption(option: ProxyOption, where = 'options.proxy'): ProxyChoice {
  if (typeof option === 'string') return explicitProxy(option, where);
  if (typeof option === 'object' && option !== null && option.fromEnv === true && Object.keys(option).length === 1)
    return { kind: 'env', secrets: envProxySecrets() };
  throw new TypeError(`${where} must be a proxy URL or { fromEnv: true }`);
}

function explicitProxy(text: string, where: string): ExplicitProxy {
  const url = parseProxyUrl(text, where);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const secrets = [password, url.password].filter((s) => s !== '');
  const authorization =
    username === '' && password === ''
      ? undefined
      : `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  if (authorization !== undefined) secrets.push(authorization.slice('Basic '.length));
  url.username = '';
  url.password = '';
  return { kind: 'url', url: url.href, authorization, secrets };
}

/** A proxy URL, or a TypeError that shows it without credentials (or not at all, if it does not parse). */
export function parseProxyUrl(text: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`${where} is not a URL (like http://proxy.example:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${where} must be an http:// or https:// proxy URL, not ${url.protocol}`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    throw new TypeError(`${where} must name only the proxy (${withoutCredentials(url)}): no path or query`);
  return url;
}

/** The password of every proxy variable that has one, in both its encoded and decoded forms. */
function envProxySecrets(): string[] {
  const secrets: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = process.env[name];
    if (value === undefined || value === '') continue;
    const url = parseProxyUrl(value, `the ${name} environment variable`);
    const password = decodeURIComponent(url.password);
    if (password !== '') {
      const user = decodeURIComponent(url.username);
      secrets.push(password, url.password, Buffer.from(`${user}:${password}`, 'utf8').toString('base64'));
    }
  }
  return secrets;
}

/** A URL as it may be shown: scheme, host and path, never user or password. */
export function withoutCredentials(url: URL): string {
  const shown = new URL(url.href);
  shown.username = '';
  shown.password = '';
  return shown.href;
}
