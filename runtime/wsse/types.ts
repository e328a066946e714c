/**
 * WS-Security UsernameToken (OASIS WSS 1.0/1.1 UsernameToken Profile) as the client sends it and
 * the server verifies it. Shared by the client options, the CLI flags and the server's verifier.
 */

/** How the password travels: as written (`PasswordText`) or as Base64(SHA-1(nonce + created + password)). */
export type PasswordType = 'PasswordText' | 'PasswordDigest';

/** What a client puts in the `wsse:Security` header of every SOAP request. */
export interface UsernameTokenOptions {
  readonly username: string;
  readonly password: string;
  /** Default `PasswordDigest`: the password itself never crosses the wire. */
  readonly passwordType?: PasswordType;
  /**
   * Mark the `wsse:Security` block `soap:mustUnderstand` (default true, as WCF, WSE 3.0 and
   * WSS4J send it): a server that cannot check the token then faults instead of serving the
   * request unauthenticated. Set false only for a server that faults on the mark it ignores.
   */
  readonly mustUnderstand?: boolean;
}

/** The identity a server verified from a request's UsernameToken, handed to the handler. */
export interface VerifiedIdentity {
  readonly username: string;
  readonly passwordType: PasswordType;
}

/**
 * The server's UsernameToken check (`ServerOptions.wsSecurity`). Every SOAP request's
 * `wsse:Security` header is verified before the handler runs; a failure is a SOAP fault with a
 * WSS 1.0 fault code and the handler is not called.
 */
export interface WsSecurityOptions {
  /**
   * The password of `username`, or undefined when there is no such user (answered exactly like
   * a wrong password). Called only for tokens that are well-formed and fresh.
   */
  passwordOf(username: string): string | undefined | Promise<string | undefined>;
  /**
   * Refuse requests without a UsernameToken (default true). With false a request without one
   * reaches the handler with `context.identity` undefined; a token that is present must verify.
   * HTTP GET/POST cannot carry a token: with true they are answered 403.
   */
  readonly required?: boolean;
  /** Accept `PasswordText` tokens (default false: only `PasswordDigest`). Use it only over TLS. */
  readonly allowPasswordText?: boolean;
  /**
   * A token's `wsu:Created` may be at most this old (default 300 000 ms, 5 minutes, as WSS4J
   * and WCF). Its nonce is remembered exactly this long after Created, so a replay is refused
   * either as a reused nonce or as expired.
   */
  readonly maxTokenAgeMs?: number;
  /** How far `wsu:Created` may be ahead of the server's clock (default 60 000 ms). */
  readonly maxClockSkewMs?: number;
  /**
   * Most nonces remembered at once (default 100 000, about 14 MB: some 140 bytes each). When it is full the oldest is
   * dropped and tokens created at or before it are refused as expired: replays stay refused and
   * the accepted age shrinks until the load falls (logged once a minute at most).
   */
  readonly maxNonces?: number;
  /**
   * Most nonces remembered at once for one user (default a tenth of `maxNonces`, at most
   * `maxNonces`): that user's further tokens are refused (wsse:InvalidSecurity) until its older
   * nonces expire, so one user cannot fill the cache and get every other user's tokens refused.
   */
  readonly maxNoncesPerUser?: number;
}
