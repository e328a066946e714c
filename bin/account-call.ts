/**
 * What `smskit send` and `smskit status` read before they call the service for an account: its
 * password (from $SMSKIT_PASSWORD, `--password-stdin` or a prompt; one stdin reader at most, a
 * network flag may want stdin too) and the network options their flags name.
 */
import type { NetworkOptions } from '../runtime/index.js';
import { type NetworkFlags, networkStdinReaders, resolveNetworkFlags } from './network-flags.js';
import { assertOneStdinReader, readSecret } from './secret-input.js';
import { PASSWORD_ENV } from './service-defaults.js';

export interface AccountCallFlags {
  readonly email: string;
  readonly passwordStdin: boolean;
  readonly network: NetworkFlags;
}

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
