/**
 * The cost of the password hashes `smskit account add` and `account passwd` make: scrypt with
 * N = 2^SMSKIT_SCRYPT_LOG_N (default 15, r = 8, p = 1). A hash keeps the cost it was made with,
 * so raising it later leaves existing passwords working. Raise it where the hosts can afford the
 * memory (17 is OWASP's recommendation: 128 MiB a verification); lower it only for a test suite,
 * where each `account add` would otherwise spend a quarter of a CPU-second, as Laravel's test
 * configuration lowers bcrypt's rounds.
 */
import { DEFAULT_SCRYPT, MAX_LOG_N, type ScryptParams } from '../service/accounts/passwords.js';
import { CliError } from './cli-error.js';

export const SCRYPT_LOG_N_ENV = 'SMSKIT_SCRYPT_LOG_N';
/** 1 MiB of memory a hash: below it scrypt is no longer a memory-hard cost worth its name. */
export const MIN_LOG_N = 10;

export function passwordHashCost(env: NodeJS.ProcessEnv = process.env): ScryptParams {
  const value = env[SCRYPT_LOG_N_ENV];
  if (value === undefined || value === '') return DEFAULT_SCRYPT;
  const logN = /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  if (!(logN >= MIN_LOG_N && logN <= MAX_LOG_N))
    throw new CliError(
      `${SCRYPT_LOG_N_ENV}=${value} is not a cost smskit hashes with: give a whole number from ${MIN_LOG_N} to ${MAX_LOG_N} (default ${DEFAULT_SCRYPT.logN})`,
    );
  return { ...DEFAULT_SCRYPT, logN };
}
