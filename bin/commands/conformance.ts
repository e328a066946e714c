/**
 * `smskit conformance`: the conformance runner. With no --target it starts the built-in SMS
 * service on an ephemeral port with a temporary database (bin/embedded-service.ts) and hands it
 * to the runner as the run's target.
 *
 * The process side of the command lives here: stdout/stderr, the environment, the contract
 * shipped in the package, report files (each replaced atomically: written beside the target,
 * then renamed over it, so a reader never sees half a report and a failed write never leaves an
 * older one looking current), Ctrl-C (the first SIGINT stops the run, which waits briefly for
 * the requests in flight, writes the reports of what ran, marked interrupted, and exits 130; a
 * second one exits at once), the network flags (bin/network-flags.ts: TLS, proxy, HTTP and
 * WS-Security authentication, their files and secrets read here), and the exit code of each
 * outcome.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { conformanceBuilder, validateConformanceArgs } from '../conformance/options.js';
import type { CommandOutcome } from '../conformance/execute.js';
import type { NetworkOptions } from '../../runtime/network/types.js';
import { builtInWsdlPath } from '../built-in-contract.js';
import { CONFORMANCE_DEFAULTS } from '../conformance-defaults.js';
import { UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { interruptOnSigint } from '../interrupt.js';
import {
  asFlagError,
  type NetworkFlags,
  networkStdinReaders,
  resolveNetworkFlags,
  validateNetworkFlags,
  withNetworkFlags,
} from '../network-flags.js';
import { deliveryReminder } from '../delivery-reminder.js';
import { assertOneStdinReader } from '../secret-input.js';
import { toolVersion } from '../tool-version.js';
import { validateImportHosts, withContractFlags } from '../contract-flags.js';
import type { CliCommand } from './command.js';

const EXIT_CODE_OF: Readonly<Record<CommandOutcome, number>> = {
  passed: EXIT_OK,
  listed: EXIT_OK,
  'baseline-written': EXIT_OK,
  failed: EXIT_FAILED,
  incomplete: EXIT_USAGE,
  interrupted: EXIT_INTERRUPTED,
};

/** Writes `text` to a temporary file in the same directory, then renames it over `path`. */
function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Without --wsdl, the contract shipped inside the package, found from the package itself (the
 * command then works from any folder). Its spec makes every result required although its schema
 * says minOccurs 0, so --require-results defaults to on for it (CONFORMANCE_DEFAULTS), and to off
 * for any other WSDL.
 */
function withContract(args: Record<string, unknown>): Record<string, unknown> {
  return { ...args, wsdl: typeof args.wsdl === 'string' && args.wsdl !== '' ? args.wsdl : builtInWsdlPath() };
}

function anyNetworkFlag(flags: NetworkFlags): boolean {
  return (
    flags.caFiles.length > 0 ||
    flags.certFile !== undefined ||
    flags.servername !== undefined ||
    flags.proxy !== undefined ||
    flags.user !== undefined ||
    flags.bearer ||
    flags.wsseUser !== undefined
  );
}

/**
 * The network flags with their files and secrets read: for a --target, and for a --wsdl URL
 * (the built-in service itself is plain local HTTP, so without --target they reach only the WSDL).
 */
async function networkOf(
  args: Record<string, unknown>,
  target: string | undefined,
  wsdl: string,
): Promise<NetworkOptions> {
  const flags = validateNetworkFlags(args);
  if (target === undefined && !/^https?:\/\//i.test(wsdl) && anyNetworkFlag(flags))
    throw new UsageError('the network flags (--ca, --proxy, --user, --wsse-user…) apply to a --target or a --wsdl URL');
  assertOneStdinReader(networkStdinReaders(flags));
  return resolveNetworkFlags(flags);
}

async function run(args: Record<string, unknown>): Promise<number> {
  const cli = validateConformanceArgs(withContract(args), process.env, CONFORMANCE_DEFAULTS);
  const network = await networkOf(args, cli.target, cli.wsdl);
  const allowImportHosts = validateImportHosts(args);
  const withHosts = allowImportHosts.length === 0 ? cli : { ...cli, allowImportHosts };
  const options =
    Object.keys(network).length === 0
      ? withHosts
      : cli.target === undefined
        ? { ...withHosts, contractNetwork: network }
        : { ...withHosts, network };
  const { executeConformance } = await import('../conformance/execute.js');
  const interrupt = interruptOnSigint('stopping');
  try {
    const outcome = await executeConformance(options, {
      stdout: (text) => void process.stdout.write(text),
      stderr: (text) => void process.stderr.write(text),
      writeFile: writeFileAtomic,
      isTTY: process.stderr.isTTY === true,
      signal: interrupt.signal,
      env: process.env,
      toolVersion: toolVersion(),
      embeddedTarget: async (contract) => (await import('../embedded-service.js')).startEmbeddedService(contract),
      onReport: (report) => {
        if (cli.target === undefined) return; // the built-in service delivers nothing
        const reminder = deliveryReminder(report);
        if (reminder !== undefined) process.stderr.write(`${reminder}\n`);
      },
    });
    return EXIT_CODE_OF[outcome];
  } catch (error) {
    // The runtime names a malformed network option (`options.tls: the key is encrypted…`): name the flag.
    throw asFlagError(error);
  } finally {
    interrupt.dispose();
  }
}

export const conformanceCommand: CliCommand = {
  command: 'conformance',
  describe: 'Check a server against a WSDL over all four bindings (no --target: the built-in service)',
  builder: (yargs: Argv) =>
    withContractFlags(
      withNetworkFlags(
        conformanceBuilder(yargs, CONFORMANCE_DEFAULTS).option('wsdl', {
          default: undefined,
          defaultDescription: 'the built-in SMS contract',
        }),
      ),
    ),
  examples: [
    ['smskit conformance', 'the built-in service, started on an ephemeral port: every case of the built-in contract'],
    [
      'smskit conformance --wsdl calc.wsdl --target http://host/calc.asmx --param intA=6 --param intB=3',
      'any WSDL: values the schema does not give are generated',
    ],
    [
      'smskit conformance --wsdl svc.wsdl --target $URL --inputs inputs.yaml --baseline known.json --reporter pretty --reporter junit --out junit.xml',
      'a CI gate: exit 1 on new failures only',
    ],
    [
      'SMSKIT_KEY_PASSPHRASE=… smskit conformance --wsdl svc.wsdl --target https://svc.corp/svc.asmx --ca corp-ca.pem --cert ci.pem --key ci.key --proxy-from-env',
      'behind a company CA, with a client certificate, through the proxy of HTTPS_PROXY',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.conformance,
  run,
};
