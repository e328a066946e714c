/**
 * `smskit serve`'s HTTPS flags: a certificate and key (an encrypted key's passphrase from the
 * environment, standard input or a prompt), and client certificates required from a CA.
 */
import type { Argv } from 'yargs';
import { UsageError } from './cli-error.js';
import { isEncryptedKey, readPem } from './pem-files.js';
import { readSecret } from './secret-input.js';

export const TLS_KEY_PASSPHRASE_ENV = 'SMSKIT_TLS_KEY_PASSPHRASE';

/** `smskit serve`'s HTTPS flags. */
export function withServeTlsFlags(yargs: Argv): Argv {
  return yargs
    .option('tls-cert', { type: 'string', describe: 'Serve HTTPS with this certificate file (PEM); needs --tls-key' })
    .option('tls-key', {
      type: 'string',
      describe: `Private key file (PEM) of --tls-cert; an encrypted one's passphrase from ${TLS_KEY_PASSPHRASE_ENV}, --tls-key-passphrase-stdin or a prompt`,
    })
    .option('tls-key-passphrase-stdin', {
      type: 'boolean',
      default: false,
      describe: 'Read the --tls-key passphrase from standard input',
    })
    .option('tls-ca', {
      type: 'string',
      describe: 'CA file (PEM) that issues client certificates; with --require-client-cert',
    })
    .option('require-client-cert', {
      type: 'boolean',
      default: false,
      describe: 'Refuse, during the TLS handshake, clients without a certificate from --tls-ca',
    })
    .group(['tls-cert', 'tls-key', 'tls-key-passphrase-stdin', 'tls-ca', 'require-client-cert'], 'HTTPS:');
}

export interface ServeTlsFlags {
  readonly certFile: string;
  readonly keyFile: string;
  readonly keyPassphraseStdin: boolean;
  readonly caFile: string | undefined;
  readonly requireClientCert: boolean;
}

/** The HTTPS flags checked together; undefined when the server is to speak plain HTTP. */
export function validateServeTlsFlags(args: Record<string, unknown>): ServeTlsFlags | undefined {
  const text = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a file`);
    return value;
  };
  const certFile = text('tls-cert');
  const keyFile = text('tls-key');
  const caFile = text('tls-ca');
  const requireClientCert = args['require-client-cert'] === true;
  const keyPassphraseStdin = args['tls-key-passphrase-stdin'] === true;
  if ((certFile === undefined) !== (keyFile === undefined))
    throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key');
  if (certFile === undefined || keyFile === undefined) {
    const stray = [
      ...(caFile === undefined ? [] : ['--tls-ca']),
      ...(requireClientCert ? ['--require-client-cert'] : []),
      ...(keyPassphraseStdin ? ['--tls-key-passphrase-stdin'] : []),
    ];
    if (stray.length > 0) throw new UsageError(`${stray.join(' and ')} need --tls-cert and --tls-key (HTTPS)`);
    return undefined;
  }
  if (requireClientCert && caFile === undefined)
    throw new UsageError(
      '--require-client-cert checks client certificates against --tls-ca: give the CA that issues them',
    );
  if (caFile !== undefined && !requireClientCert)
    throw new UsageError('--tls-ca is the CA client certificates are checked against: add --require-client-cert');
  return Object.freeze({ certFile, keyFile, keyPassphraseStdin, caFile, requireClientCert });
}

/** What `listen`'s `tls` option takes, from the files (and the key's passphrase, if it is encrypted). */
export async function resolveServeTls(flags: ServeTlsFlags): Promise<{
  cert: string;
  key: string;
  passphrase?: string;
  ca?: string;
  requestCert?: boolean;
}> {
  const key = readPem('--tls-key', flags.keyFile);
  return {
    cert: readPem('--tls-cert', flags.certFile),
    key,
    ...(isEncryptedKey(key)
      ? {
          passphrase: await readSecret({
            envName: TLS_KEY_PASSPHRASE_ENV,
            fromStdin: flags.keyPassphraseStdin,
            prompt: `passphrase for ${flags.keyFile}: `,
            what: 'key passphrase',
            stdinFlag: '--tls-key-passphrase-stdin',
          }),
        }
      : {}),
    ...(flags.caFile === undefined
      ? {}
      : { ca: readPem('--tls-ca', flags.caFile), requestCert: flags.requireClientCert }),
  };
}
