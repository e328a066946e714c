/**
 * `smskit status ID`: one GetMessageStatus call (the status service at /statusapi.asmx) with the
 * generated client, over the binding the user picks; the password is read as `smskit send`
 * reads it. Exit 0 with the state, 1 on a fault (code and message), 2 on a transport or usage error.
 */
import type { Argv } from 'yargs';
import type { MessageStatus } from '../../generated/status-api/types.js';
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
import { UsageError } from '../cli-error.js';
import { COMMAND_EXIT_CODES, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { withNetworkFlags } from '../network-flags.js';
import type { CliCommand } from './command.js';

export interface StatusOptions extends AccountCallTarget, AccountCallFlags {
  readonly id: string;
  readonly json: boolean;
}

export function validateStatusOptions(args: Record<string, unknown>): StatusOptions {
  const target = callTarget(args);
  const id = String(args.id ?? '');
  if (id === '') throw new UsageError('give the message id, as smskit send printed it: smskit status SMS-…');
  return Object.freeze({
    id,
    ...target,
    json: args.json === true,
    ...accountCallFlags(args),
  });
}

function builder(yargs: Argv): Argv {
  const values = yargs
    .positional('id', { type: 'string', describe: 'Message id as SMSSend returned it (messageId), e.g. SMS-01J…' })
    .option('email', ACCOUNT_CALL_OPTIONS.email)
    .option('password-stdin', ACCOUNT_CALL_OPTIONS.passwordStdin)
    .group(['email', 'password-stdin'], 'Contract values:')
    .option('url', {
      type: 'string',
      demandOption: true,
      describe: 'Status service address, e.g. http://127.0.0.1:8080/statusapi.asmx',
    })
    .option('binding', ACCOUNT_CALL_OPTIONS.binding)
    .option('timeout', ACCOUNT_CALL_OPTIONS.timeout)
    .option('json', { type: 'boolean', default: false, describe: 'Print the answer as one JSON object' })
    .group(['url', 'binding', 'timeout', 'json'], 'Service:');
  return withNetworkFlags(values);
}

/** One line: the state first (what a script reads), then when, how many attempts, and the error if any. */
export function formatStatus(status: MessageStatus): string {
  const attempts = `${status.Attempts} attempt${status.Attempts === 1 ? '' : 's'}`;
  const error =
    status.ErrorCode === undefined && status.ErrorText === undefined
      ? ''
      : `, error ${status.ErrorCode ?? '-'}: ${status.ErrorText ?? ''}`;
  return `${status.State ?? '(none)'} (updated ${status.Updated}, ${attempts}${error})`;
}

/** The answer as JSON, with the contract's members in camel case (state, updated, attempts, errorCode, errorText). */
export function statusJson(id: string, status: MessageStatus): string {
  return JSON.stringify({
    id,
    state: status.State ?? null,
    updated: status.Updated,
    attempts: status.Attempts,
    errorCode: status.ErrorCode ?? null,
    errorText: status.ErrorText ?? null,
  });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateStatusOptions(args);
  const { password, network } = await accountCallInputs(options);
  const { StatusAPIClient } = await import('../../generated/status-api/client.js');
  const client = accountClient(StatusAPIClient, options, network);
  return callService(client, async () => {
    const answer = await client.GetMessageStatus({ emailAddress: options.email, password, messageId: options.id });
    const status = answer.GetMessageStatusResult;
    if (status === undefined) {
      process.stderr.write('smskit: the service answered GetMessageStatus without a status\n');
      return EXIT_FAILED;
    }
    process.stdout.write(`${options.json ? statusJson(options.id, status) : formatStatus(status)}\n`);
    return EXIT_OK;
  });
}

export const statusCommand: CliCommand = {
  command: 'status <id>',
  describe: 'Read the state of one message the account sent (GetMessageStatus at /statusapi.asmx)',
  builder,
  examples: [
    [
      'smskit status SMS-01J9Z3Q4V6W8X0Y2Z4A6B8C0D2 --url http://127.0.0.1:8080/statusapi.asmx --email you@example.com',
      'GetMessageStatus over SOAP 1.1; prints the state, when it changed, the attempts and any error',
    ],
    [
      'SMSKIT_PASSWORD=... smskit status SMS-… --binding http-get --json --url ... --email you@example.com',
      'over HTTP GET; one JSON object (id, state, updated, attempts, errorCode, errorText)',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.status,
  run,
};
