/**
 * Which documents a contract may be read from, and with which credentials. Imports are fetched
 * from the WSDL's own origin, and from other hosts only when the user names them: a WSDL is
 * input from elsewhere, and should not make smskit reach arbitrary hosts on its own. The
 * credentials (HTTP auth, the client certificate) go only to the service they are for.
 */
import type { NetworkOptions } from '../../runtime/network/types.js';

/** Why `url` may not be fetched as an import of the contract at `root`, or undefined when it may. */
export function importRefusal(url: URL, root: URL | undefined, allowedHosts: readonly string[]): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not fetched: ${url.protocol} is not http(s)`;
  if (root !== undefined && url.origin === root.origin) return undefined;
  if (allowedHosts.some((host) => host === '*' || host === url.host || host === url.hostname)) return undefined;
  const why =
    root === undefined
      ? 'a WSDL read from a file fetches imports only from hosts allowed by name'
      : `${url.host} is another host than the WSDL's (${root.host})`;
  return `not fetched: ${why}; allow it with --allow-import-host ${url.host}`;
}

/**
 * The network options for one fetch: all of them toward `credentialOrigin` (the service's, or
 * the WSDL's own), without `auth` and the client certificate anywhere else.
 */
export function credentialsFor(
  url: URL,
  network: NetworkOptions,
  credentialOrigin: string | undefined,
): NetworkOptions {
  if (credentialOrigin !== undefined && URL.parse(credentialOrigin)?.origin === url.origin) return network;
  const { auth: _auth, tls, ...rest } = network;
  if (tls === undefined) return rest;
  const { cert: _cert, key: _key, passphrase: _passphrase, ...serverChecks } = tls;
  return { ...rest, tls: serverChecks };
}
