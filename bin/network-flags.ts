/**
 * The network flags every command that calls a service shares (`send`, `call`; the conformance
 * runner may take them too): TLS (--ca, --cert, --key, --servername), a proxy (--proxy,
 * --proxy-from-env, or SMSKIT_PROXY_URL for one with credentials), HTTP Basic (--user) or Bearer (--bearer), and a WS-Security UsernameToken
 * (--wsse-user). Secrets never come from argv: each is read from its environment variable, from
 * standard input with its `--…-stdin` flag, or from a prompt. Kept free of heavy imports: every
 * command's flags are built on every start of the CLI.
 */
import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import type { ClientTlsOptions, HttpAuth, ProxyOption, UsernameTokenOptions } from '../runtime/index.js';
import { CliError, UsageError } from './cli-error.js';
import { readSecret } from './secret-input.js';

export const HTTP_PASSWORD_ENV = 'SMSKIT_HTTP_PASSWORD';
export const BEARER_TOKEN_ENV = 'SMSKIT_BEARER_TOKEN';
export const WSSE_PASSWORD_ENV = 'SMSKIT_WSSE_PASSWORD';
export const KEY_PASSPHRASE_ENV = 'SMSKIT_KEY_PASSPHRASE';
/** The proxy URL when it carries credentials (they would show in the process list as --proxy). */
export const PROXY_URL_ENV = 'SMSKIT_PROXY_URL';

const GROUP = 'Network and authentication:';
const WSSE_TYPES = { Text: 'PasswordText', Digest: 'PasswordDigest' } as const;
type WsseTypeFlag = keyof typeof WSSE_TYPES;

export function withNetworkFlags(yargs: Argv): Argv {
  return yargs
    .option('ca', {
      type: 'string',
      array: true,
      describe: 'CA certificate file (PEM) to trust besides the built-in roots; repeatable',
    })
    .option('cert', { type: 'string', describe: 'Client certificate file (PEM) for mutual TLS; needs --key' })
    .option('key', {
      type: 'string',
      describe: `Private key file (PEM) of --cert; an encrypted one's passphrase from ${KEY_PASSPHRASE_ENV}, --key-passphrase-stdin or a prompt`,
    })
    .option('key-passphrase-stdin', {
      type: 'boolean',
      default: false,
      describe: 'Read the --key passphrase from standard input',
    })
    .option('servername', {
      type: 'string',
      describe: "Host name to expect in the server's certificate (and send as SNI)",
    })
    .option('proxy', {
      type: 'string',
      describe: `HTTP proxy URL, e.g. http://proxy.corp:3128, without credentials; a proxy URL with user:password@ goes in ${PROXY_URL_ENV}, used when neither --proxy nor --proxy-from-env is given`,
    })
    .option('proxy-from-env', {
      type: 'boolean',
      default: false,
      describe: 'Use the HTTP_PROXY / HTTPS_PROXY / NO_PROXY environment variables',
    })
    .option('user', {
      type: 'string',
      describe: `HTTP Basic user name; the password from ${HTTP_PASSWORD_ENV}, --user-password-stdin or a prompt`,
    })
    .option('user-password-stdin', {
      type: 'boolean',
      default: false,
      describe: 'Read the --user password from standard input',
    })
    .option('bearer', {
      type: 'boolean',
      default: false,
      describe: `Send a Bearer token, from ${BEARER_TOKEN_ENV}, --bearer-stdin or a prompt`,
    })
    .option('bearer-stdin', { type: 'boolean', default: false, describe: 'Read the Bearer token from standard input' })
    .option('wsse-user', {
      type: 'string',
      describe: `WS-Security UsernameToken user (SOAP bindings); the password from ${WSSE_PASSWORD_ENV}, --wsse-password-stdin or a prompt`,
    })
    .option('wsse-password-type', {
      choices: Object.keys(WSSE_TYPES),
      describe: 'How the UsernameToken carries the password (default Digest)',
    })
    .option('wsse-password-stdin', {
      type: 'boolean',
      default: false,
      describe: 'Read the WS-Security password from standard input',
    })
    .group(
      [
        'ca',
        'cert',
        'key',
        'key-passphrase-stdin',
        'servername',
        'proxy',
        'proxy-from-env',
        'user',
        'user-password-stdin',
        'bearer',
        'bearer-stdin',
        'wsse-user',
        'wsse-password-type',
        'wsse-password-stdin',
      ],
      GROUP,
    );
}

/** The network flags as given, checked for conflicts; files and secrets are read later (resolveNetworkFlags). */
export interface NetworkFlags {
  readonly caFiles: readonly string[];
  readonly certFile: string | undefined;
  readonly keyFile: string | undefined;
  readonly keyPassphraseStdin: boolean;
  readonly servername: string | undefined;
  readonly proxy: ProxyOption | undefined;
  readonly user: string | undefined;
  readonly userPasswordStdin: boolean;
  readonly bearer: boolean;
  readonly bearerStdin: boolean;
  readonly wsseUser: string | undefined;
  readonly wssePasswordType: UsernameTokenOptions['passwordType'];
  readonly wssePasswordStdin: boolean;
}

export function validateNetworkFlags(args: Record<string, unknown>): NetworkFlags {
  const text = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} needs a value`);
    return value;
  };
  const flag = (name: string): boolean => args[name] === true;
  const requires = (name: string, given: boolean, needed: string, present: boolean): void => {
    if (given && !present) throw new UsageError(`--${name} needs ${needed}`);
  };
  const conflict = (a: string, b: string): void => {
    if (args[a] !== undefined && args[a] !== false && args[b] !== undefined && args[b] !== false)
      throw new UsageError(`--${a} and --${b} cannot be used together`);
  };
  const caList = args.ca === undefined ? [] : (args.ca as unknown[]).map(String);
  if (caList.some((file) => file === '')) throw new UsageError('--ca needs a file');
  const certFile = text('cert');
  const keyFile = text('key');
  requires('cert', certFile !== undefined, '--key (the certificate’s private key)', keyFile !== undefined);
  requires('key', keyFile !== undefined, '--cert (the certificate of that key)', certFile !== undefined);
  requires('key-passphrase-stdin', flag('key-passphrase-stdin'), '--key', keyFile !== undefined);
  conflict('proxy', 'proxy-from-env');
  conflict('user', 'bearer');
  const user = text('user');
  requires('user-password-stdin', flag('user-password-stdin'), '--user', user !== undefined);
  requires('bearer-stdin', flag('bearer-stdin'), '--bearer', flag('bearer'));
  const wsseUser = text('wsse-user');
  const wsseType = args['wsse-password-type'] as WsseTypeFlag | undefined;
  requires('wsse-password-type', wsseType !== undefined, '--wsse-user', wsseUser !== undefined);
  requires('wsse-password-stdin', flag('wsse-password-stdin'), '--wsse-user', wsseUser !== undefined);
  const proxyUrl = text('proxy');
  if (proxyUrl !== undefined && hasCredentials(proxyUrl))
    throw new UsageError(
      `--proxy must not carry credentials (the process list shows them): set ${PROXY_URL_ENV} to the proxy URL with user:password@ instead`,
    );
  return Object.freeze({
    caFiles: caList,
    certFile,
    keyFile,
    keyPassphraseStdin: flag('key-passphrase-stdin'),
    servername: text('servername'),
    proxy: proxyUrl !== undefined ? proxyUrl : flag('proxy-from-env') ? { fromEnv: true as const } : undefined,
    user,
    userPasswordStdin: flag('user-password-stdin'),
    bearer: flag('bearer'),
    bearerStdin: flag('bearer-stdin'),
    wsseUser,
    wssePasswordType: wsseType === undefined ? undefined : WSSE_TYPES[wsseType],
    wssePasswordStdin: flag('wsse-password-stdin'),
  });
}

function hasCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== '' || parsed.password !== '');
}

/** The `--…-stdin` flags given, for assertOneStdinReader. */
export function networkStdinReaders(flags: NetworkFlags): string[] {
  return [
    ...(flags.keyPassphraseStdin ? ['--key-passphrase-stdin'] : []),
    ...(flags.userPasswordStdin ? ['--user-password-stdin'] : []),
    ...(flags.bearerStdin ? ['--bearer-stdin'] : []),
    ...(flags.wssePasswordStdin ? ['--wsse-password-stdin'] : []),
  ];
}

/** What the flags give a ServiceClient: spread into its options. */
export interface ClientNetworkOptions {
  tls?: ClientTlsOptions;
  proxy?: ProxyOption;
  auth?: HttpAuth;
  wsse?: UsernameTokenOptions;
}

/** Reads the files and secrets the flags name. Errors name the flag and file, never a secret. */
export async function resolveNetworkFlags(flags: NetworkFlags): Promise<ClientNetworkOptions> {
  const options: ClientNetworkOptions = {};
  const tls = await tlsOptions(flags);
  if (tls !== undefined) options.tls = tls;
  const proxyFromVariable = process.env[PROXY_URL_ENV];
  if (flags.proxy !== undefined) options.proxy = flags.proxy;
  else if (proxyFromVariable !== undefined && proxyFromVariable !== '') options.proxy = proxyFromVariable;
  if (flags.user !== undefined) {
    const password = await readSecret({
      envName: HTTP_PASSWORD_ENV,
      fromStdin: flags.userPasswordStdin,
      prompt: `HTTP password for ${flags.user}: `,
      what: 'HTTP password',
      stdinFlag: '--user-password-stdin',
    });
    options.auth = { type: 'basic', username: flags.user, password };
  } else if (flags.bearer) {
    const token = await readSecret({
      envName: BEARER_TOKEN_ENV,
      fromStdin: flags.bearerStdin,
      prompt: 'Bearer token: ',
      what: 'Bearer token',
      stdinFlag: '--bearer-stdin',
    });
    options.auth = { type: 'bearer', token: token.trim() };
  }
  if (flags.wsseUser !== undefined) {
    const password = await readSecret({
      envName: WSSE_PASSWORD_ENV,
      fromStdin: flags.wssePasswordStdin,
      prompt: `WS-Security password for ${flags.wsseUser}: `,
      what: 'WS-Security password',
      stdinFlag: '--wsse-password-stdin',
    });
    options.wsse = {
      username: flags.wsseUser,
      password,
      ...(flags.wssePasswordType === undefined ? {} : { passwordType: flags.wssePasswordType }),
    };
  }
  return options;
}

async function tlsOptions(flags: NetworkFlags): Promise<ClientTlsOptions | undefined> {
  if (flags.caFiles.length === 0 && flags.certFile === undefined && flags.servername === undefined) return undefined;
  const ca = flags.caFiles.map((file) => readPem('--ca', file));
  const tls: { -readonly [K in keyof ClientTlsOptions]: ClientTlsOptions[K] } = {};
  if (ca.length > 0) tls.ca = ca;
  if (flags.servername !== undefined) tls.servername = flags.servername;
  if (flags.certFile !== undefined && flags.keyFile !== undefined) {
    tls.cert = readPem('--cert', flags.certFile);
    tls.key = readPem('--key', flags.keyFile);
    if (isEncryptedKey(tls.key))
      tls.passphrase = await readSecret({
        envName: KEY_PASSPHRASE_ENV,
        fromStdin: flags.keyPassphraseStdin,
        prompt: `passphrase for ${flags.keyFile}: `,
        what: 'key passphrase',
        stdinFlag: '--key-passphrase-stdin',
      });
  }
  return tls;
}

function readPem(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(`cannot read ${flag} ${file}: ${typeof code === 'string' ? code : String(error)}`);
  }
}

/** PKCS#8 (`ENCRYPTED PRIVATE KEY`) or the traditional OpenSSL form (`Proc-Type: 4,ENCRYPTED`). */
function isEncryptedKey(pem: string): boolean {
  return pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || pem.includes('Proc-Type: 4,ENCRYPTED');
}

type OptionNames = readonly (readonly [RegExp, string])[];

const CLIENT_FLAGS: OptionNames = [
  [/\boptions\.tls\.ca\b/g, '--ca'],
  [/\boptions\.tls\.cert\b/g, '--cert'],
  [/\boptions\.tls\.key\b/g, '--key'],
  [/\boptions\.tls\.passphrase\b/g, 'the --key passphrase'],
  [/\boptions\.tls\.servername\b/g, '--servername'],
  [/\boptions\.tls\b/g, '--ca/--cert/--key'],
  [/\boptions\.proxy\b/g, '--proxy'],
  [/\boptions\.auth\b/g, '--user/--bearer'],
  [/\boptions\.wsse\b/g, '--wsse-user'],
  [/\bwsse\.password\b/g, 'the WS-Security password'],
  [/\bwsse\.username\b/g, '--wsse-user'],
  [/^wsse\b/, '--wsse-user'],
];

const SERVE_FLAGS: OptionNames = [
  [/\boptions\.tls\.ca\b/g, '--tls-ca'],
  [/\boptions\.tls\.cert\b/g, '--tls-cert'],
  [/\boptions\.tls\.key\b/g, '--tls-key'],
  [/\boptions\.tls\b/g, '--tls-cert/--tls-key'],
];

/**
 * The client refuses unusable options with a TypeError that names the option (`options.tls:
 * the key is encrypted…`); on the command line the user gave flags, so name those instead.
 */
export function asFlagError(error: unknown, command: 'client' | 'serve' = 'client'): unknown {
  if (!(error instanceof TypeError) || !/\boptions\.(tls|proxy|auth|wsse)\b|\bwsse\.|^wsse\b/.test(error.message))
    return error;
  let message = error.message;
  for (const [pattern, flag] of command === 'client' ? CLIENT_FLAGS : SERVE_FLAGS)
    message = message.replace(pattern, flag);
  return new CliError(message);
}

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
