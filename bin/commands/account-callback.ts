/**
 * `smskit account set`: an account's callback receiver and signing secret (docs/operations.md, "Accounts").
 * The flags are checked here, before the database is opened, and each refusal names its flag;
 * a secret smskit generates is printed once, on stdout, and never again (account list shows the
 * URL only).
 */
import { UsageError } from '../cli-error.js';
import { callbackSecretProblem, callbackUrlProblem } from '../../service/accounts/callback-settings.js';
import type { CallbackChange } from '../../service/accounts/accounts.js';

/** The callback flags of `account set`, or undefined when the action is another one (which refuses them). */
export function validateCallbackOptions(
  args: Record<string, unknown>,
  action: string,
  secretFromStdin?: string,
): CallbackChange | undefined {
  const url = typeof args['callback-url'] === 'string' ? args['callback-url'] : undefined;
  const secret = typeof args['callback-secret'] === 'string' ? args['callback-secret'] : secretFromStdin;
  // yargs reads --no-callback as callback=false.
  const remove = args.callback === false;
  const allowHttp = args['allow-http-callback'] === true;
  if (action !== 'set') {
    const given = [
      [url !== undefined, '--callback-url'],
      [secret !== undefined, '--callback-secret'],
      [args['callback-secret-stdin'] === true, '--callback-secret-stdin'],
      [remove, '--no-callback'],
      [allowHttp, '--allow-http-callback'],
    ].find(([set]) => set === true);
    if (given !== undefined) throw new UsageError(`${given[1]} goes with account set only`);
    return undefined;
  }
  if (typeof args['callback-secret'] === 'string' && args['callback-secret-stdin'] === true)
    throw new UsageError('--callback-secret and --callback-secret-stdin both give the secret: give one');
  if (remove && (url !== undefined || secret !== undefined))
    throw new UsageError('--no-callback removes the callback: give it without --callback-url and --callback-secret');
  if (url === '') throw new UsageError('--callback-url is empty (to remove the callback, use --no-callback)');
  if (url === undefined && secret === undefined && !remove)
    throw new UsageError('account set needs --callback-url URL, --callback-secret whsec_… or --no-callback');
  if (allowHttp && url === undefined) throw new UsageError('--allow-http-callback goes with --callback-url');
  const urlProblem = url === undefined ? undefined : callbackUrlProblem(url, allowHttp);
  if (urlProblem !== undefined) throw new UsageError(`--callback-url ${urlProblem}`);
  // The value itself is never repeated: a wrong secret may still be a real one.
  const secretProblem = secret === undefined ? undefined : callbackSecretProblem(secret);
  if (secretProblem !== undefined) throw new UsageError(`--callback-secret ${secretProblem}`);
  return Object.freeze({
    ...(remove ? { url: null } : url === undefined ? {} : { url }),
    ...(secret === undefined ? {} : { secret }),
    allowHttp,
  });
}

/** The lines `account set` prints: what changed, and a generated secret with how to keep it. */
export function describeCallbackChange(
  email: string,
  change: CallbackChange,
  generatedSecret: string | undefined,
): string[] {
  const lines: string[] = [];
  if (change.url === null) lines.push(`removed the callback of ${email} (its pending callbacks are dropped)`);
  else if (change.url !== undefined) lines.push(`${email} posts its state changes to ${change.url}`);
  if (change.secret !== undefined) lines.push(`set the callback secret of ${email}`);
  if (generatedSecret !== undefined) {
    lines.push(
      'callback signing secret (shown this once: store it with your receiver, it verifies each callback with it):',
      generatedSecret,
    );
  }
  return lines;
}
