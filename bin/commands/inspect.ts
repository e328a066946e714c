/**
 * `smskit inspect WSDL`: services, ports, bindings and every operation's signature with types,
 * documentation and SOAPAction / path; `--json` for scripts. WSDL is a file or an http(s) URL
 * (fetched once, bounded in size and time like every fetch of the toolkit).
 */
import type { Argv } from 'yargs';
import { UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import type { CliCommand } from './command.js';
import { readContractsWithFlags, withContractFlags } from '../contract-flags.js';
import { withNetworkFlags } from '../network-flags.js';

function builder(yargs: Argv): Argv {
  return withContractFlags(withNetworkFlags(yargs))
    .positional('wsdl', { type: 'string', describe: 'WSDL file or URL (e.g. http://host/service.asmx?wsdl)' })
    .option('json', { type: 'boolean', default: false, describe: 'Print the description as JSON' })
    .option('timeout', {
      type: 'number',
      default: 10_000,
      describe: 'Time limit for fetching a WSDL URL, in milliseconds',
    });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const wsdl = args.wsdl;
  if (typeof wsdl !== 'string' || wsdl.trim() === '')
    throw new UsageError('name a WSDL file or URL: smskit inspect <wsdl>');
  const timeout = Number(args.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError('--timeout must be a positive number of milliseconds');
  const { describeContract, formatDescription } = await import('../../contract/descriptor/describe.js');
  const [contract] = await readContractsWithFlags([wsdl], args, { timeoutMs: timeout });
  const description = describeContract(contract!.model);
  process.stdout.write(
    args.json === true ? `${JSON.stringify(description, null, 2)}\n` : formatDescription(description),
  );
  return EXIT_OK;
}

export const inspectCommand: CliCommand = {
  command: 'inspect <wsdl>',
  describe: 'Show the services, ports and operation signatures of a WSDL',
  builder,
  examples: [
    ['smskit inspect calc.wsdl', 'every operation of the contract with its parameters'],
    ['smskit inspect http://127.0.0.1:8080/serviceapi.asmx?wsdl --json', 'a running service, as JSON'],
  ],
  exitCodes: COMMAND_EXIT_CODES.inspect,
  run,
};
