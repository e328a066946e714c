/** The UsernameToken Profile's password digest, shared by the client that sends it and the server that checks it. */
import { createHash } from 'node:crypto';

/** Base64(SHA-1(nonce bytes + Created text + password)), UsernameToken Profile 1.0 section 3.1, as raw bytes. */
export function passwordDigest(nonce: Uint8Array, created: string, password: string): Buffer {
  return createHash('sha1').update(nonce).update(created, 'utf8').update(password, 'utf8').digest();
}
