/**
 * How every command that reads a WSDL (generate, inspect, diff, call, conformance) reads it:
 * the contract layer (contract/read) with the command's network flags (bin/network-flags.ts:
 * CA, client certificate, proxy, HTTP auth) and `--allow-import-host`, the hosts besides the
 * WSDL's own that its imports may be fetched from. Kept free of heavy imports: every command's
 * flags are built on every start of the CLI.
 */
import type { Argv } from 'yargs';
import type { Contract, ContractOptions } from '../contract/read/index.js';
import { UsageError } from './cli-error.js';
import type { NetworkOptions } from '../runtime/network/types.js';
import { asFlagError, networkStdinReaders, resolveNetworkFlags, validateNetworkFlags } from './network-flags.js';
import { assertOneStdinReader } from './secret-input.js';

const HOST = /^(\*|[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?|\[[0-9a-f:.]+\](:\d{1,5})?)$/i;

export function withContractFlags(yargs: Argv): Argv {
  return yargs
    .option('allow-import-host', {
      type: 'string',
      array: true,
      describe:
        "A host (host or host:port; * for any) the WSDL's remote imports may be fetched from besides the WSDL's own; repeatable",
    })
    .group(['allow-import-host'], 'Network options:');
}

/** `--allow-import-host` values, checked. */
export function validateImportHosts(args: Record<string, unknown>): string[] {
  const given = args['allow-import-host'];
  if (given === undefined) return [];
  const hosts = (given as unknown[]).map(String);
  const bad = hosts.find((host) => !HOST.test(host));
  if (bad !== undefined) throw new UsageError(`--allow-import-host ${bad}: give a host name or host:port (or *)`);
  return hosts;
}

/** The part of the network options a WSDL fetch uses: a UsernameToken is for SOAP requests only. */
export function contractNetwork(network: NetworkOptions): NonNullable<ContractOptions['network']> {
  const { tls, proxy, auth } = network;
  return {
    ...(tls === undefined ? {} : { tls }),
    ...(proxy === undefined ? {} : { proxy }),
    ...(auth === undefined ? {} : { auth }),
  };
}

export interface ContractReadSettings {
  readonly timeoutMs: number;
  readonly maxBytes?: number;
  /** The service the credentials are for, when it is not the WSDL's own origin (`call --url`). */
  readonly serviceUrl?: string;
}

/**
 * Reads one or more WSDLs with the command's flags: the network flags' files and secrets are
 * read once (a secret from standard input can be read only once), then each WSDL through the
 * contract layer.
 */
export async function readContractsWithFlags(
  locations: readonly string[],
  args: Record<string, unknown>,
  settings: ContractReadSettings,
): Promise<Contract[]> {
  const flags = validateNetworkFlags(args);
  const allowImportHosts = validateImportHosts(args);
  assertOneStdinReader(networkStdinReaders(flags));
  const network = await resolveNetworkFlags(flags);
  return Promise.all(locations.map((location) => readContractWith(location, network, allowImportHosts, settings)));
}

/** One WSDL with network options already read; a malformed one is named by its flag. */
export async function readContractWith(
  location: string,
  network: NetworkOptions,
  allowImportHosts: readonly string[],
  settings: ContractReadSettings,
): Promise<Contract> {
  const { readContract } = await import('../contract/read/index.js');
  try {
    return await readContract(location, {
      network: contractNetwork(network),
      allowImportHosts,
      timeoutMs: settings.timeoutMs,
      ...(settings.maxBytes === undefined ? {} : { maxBytes: settings.maxBytes }),
      ...(settings.serviceUrl === undefined ? {} : { serviceUrl: settings.serviceUrl }),
    });
  } catch (error) {
    throw asFlagError(error);
  }
}
