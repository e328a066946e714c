/** PEM files named by the CLI's TLS flags: read, with errors naming the flag and the file. */
import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';

export function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(`cannot read ${flag} ${file}: ${typeof code === 'string' ? code : String(error)}`);
  }
}

/** PKCS#8 (`ENCRYPTED PRIVATE KEY`) or the traditional OpenSSL form (`Proc-Type: 4,ENCRYPTED`). */
export function isEncryptedKey(pem: string): boolean {
  return pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || pem.includes('Proc-Type: 4,ENCRYPTED');
}
