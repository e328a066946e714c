/** `smskit account add|list|disable|enable`: manage the service's accounts in its database. */
import type { Argv } from 'yargs';
import { UsageError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { readSecret } from '../secret-input.js';
import { checkDbArgument, PASSWORD_ENV, requireExistingDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';

const ACTIONS = ['add', 'list', 'disable', 'enable'] as const;
type Action = (typeof ACTIONS)[number];

export interface AccountOptions {
  readonly action: Action;
  readonly db: string;
  readonly email: string | undefined;
  readonly keywords: readonly string[];
  readonly passwordStdin: boolean;
  readonly json: boolean;
}

export function validateAccountOptions(args: Record<string, unknown>): AccountOptions {
  const action = args.action as Action;
  const email = typeof args.email === 'string' ? args.email : undefined;
  const keywords = ((args.keyword as unknown[] | undefined) ?? []).map(String);
  if (action !== 'list' && email === undefined) throw new UsageError(`account ${action} needs --email`);
  if (action === 'add' && keywords.length === 0) throw new UsageError('account add needs at least one --keyword');
  if (action !== 'add' && keywords.length > 0) throw new UsageError(`--keyword goes with account add only`);
  return Object.freeze({
    action,
    db: String(args.db),
    email,
    keywords,
    passwordStdin: args['password-stdin'] === true,
    json: args.json === true,
  });
}

function builder(yargs: Argv): Argv {
  return withDbOption(yargs)
    .positional('action', { choices: ACTIONS, describe: 'What to do' })
    .option('email', { type: 'string', describe: 'The account (its e-mail address)' })
    .option('keyword', {
      type: 'string',
      array: true,
      describe: 'Keyword registered to the account (repeatable; add only)',
    })
    .option('password-stdin', {
      type: 'boolean',
      default: false,
      describe: `Read the password from standard input (else ${PASSWORD_ENV}, else a prompt)`,
    })
    .option('json', { type: 'boolean', default: false, describe: 'list: print JSON' });
}

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateAccountOptions(args);
  const { openSmsApp } = await import('../../service/app.js');
  const dbPath = options.action === 'add' ? checkDbArgument(options.db) : requireExistingDb(options.db);
  let app: Awaited<ReturnType<typeof openSmsApp>>;
  try {
    app = await openSmsApp({ dbPath });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
    const email = options.email ?? '';
    if (options.action === 'add') {
      const password = await readSecret({
        envName: PASSWORD_ENV,
        fromStdin: options.passwordStdin,
        prompt: `password for ${email}: `,
      });
      const added = await app.accounts.add({ email, password, keywords: options.keywords });
      process.stdout.write(`added ${added.email} (keywords: ${added.keywords.join(', ')})\n`);
    } else if (options.action === 'list') {
      const accounts = await app.accounts.list();
      if (options.json) process.stdout.write(`${JSON.stringify(accounts, null, 2)}\n`);
      else
        for (const a of accounts)
          process.stdout.write(
            `${a.email}\t${a.keywords.join(',')}\t${a.disabled ? 'disabled' : 'active'}\t${a.createdAt}\n`,
          );
    } else {
      await app.accounts.setDisabled(email, options.action === 'disable');
      process.stdout.write(`${options.action}d ${email}\n`);
    }
    return EXIT_OK;
  } finally {
    await app.close();
  }
}

export const accountCommand: CliCommand = {
  command: 'account <action>',
  describe: 'Manage accounts: add (password from a prompt, stdin or SMSKIT_PASSWORD), list, disable, enable',
  builder,
  examples: [
    [
      'smskit account add --email you@example.com --keyword ACME',
      'the password is prompted for (or $SMSKIT_PASSWORD, or --password-stdin)',
    ],
    ['smskit account list --json', 'every account as JSON'],
    ['smskit account disable --email you@example.com', 'refuse its requests from now on'],
  ],
  exitCodes: COMMAND_EXIT_CODES.account,
  run,
};
