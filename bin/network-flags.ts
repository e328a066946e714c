/**
 * The network flags every command that calls a service shares (`send`, `call`; the conformance
 * runner may take them too): TLS (--ca, --cert, --key, --servername), a proxy (--proxy,
 * --proxy-from-env, or SMSKIT_PROXY_URL for one with credentials), HTTP Basic (--user) or Bearer (--bearer), and a WS-Security UsernameToken
 * (--wsse-user). Secrets never come from argv: each is read from its environment variable, from
 * standard input with its `--…-stdin` flag, or from a prompt. Kept free of heavy imports: every
 * command's flags are built on every start of the CLI.
 */
import type { Argv, Options } from 'yargs';
import type { ClientTlsOptions, NetworkOptions, ProxyOption, UsernameTokenOptions } from '../runtime/index.js';
import { isEncryptedKey, readPem } from './pem-files.js';
import { CliError, UsageError } from './cli-error.js';
import { readSecret } from './secret-input.js';

export const HTTP_PASSWORD_ENV = 'SMSKIT_HTTP_PASSWORD';
export const BEARER_TOKEN_ENV = 'SMSKIT_BEARER_TOKEN';
export const WSSE_PASSWORD_ENV = 'SMSKIT_WSSE_PASSWORD';
export const KEY_PASSPHRASE_ENV = 'SMSKIT_KEY_PASSPHRASE';
/** The proxy URL when it carries credentials (they would show in the process list as --proxy). */
export const PROXY_URL_ENV = 'SMSKIT_PROXY_URL';

const GROUP = 'Network options:';
const WSSE_TYPES = { Text: 'PasswordText', Digest: 'PasswordDigest' } as const;
type WsseTypeFlag = keyof typeof WSSE_TYPES;

const NETWORK_OPTIONS = {
  ca: {
    type: 'string',
    array: true,
    describe: 'CA certificate file (PEM) to trust besides the built-in roots; repeatable',
  },
  cert: { type: 'string', describe: 'Client certificate file (PEM) for mutual TLS; needs --key' },
  key: {
    type: 'string',
    describe: `Private key file (PEM) of --cert; an encrypted one's passphrase from ${KEY_PASSPHRASE_ENV}, --key-passphrase-stdin or a prompt`,
  },
  'key-passphrase-stdin': {
    type: 'boolean',
    default: false,
    describe: 'Read the --key passphrase from standard input',
  },
  servername: {
    type: 'string',
    describe: "Host name to expect in the server's certificate (and send as SNI)",
  },
  proxy: {
    type: 'string',
    describe: `HTTP proxy URL, e.g. http://proxy.corp:3128, without credentials; a proxy URL with user:password@ goes in ${PROXY_URL_ENV}, used when neither --proxy nor --proxy-from-env is given`,
  },
  'proxy-from-env': {
    type: 'boolean',
    default: false,
    describe: 'Use the HTTP_PROXY / HTTPS_PROXY / NO_PROXY environment variables',
  },
  user: {
    type: 'string',
    describe: `HTTP Basic user name; the password from ${HTTP_PASSWORD_ENV}, --user-password-stdin or a prompt`,
  },
  'user-password-stdin': {
    type: 'boolean',
    default: false,
    describe: 'Read the --user password from standard input',
  },
  bearer: {
    type: 'boolean',
    default: false,
    describe: `Send a Bearer token, from ${BEARER_TOKEN_ENV}, --bearer-stdin or a prompt`,
  },
  'bearer-stdin': { type: 'boolean', default: false, describe: 'Read the Bearer token from standard input' },
  'wsse-user': {
    type: 'string',
    describe: `WS-Security UsernameToken user (SOAP bindings); the password from ${WSSE_PASSWORD_ENV}, --wsse-password-stdin or a prompt`,
  },
  'wsse-password-type': {
    choices: Object.keys(WSSE_TYPES),
    describe: 'How the UsernameToken carries the password (default Digest)',
  },
  'wsse-password-stdin': {
    type: 'boolean',
    default: false,
    describe: 'Read the WS-Security password from standard input',
  },
} satisfies Record<string, Options>;

export function withNetworkFlags(yargs: Argv): Argv {
  return yargs.options(NETWORK_OPTIONS).group(Object.keys(NETWORK_OPTIONS), GROUP);
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

/** Reads the files and secrets the flags name, as a ServiceClient's (and the runner's) NetworkOptions. Errors name the flag and file, never a secret. */
export async function resolveNetworkFlags(flags: NetworkFlags): Promise<NetworkOptions> {
  const options: { -readonly [K in keyof NetworkOptions]: NetworkOptions[K] } = {};
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
