/**
 * How a client reaches a service over a real network: TLS beyond Node's defaults (a company CA,
 * a client certificate), an HTTP proxy, HTTP authentication, or a dispatcher of one's own.
 * Every secret here (key, passphrase, password, token, proxy credentials) stays out of errors.
 */
import type { Dispatcher } from 'undici';
import type { UsernameTokenOptions } from '../wsse/types.js';

/** PEM text (or its bytes); a list where several certificates may be given. */
export type Pem = string | Buffer;

/** Every field may be `undefined` (as not given), so `passphrase: process.env.X` compiles. */
export interface ClientTlsOptions {
  /**
   * CA certificates to trust besides Node's built-in roots (a company CA that signed the
   * service's certificate). Node's own `ca` replaces the roots; this one adds to them.
   */
  readonly ca?: Pem | readonly Pem[] | undefined;
  /** Client certificate (chain) for servers that require one (mutual TLS); needs `key`. */
  readonly cert?: Pem | readonly Pem[] | undefined;
  /** The client certificate's private key; needs `cert`. */
  readonly key?: Pem | undefined;
  /** Passphrase of an encrypted `key`. */
  readonly passphrase?: string | undefined;
  /**
   * Host name to send (SNI) and to check the server's certificate against, when it differs
   * from the URL's host (an IP address, a name the certificate does not carry).
   */
  readonly servername?: string | undefined;
}

/**
 * A proxy URL (`http://proxy.corp:3128`, `https://…`; `user:password@` is sent as
 * Proxy-Authorization), or `{ fromEnv: true }`: HTTP_PROXY / HTTPS_PROXY / NO_PROXY (lower-case
 * names first), read as undici reads them. https targets go through a CONNECT tunnel,
 * http targets as absolute-form requests to an http:// proxy (through a tunnel to an https:// one).
 */
export type ProxyOption = string | { readonly fromEnv: true };

/** HTTP authentication sent as `Authorization` on every request. */
export type HttpAuth =
  | { readonly type: 'basic'; readonly username: string; readonly password: string }
  | { readonly type: 'bearer'; readonly token: string };

/**
 * How a caller reaches a service and proves who it is: the one shape the client (runtime/client.ts
 * adds url, binding, limits), the CLI's network flags (bin/network-flags.ts) and the conformance
 * runner take.
 */
export interface NetworkOptions {
  readonly tls?: ClientTlsOptions;
  readonly proxy?: ProxyOption;
  readonly auth?: HttpAuth;
  /** A WS-Security UsernameToken in every SOAP request, a fresh nonce and time each (HTTP GET/POST cannot carry it). */
  readonly wsse?: UsernameTokenOptions;
  /**
   * A dispatcher of one's own (an undici Agent, a MockAgent, an interceptor chain). It replaces
   * the client's pool: `tls`, `proxy` and `connections` cannot be given with it (set them on the
   * dispatcher), and `close()` leaves it open, as its owner may share it.
   */
  readonly dispatcher?: Dispatcher;
}
