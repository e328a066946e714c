/**
 * Certificates made with openssl at test time, in a temporary folder: a CA, a server
 * certificate for 127.0.0.1/localhost, a client certificate (also with an encrypted key), a
 * second CA with its own client certificate (the "wrong CA"), an expired server certificate and
 * one for another host name. Nothing is committed: keys in a repository get copied into real
 * use. A machine without openssl skips the tests that need it (`requirePeer('openssl', …)`).
 *
 * One set is made a run, by the first file to ask (once-per-run.ts), rather than ~20 openssl
 * processes in each of the dozen files that need one; each caller gets a copy of its own.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { oncePerRun } from './once-per-run.js';

export interface CertificateFiles {
  readonly cert: string;
  readonly key: string;
  readonly certFile: string;
  readonly keyFile: string;
}

export interface TestCertificates {
  readonly dir: string;
  /** The CA that signs the server and client certificates (PEM). */
  readonly ca: string;
  readonly caFile: string;
  /** A second, unrelated CA: trusting only it is "the wrong CA". */
  readonly otherCa: string;
  readonly otherCaFile: string;
  /** 127.0.0.1 and localhost, signed by `ca`. */
  readonly server: CertificateFiles;
  /** A client certificate signed by `ca`. */
  readonly client: CertificateFiles;
  /** The same client certificate's key, encrypted with `passphrase`. */
  readonly clientEncrypted: CertificateFiles & { readonly passphrase: string };
  /** A client certificate signed by `otherCa`. */
  readonly otherClient: CertificateFiles;
  /** A server certificate signed by `ca` whose validity ended in 2020; undefined where openssl cannot date one. */
  readonly expiredServer: CertificateFiles | undefined;
  /** A server certificate signed by `ca` for other.example only. */
  readonly wrongHostServer: CertificateFiles;
  remove(): void;
}

const OPENSSL = process.env.OPENSSL ?? 'openssl';

/** A minimal config, so neither the system's openssl.cnf nor its absence changes the result. */
const REQ_CONFIG = `[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost,IP:127.0.0.1
[wrong_host_ext]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:other.example
[client_ext]
basicConstraints = CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = clientAuth
[ca]
default_ca = test_ca
[test_ca]
database = ./index.txt
new_certs_dir = .
serial = ./serial
default_md = sha256
policy = any_name
unique_subject = no
[any_name]
commonName = supplied
`;

/** A copy of the run's certificates in a new folder; `remove()` deletes the copy. */
export async function makeCertificates(): Promise<TestCertificates> {
  const made = await oncePerRun(
    'certificates',
    'the test certificates',
    () => mkdtempSync(join(tmpdir(), 'smskit-certs-run-')),
    (dir) => {
      const files = join(dir, 'files');
      mkdirSync(files);
      generate(files);
      return files;
    },
  );
  const dir = mkdtempSync(join(tmpdir(), 'smskit-certs-'));
  cpSync(made, dir, { recursive: true });
  return certificatesIn(dir);
}

/** A set of its own, made now (outside a test run: the bench). */
export function freshCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-certs-'));
  try {
    generate(dir);
    return certificatesIn(dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Writes the whole set into `dir` with openssl. */
function generate(dir: string): void {
  const config = join(dir, 'openssl.cnf');
  writeFileSync(config, REQ_CONFIG);
  const run = (args: readonly string[]): void => {
    const result = spawnSync(OPENSSL, args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, OPENSSL_CONF: config },
    });
    if (result.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
  };
  const newKey = (name: string): void =>
    run(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  const selfSignedCa = (name: string, cn: string): void => {
    newKey(name);
    run([
      'req',
      '-new',
      '-x509',
      '-config',
      config,
      '-key',
      `${name}.key`,
      '-subj',
      `/CN=${cn}`,
      '-days',
      '2',
      '-extensions',
      'ca_ext',
      '-out',
      `${name}.pem`,
    ]);
  };
  const signed = (name: string, cn: string, ca: string, extensions: string): void => {
    newKey(name);
    run(['req', '-new', '-config', config, '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`]);
    run([
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      config,
      '-extensions',
      extensions,
      '-out',
      `${name}.pem`,
    ]);
  };
  selfSignedCa('ca', 'smskit test CA');
  selfSignedCa('other-ca', 'smskit other test CA');
  signed('server', 'localhost', 'ca', 'server_ext');
  signed('client', 'smskit test client', 'ca', 'client_ext');
  signed('other-client', 'smskit other client', 'other-ca', 'client_ext');
  signed('wrong-host', 'other.example', 'ca', 'wrong_host_ext');
  run(['pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${PASSPHRASE}`, '-out', 'client-encrypted.key']);
  expiredServer(dir, run, newKey, config);
}

const PASSPHRASE = 'test key passphrase 7';

/** The set `generate` wrote into `dir`. */
function certificatesIn(dir: string): TestCertificates {
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  const client = files(dir, 'client');
  return {
    dir,
    ca: read('ca.pem'),
    caFile: join(dir, 'ca.pem'),
    otherCa: read('other-ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    server: files(dir, 'server'),
    client,
    clientEncrypted: {
      cert: client.cert,
      certFile: client.certFile,
      key: read('client-encrypted.key'),
      keyFile: join(dir, 'client-encrypted.key'),
      passphrase: PASSPHRASE,
    },
    otherClient: files(dir, 'other-client'),
    expiredServer: existsSync(join(dir, 'expired.pem')) ? files(dir, 'expired') : undefined,
    wrongHostServer: files(dir, 'wrong-host'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `openssl ca` with explicit start and end dates: the one way every openssl since 1.0 can make
 * a certificate whose validity is over (`x509 -days -1` and `-not_after` are not everywhere).
 * An openssl that cannot writes no expired.pem, and the set has no expired certificate.
 */
function expiredServer(
  dir: string,
  run: (args: readonly string[]) => void,
  newKey: (name: string) => void,
  config: string,
): void {
  try {
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'serial'), '1000\n');
    newKey('expired');
    run(['req', '-new', '-config', config, '-key', 'expired.key', '-subj', '/CN=localhost', '-out', 'expired.csr']);
    run([
      'ca',
      '-batch',
      '-config',
      config,
      '-cert',
      'ca.pem',
      '-keyfile',
      'ca.key',
      '-in',
      'expired.csr',
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20200102000000Z',
      '-extfile',
      config,
      '-extensions',
      'server_ext',
      '-notext',
      '-out',
      'expired.pem',
    ]);
  } catch {
    rmSync(join(dir, 'expired.pem'), { force: true });
  }
}

function files(dir: string, name: string): CertificateFiles {
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}.key`);
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile, keyFile };
}
