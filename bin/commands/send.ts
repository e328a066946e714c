/**
 * `smskit send`: one SMSSend / SMSSendToPort call with the generated client, over the binding
 * the user picks. Exit 0 with the message id, 1 on a fault (code and message), 2 on a transport
 * or usage error.
 */
import type { Argv } from 'yargs';
import type { ServiceAPIClient } from '../../generated/service-api/client.js';
import {
  ACCOUNT_CALL_OPTIONS,
  type AccountCallFlags,
  type AccountCallTarget,
  accountCallFlags,
  accountCallInputs,
  accountClient,
  callService,
  callTarget,
} from '../account-call.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { withNetworkFlags } from '../network-flags.js';
import type { CliCommand } from './command.js';

export interface SendOptions extends AccountCallTarget, AccountCallFlags {
  readonly keyword: string;
  readonly to: string;
  readonly carrier: string;
  readonly message: string;
  readonly port: string | undefined;
}

export function validateSendOptions(args: Record<string, unknown>): SendOptions {
  return Object.freeze({
    ...callTarget(args),
    keyword: String(args.keyword),
    to: String(args.to),
    carrier: String(args.carrier),
    message: String(args.message),
    port: args.port === undefined ? undefined : String(args.port),
    ...accountCallFlags(args),
  });
}

/** --help lists what goes into the message first (the contract's values), then where it goes, then the network. */
function builder(yargs: Argv): Argv {
  const values = yargs
    .option('keyword', {
      type: 'string',
      demandOption: true,
      describe: 'Keyword registered to the account (keyword), 1-11 letters or digits, e.g. ACME',
    })
    .option('email', ACCOUNT_CALL_OPTIONS.email)
    .option('to', { type: 'string', demandOption: true, describe: 'Recipient phone number (smsto), e.g. +14155550123' })
    .option('carrier', { type: 'string', demandOption: true, describe: 'Carrier code (carrierCode), or auto' })
    .option('message', { type: 'string', demandOption: true, describe: 'Message text (smsmsg)' })
    .option('port', { type: 'string', describe: 'Application port 0-65535 (port): calls SMSSendToPort' })
    .option('password-stdin', ACCOUNT_CALL_OPTIONS.passwordStdin)
    .group(['keyword', 'email', 'to', 'carrier', 'message', 'port', 'password-stdin'], 'Contract values:')
    .option('url', {
      type: 'string',
      demandOption: true,
      describe: 'Service address, e.g. http://127.0.0.1:8080/serviceapi.asmx',
    })
    .option('binding', ACCOUNT_CALL_OPTIONS.binding)
    .option('timeout', ACCOUNT_CALL_OPTIONS.timeout)
    .group(['url', 'binding', 'timeout'], 'Service:');
  return withNetworkFlags(values);
}

async function call(client: ServiceAPIClient, options: SendOptions, password: string): Promise<string | undefined> {
  const common = {
    keyword: options.keyword,
    emailAddress: options.email,
    password,
    smsto: options.to,
    carrierCode: options.carrier,
    smsmsg: options.message,
  };
  if (options.port === undefined) return (await client.SMSSend(common)).SMSSendResult;
  return (await client.SMSSendToPort({ ...common, port: options.port })).SMSSendToPortResult;
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateSendOptions(args);
  const { password, network } = await accountCallInputs(options);
  const { ServiceAPIClient } = await import('../../generated/service-api/client.js');
  const client = accountClient(ServiceAPIClient, options, network);
  return callService(client, async () => {
    const result = await call(client, options, password);
    process.stdout.write(`${result ?? ''}\n`);
    return EXIT_OK;
  });
}

export const sendCommand: CliCommand = {
  command: 'send',
  describe: 'Send one SMS through a running service (SMSSend, or SMSSendToPort with --port)',
  builder,
  examples: [
    [
      'smskit send --url http://127.0.0.1:8080/serviceapi.asmx --keyword ACME --email you@example.com --to +14155550123 --carrier auto --message Hello',
      'SMSSend over SOAP 1.1; prints the message id',
    ],
    [
      'SMSKIT_PASSWORD=... smskit send --binding http-post --port 2948 --url ... --keyword ACME --email you@example.com --to ... --carrier auto --message Hi',
      'SMSSendToPort over HTTP POST',
    ],
    [
      'smskit send --url https://sms.corp.example/serviceapi.asmx --ca corp-ca.pem --cert me.pem --key me.key --proxy http://proxy.corp:3128 ...',
      'over HTTPS with a company CA and a client certificate, through a proxy',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.send,
  run,
};
