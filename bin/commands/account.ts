/**
 * `smskit account add|list|disable|enable|passwd|unlock|test|live|set`: manage the service's
 * accounts in its database (`set`: the callback receiver and secret, ./account-callback.ts). A running service sees every change on the account's next request (it reads
 * the row each time), the lifted lockout of `unlock` included.
 */
import type { Argv } from 'yargs';
import { UsageError } from '../cli-error.js';
import { explainDatabaseError } from '../database-errors.js';
import { COMMAND_EXIT_CODES, EXIT_OK } from '../exit-codes.js';
import { passwordHashCost } from '../password-cost.js';
import { readSecret, readStdinLine } from '../secret-input.js';
import { checkDbArgument, PASSWORD_ENV, requireExistingDb, withDbOption } from '../service-defaults.js';
import type { CliCommand } from './command.js';
import { describeCallbackChange, validateCallbackOptions } from './account-callback.js';
import type { CallbackChange } from '../../service/accounts/accounts.js';

const ACTIONS = ['add', 'list', 'disable', 'enable', 'passwd', 'unlock', 'test', 'live', 'set'] as const;
type Action = (typeof ACTIONS)[number];

export interface AccountOptions {
  readonly action: Action;
  readonly db: string;
  readonly email: string | undefined;
  readonly keywords: readonly string[];
  readonly test: boolean;
  readonly passwordStdin: boolean;
  readonly json: boolean;
  /** account set: the callback change. */
  readonly callback: CallbackChange | undefined;
}

export function validateAccountOptions(args: Record<string, unknown>, secretFromStdin?: string): AccountOptions {
  const action = args.action as Action;
  const email = typeof args.email === 'string' ? args.email : undefined;
  const keywords = ((args.keyword as unknown[] | undefined) ?? []).map(String);
  if (action !== 'list' && email === undefined) throw new UsageError(`account ${action} needs --email`);
  if (action === 'add' && keywords.length === 0) throw new UsageError('account add needs at least one --keyword');
  if (action !== 'add' && keywords.length > 0) throw new UsageError(`--keyword goes with account add only`);
  if (action !== 'add' && args.test === true)
    throw new UsageError('--test goes with account add only (switch an existing account with account test|live)');
  if (args['password-stdin'] === true && action !== 'add' && action !== 'passwd')
    throw new UsageError('--password-stdin goes with account add and account passwd only');
  if (args.json === true && action !== 'list') throw new UsageError('--json goes with account list only');
  const callback = validateCallbackOptions(args, action, secretFromStdin);
  return Object.freeze({
    action,
    db: String(args.db),
    email,
    keywords,
    test: args.test === true,
    passwordStdin: args['password-stdin'] === true,
    json: args.json === true,
    callback,
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
    .option('test', {
      type: 'boolean',
      describe: 'add: a test account (its messages are stored in state test and never delivered)',
    })
    .option('password-stdin', {
      type: 'boolean',
      default: false,
      describe: `Read the password from standard input (else ${PASSWORD_ENV}, else a prompt)`,
    })
    .option('json', { type: 'boolean', default: false, describe: 'list: print JSON' })
    .option('callback-url', {
      type: 'string',
      describe: 'set: post every state change of its messages to this https:// URL (clears a 410 switch-off)',
    })
    .option('callback-secret', {
      type: 'string',
      describe: 'set: the whsec_… secret callbacks are signed with (default: one is generated and printed once)',
    })
    .option('callback-secret-stdin', {
      type: 'boolean',
      describe: 'set: read the whsec_… secret from standard input (kept out of the process list)',
    })
    .option('callback', { type: 'boolean', describe: 'set: --no-callback removes the callback URL' })
    .option('allow-http-callback', {
      type: 'boolean',
      describe: 'set: accept a plain http:// callback URL (tests, private networks)',
    });
}

type App = import('../../service/admin.js').Administration;
type AccountSummary = Awaited<ReturnType<App['accounts']['list']>>[number];

function statusOf(account: AccountSummary): string {
  const flags = [account.disabled ? 'disabled' : 'active'];
  if (account.test) flags.push('test');
  if (account.lockedUntil !== null) flags.push(`locked until ${account.lockedUntil}`);
  return flags.join(',');
}

function callbackOf(account: AccountSummary): string {
  if (account.callbackUrl === null) return '-';
  const off = account.callbacksDisabledAt === null ? '' : ` (disabled since ${account.callbacksDisabledAt})`;
  return `${account.callbackUrl}${off}`;
}

function printList(accounts: readonly AccountSummary[], json: boolean, db: string): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(accounts, null, 2)}\n`);
    return;
  }
  if (accounts.length === 0) {
    process.stdout.write(`no accounts in ${db} (add one: smskit account add --db ${db} --email … --keyword …)\n`);
    return;
  }
  // Tab-separated, under a header row that names each column.
  const rows = accounts.map(
    (a) => `${a.email}\t${a.keywords.join(',')}\t${statusOf(a)}\t${a.createdAt}\t${callbackOf(a)}`,
  );
  process.stdout.write(`${['EMAIL\tKEYWORDS\tSTATUS\tCREATED\tCALLBACK', ...rows].join('\n')}\n`);
}

async function newPassword(options: AccountOptions, email: string): Promise<string> {
  return readSecret({
    envName: PASSWORD_ENV,
    fromStdin: options.passwordStdin,
    prompt: `${options.action === 'passwd' ? 'new password' : 'password'} for ${email}: `,
  });
}

/** What each action does and the line it prints. */
async function perform(app: App, options: AccountOptions): Promise<string> {
  const email = options.email ?? '';
  switch (options.action) {
    case 'add': {
      const password = await newPassword(options, email);
      const added = await app.accounts.add({ email, password, keywords: options.keywords, test: options.test });
      return `added ${added.email} (keywords: ${added.keywords.join(', ')}${added.test ? '; test account: messages are never delivered' : ''})`;
    }
    case 'passwd':
      await app.accounts.setPassword(email, await newPassword(options, email));
      return `changed the password of ${email}`;
    case 'unlock':
      await app.accounts.unlock(email);
      return `unlocked ${email} (running services forget its failed attempts on its next request)`;
    case 'set': {
      const change = options.callback ?? {};
      const { generatedSecret } = await app.accounts.setCallback(email, change);
      return describeCallbackChange(email, change, generatedSecret).join('\n');
    }
    case 'test':
    case 'live':
      await app.accounts.setTest(email, options.action === 'test');
      return options.action === 'test'
        ? `${email} is a test account: its messages are stored and answered, never delivered`
        : `${email} is a live account: its messages are delivered`;
    default:
      await app.accounts.setDisabled(email, options.action === 'disable');
      return `${options.action}d ${email}${options.action === 'enable' ? ' (and lifted any lockout)' : ''}`;
  }
}

async function run(args: Record<string, unknown>): Promise<number> {
  const scrypt = passwordHashCost();
  // Read before the flags are checked, so the secret is checked with them (and never in argv).
  const secret = args['callback-secret-stdin'] === true && args.action === 'set' ? await readStdinLine() : undefined;
  const options = validateAccountOptions(args, secret);
  const { openAdministration } = await import('../../service/admin.js');
  const dbPath = options.action === 'add' ? checkDbArgument(options.db) : requireExistingDb(options.db);
  let app: App;
  try {
    app = await openAdministration({ dbPath, scrypt });
  } catch (error) {
    throw explainDatabaseError(error, dbPath);
  }
  try {
    if (options.action === 'list') printList(await app.accounts.list(), options.json, options.db);
    else process.stdout.write(`${await perform(app, options)}\n`);
    return EXIT_OK;
  } finally {
    await app.close();
  }
}

export const accountCommand: CliCommand = {
  command: 'account <action>',
  describe:
    'Manage accounts: add [--test] (password from a prompt, stdin or SMSKIT_PASSWORD), list, disable, enable, passwd, unlock, test, live, set (callbacks)',
  builder,
  examples: [
    [
      'smskit account add --email you@example.com --keyword ACME',
      'the password is prompted for (or $SMSKIT_PASSWORD, or --password-stdin)',
    ],
    ['smskit account add --test --email ci@example.com --keyword ACME', 'a test account: messages never delivered'],
    ['smskit account list --json', 'every account as JSON (disabled, test, lockedUntil)'],
    ['smskit account passwd --email you@example.com', 'a new password (prompt, stdin or $SMSKIT_PASSWORD)'],
    [
      'SMSKIT_SCRYPT_LOG_N=17 smskit account passwd --email you@example.com',
      'hashed at scrypt N = 2^17 (default 2^15; 10 to 20)',
    ],
    ['smskit account unlock --email you@example.com', 'lift the lockout after repeated wrong passwords'],
    ['smskit account disable --email you@example.com', 'refuse its requests from now on'],
    [
      'smskit account set --email you@example.com --callback-url https://hooks.example.com/sms',
      'post its state changes there, signed (a secret is generated and printed once)',
    ],
  ],
  exitCodes: COMMAND_EXIT_CODES.account,
  run,
};
