/**
 * What `smskit send` and `smskit status` share around their call to the service for an account:
 * reading its password (from $SMSKIT_PASSWORD, `--password-stdin` or a prompt; one stdin reader at
 * most, a network flag may want stdin too) and the network options their flags name; the flags
 * they have alike (--email, --password-stdin, --binding, --timeout), checked; the generated client
 * for them; and turning the call's fault or transport failure into one line and an exit code.
 */
import type { ClientOptions, NetworkOptions, Protocol, SoapFaultError } from '../runtime/index.js';
import { UsageError } from './cli-error.js';
import { EXIT_FAILED, EXIT_USAGE } from './exit-codes.js';
import {
  asFlagError,
  type NetworkFlags,
  networkStdinReaders,
  resolveNetworkFlags,
  validateNetworkFlags,
} from './network-flags.js';
import { assertOneStdinReader, readSecret } from './secret-input.js';
import { PASSWORD_ENV } from './service-defaults.js';

export interface AccountCallFlags {
  readonly email: string;
  readonly passwordStdin: boolean;
  readonly network: NetworkFlags;
}

/** --email, --password-stdin and the network flags as parsed by yargs, checked. */
export function accountCallFlags(args: Record<string, unknown>): AccountCallFlags {
  return {
    email: String(args.email),
    passwordStdin: args['password-stdin'] === true,
    network: validateNetworkFlags(args),
  };
}

/** The yargs definitions of the flags both commands have, each placed in its command's own --help order. */
export const ACCOUNT_CALL_OPTIONS = {
  email: { type: 'string', demandOption: true, describe: 'Account e-mail address (emailAddress)' },
  passwordStdin: {
    type: 'boolean',
    default: false,
    describe: `Read the account password (password) from standard input (else ${PASSWORD_ENV}, else a prompt)`,
  },
  binding: {
    choices: ['soap11', 'soap12', 'http-get', 'http-post'] satisfies Protocol[],
    default: 'soap11',
    describe: 'Protocol binding to call over',
  },
  timeout: { type: 'number', default: 30_000, describe: 'Call time limit in milliseconds' },
} as const;

export async function accountCallInputs(
  flags: AccountCallFlags,
): Promise<{ readonly password: string; readonly network: NetworkOptions }> {
  assertOneStdinReader([...(flags.passwordStdin ? ['--password-stdin'] : []), ...networkStdinReaders(flags.network)]);
  const password = await readSecret({
    envName: PASSWORD_ENV,
    fromStdin: flags.passwordStdin,
    prompt: `password for ${flags.email}: `,
  });
  return { password, network: await resolveNetworkFlags(flags.network) };
}

/** Where the command calls: its --url, --binding and --timeout. */
export interface AccountCallTarget {
  readonly url: string;
  readonly binding: Protocol;
  readonly timeoutMs: number;
}

/** --url, --binding and --timeout as parsed by yargs, checked; a bad one is a usage error naming the flag. */
export function callTarget(args: Record<string, unknown>): AccountCallTarget {
  const url = String(args.url);
  try {
    new URL(url);
  } catch {
    throw new UsageError(`--url is not a URL: ${url}`);
  }
  const timeoutMs = Number(args.timeout);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new UsageError('--timeout must be a positive number of milliseconds');
  return { url, binding: args.binding as Protocol, timeoutMs };
}

/** The generated client for the target and the network options; an option it refuses is a usage error naming the flag. */
export function accountClient<Client>(
  GeneratedClient: new (options: ClientOptions) => Client,
  target: AccountCallTarget,
  network: NetworkOptions,
): Client {
  try {
    return new GeneratedClient({ url: target.url, binding: target.binding, timeoutMs: target.timeoutMs, ...network });
  } catch (error) {
    throw asFlagError(error);
  }
}

/** A fault as `smskit send` and `smskit status` print it: the service's refusal code, then its message. */
export function faultText(error: SoapFaultError): string {
  const code = error.detail.code ?? error.subcode ?? error.code;
  return error.message.startsWith(`${code}:`) ? error.message : `${code}: ${error.message}`;
}

/**
 * Runs `work` (the call and its printing; resolves with the exit code), then closes `client`. A
 * fault is printed as one line and exits 1; a transport failure, 2; anything else is thrown on.
 */
export async function callService(client: { close(): Promise<void> }, work: () => Promise<number>): Promise<number> {
  const { SoapFaultError, TransportError } = await import('../runtime/index.js');
  try {
    return await work();
  } catch (error) {
    if (error instanceof SoapFaultError) {
      process.stderr.write(`smskit: fault ${faultText(error)}\n`);
      return EXIT_FAILED;
    }
    if (error instanceof TransportError) {
      process.stderr.write(`smskit: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  } finally {
    await client.close();
  }
}
