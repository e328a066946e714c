/**
 * One line per TLS failure, naming the cause and what to do about it, from the OpenSSL/Node
 * error codes undici passes through. The codes are Node's (`err.code`), which are stable; the
 * messages are OpenSSL's, which are not, so only codes are matched.
 */

const UNKNOWN_CA =
  "the server's certificate is self-signed or signed by an unknown CA: pass the CA that signed it (tls.ca, --ca)";

const REASONS: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet (check the clocks)",
  DEPTH_ZERO_SELF_SIGNED_CERT: UNKNOWN_CA,
  SELF_SIGNED_CERT_IN_CHAIN: UNKNOWN_CA,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNKNOWN_CA,
  UNABLE_TO_GET_ISSUER_CERT: UNKNOWN_CA,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNKNOWN_CA,
  CERT_SIGNATURE_FAILURE: "the server's certificate signature does not verify",
  CERT_REVOKED: "the server's certificate has been revoked",
  CERT_UNTRUSTED: "the server's certificate is not trusted for this purpose",
  ERR_TLS_CERT_ALTNAME_INVALID:
    "the server's certificate does not name this host (hostname mismatch): use the name it carries, or tls.servername / --servername",
  UND_ERR_PRX_TLS: "the proxy's certificate does not name the proxy's host (hostname mismatch)",
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED:
    'the server requires a client certificate: pass one (tls.cert and tls.key, --cert and --key)',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE:
    'the server refused the handshake (it may require a client certificate, or share no protocol or cipher with us)',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: "the server does not trust the client certificate's CA",
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'the server refused the client certificate',
  ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR: 'the server could not verify the client certificate (is the key the right one?)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not answer in TLS (is it plain http://?)',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server did not answer in TLS (is it plain http://?)',
  ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'the server and client share no TLS version',
};

/** The reason for the first code that is a known TLS failure, or undefined when none is. */
export function tlsReason(codes: readonly string[]): string | undefined {
  for (const code of codes) {
    const reason = REASONS[code];
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** Whether a code is a certificate or handshake failure at all (known or not). */
export function isTlsCode(code: string): boolean {
  return (
    code in REASONS ||
    code === 'EPROTO' ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('CERT_') ||
    code.startsWith('UNABLE_TO_')
  );
}
