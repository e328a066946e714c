/**
 * `listen`'s HTTPS settings as node:https takes them. With `requestCert`, a client without a
 * certificate signed by `ca` is refused during the handshake: no request reaches the handler.
 */
import tls from 'node:tls';
import { checkCaHasCertificates, isPem, isPemList, listOf, tlsMaterialFailure } from './tls.js';
import type { Pem } from './types.js';

export interface ServerTlsOptions {
  /** The server's certificate (chain), PEM. */
  readonly cert: Pem | readonly Pem[];
  /** Its private key, PEM. */
  readonly key: Pem;
  /** Passphrase of an encrypted key. */
  readonly passphrase?: string;
  /** The CA(s) that issue client certificates (required with `requestCert`, and only with it). */
  readonly ca?: Pem | readonly Pem[];
  /** Ask every client for a certificate and refuse the connection without a valid one. */
  readonly requestCert?: boolean;
}

const KEYS = new Set(['cert', 'key', 'passphrase', 'ca', 'requestCert']);
const WHERE = 'options.tls';

export function serverTlsOptions(options: ServerTlsOptions): tls.TlsOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${WHERE} must be an object`);
  for (const key of Object.keys(options)) if (!KEYS.has(key)) throw new TypeError(`Unknown ${WHERE} option: ${key}`);
  if (!isPemList(options.cert))
    throw new TypeError(`${WHERE}.cert must be the server's certificate as PEM text or bytes`);
  if (!isPem(options.key)) throw new TypeError(`${WHERE}.key must be the server's private key as PEM text or bytes`);
  if (options.passphrase !== undefined && typeof options.passphrase !== 'string')
    throw new TypeError(`${WHERE}.passphrase must be a string`);
  if (options.requestCert !== undefined && typeof options.requestCert !== 'boolean')
    throw new TypeError(`${WHERE}.requestCert must be true or false`);
  if (options.ca !== undefined) {
    if (!isPemList(options.ca)) throw new TypeError(`${WHERE}.ca must be PEM text, bytes or a list of them`);
    checkCaHasCertificates(options.ca, WHERE);
  }
  // Without its own CA the server would accept a client certificate from any public CA.
  if (options.requestCert === true && options.ca === undefined)
    throw new TypeError(
      `${WHERE}.requestCert checks client certificates against ${WHERE}.ca: give the CA that issues them`,
    );
  // A CA without requestCert would check nothing: no client is asked for a certificate.
  if (options.ca !== undefined && options.requestCert !== true)
    throw new TypeError(
      `${WHERE}.ca is the CA client certificates are checked against: add ${WHERE}.requestCert: true`,
    );
  const settings: tls.TlsOptions = {
    cert: listOf(options.cert),
    key: options.key,
    ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    ...(options.ca === undefined ? {} : { ca: listOf(options.ca) }),
    requestCert: options.requestCert === true,
    rejectUnauthorized: options.requestCert === true,
  };
  try {
    tls.createSecureContext(settings);
  } catch (error) {
    throw new TypeError(`${WHERE}: ${tlsMaterialFailure(error, options)}`, { cause: error });
  }
  return settings;
}
