/**
 * Client TLS settings as undici and node:tls take them: one SecureContext per client, built
 * once (Node's roots plus the extra CAs, the client certificate and key), so a bad key or a
 * wrong passphrase fails when the client is made rather than on the first call, and no
 * connection re-parses some 150 root certificates.
 */
import tls from 'node:tls';
import type { ClientTlsOptions, Pem } from './types.js';

/** What `undici`'s `connect` option and `tls.connect()` both accept. */
export interface TlsConnectOptions {
  readonly secureContext: tls.SecureContext;
  readonly servername?: string;
}

const TLS_KEYS = new Set(['ca', 'cert', 'key', 'passphrase', 'servername']);

/** Throws a TypeError naming the option (never its value) for anything malformed. */
export function checkTlsOptions(options: ClientTlsOptions, where: string): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where} must be an object`);
  for (const key of Object.keys(options))
    if (!TLS_KEYS.has(key)) throw new TypeError(`Unknown ${where} option: ${key}`);
  if ((options.cert === undefined) !== (options.key === undefined))
    throw new TypeError(`${where}.cert and ${where}.key go together: a client certificate needs its private key`);
  if (options.passphrase !== undefined && options.key === undefined)
    throw new TypeError(`${where}.passphrase is for an encrypted ${where}.key, and no key is given`);
  for (const name of ['ca', 'cert'] as const) {
    const value = options[name];
    if (value !== undefined && !isPemList(value))
      throw new TypeError(`${where}.${name} must be PEM text, bytes or a list of them`);
  }
  if (options.key !== undefined && !isPem(options.key)) throw new TypeError(`${where}.key must be PEM text or bytes`);
  if (options.passphrase !== undefined && typeof options.passphrase !== 'string')
    throw new TypeError(`${where}.passphrase must be a string`);
  if (options.servername !== undefined && (typeof options.servername !== 'string' || options.servername === ''))
    throw new TypeError(`${where}.servername must be a host name`);
}

/**
 * The secure context and server name for connections to the service. Errors say which part
 * could not be used (Node's own messages name OpenSSL routines, never key bytes).
 */
export function tlsConnectOptions(options: ClientTlsOptions, where = 'options.tls'): TlsConnectOptions {
  checkTlsOptions(options, where);
  const secureContext = createContext(options, where);
  return options.servername === undefined ? { secureContext } : { secureContext, servername: options.servername };
}

/** A context that only adds the extra CAs: for checking an https proxy's own certificate. */
export function caOnlyContext(options: ClientTlsOptions, where = 'options.tls'): tls.SecureContext | undefined {
  return options.ca === undefined ? undefined : createContext({ ca: options.ca }, where);
}

function createContext(options: ClientTlsOptions, where: string): tls.SecureContext {
  if (options.ca !== undefined) checkCaHasCertificates(options.ca, where);
  const extra = options.ca === undefined ? [] : listOf(options.ca);
  try {
    return tls.createSecureContext({
      ...(extra.length === 0 ? {} : { ca: [...tls.rootCertificates, ...extra] }),
      ...(options.cert === undefined ? {} : { cert: listOf(options.cert) }),
      ...(options.key === undefined ? {} : { key: options.key }),
      ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    });
  } catch (error) {
    throw new TypeError(`${where}: ${tlsMaterialFailure(error, options)}`, { cause: error });
  }
}

/** Why OpenSSL refused the material, in words (Node's messages name OpenSSL routines, never key bytes). */
export function tlsMaterialFailure(
  error: unknown,
  material: { readonly key?: Pem | undefined; readonly passphrase?: string | undefined },
): string {
  const code = String((error as { code?: unknown }).code ?? '');
  const message = error instanceof Error ? error.message : String(error);
  const passphraseGiven = material.passphrase !== undefined;
  // A wrong passphrase mostly fails the cipher's padding check (bad decrypt); about one in 750
  // passes it, and the bytes it decrypts to then fail to parse as a key.
  const decryptedUnreadable =
    passphraseGiven &&
    isEncryptedKey(material.key) &&
    (code === 'ERR_OSSL_UNSUPPORTED' || code.startsWith('ERR_OSSL_ASN1'));
  if (code === 'ERR_OSSL_BAD_DECRYPT' || /bad decrypt|bad password/i.test(message) || decryptedUnreadable)
    return !passphraseGiven
      ? 'the key is encrypted: pass its passphrase'
      : 'the key cannot be decrypted with the passphrase given';
  if (code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH') return 'the key does not belong to the certificate';
  if (code === 'ERR_OSSL_PEM_NO_START_LINE') return 'a certificate is not PEM text (-----BEGIN CERTIFICATE-----)';
  if (code === 'ERR_OSSL_UNSUPPORTED') return 'the key is not a PEM private key OpenSSL can read';
  return `the certificate or key cannot be used (${message})`;
}

/** PKCS#8 (BEGIN ENCRYPTED PRIVATE KEY) or traditional OpenSSL (Proc-Type: 4,ENCRYPTED) encryption. */
function isEncryptedKey(key: Pem | undefined): boolean {
  if (key === undefined) return false;
  const text = typeof key === 'string' ? key : key.toString('latin1');
  return text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || /^Proc-Type:\s*4,\s*ENCRYPTED/m.test(text);
}

/** Node silently ignores CA text without a certificate in it: refuse it instead of trusting nothing new. */
export function checkCaHasCertificates(ca: Pem | readonly Pem[], where: string): void {
  for (const item of listOf(ca)) {
    const text = typeof item === 'string' ? item : item.toString('latin1');
    if (!text.includes('-----BEGIN CERTIFICATE-----'))
      throw new TypeError(`${where}.ca holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
}

export function isPem(value: unknown): value is Pem {
  return typeof value === 'string' || Buffer.isBuffer(value);
}

export function isPemList(value: unknown): boolean {
  return isPem(value) || (Array.isArray(value) && value.every(isPem));
}

export function listOf(value: Pem | readonly Pem[]): Pem[] {
  return Array.isArray(value) ? [...(value as readonly Pem[])] : [value as Pem];
}
