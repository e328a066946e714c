/**
 * The hash an unknown address is verified against, so that a refusal costs the same whether or
 * not the account exists. "The same" means the same scrypt parameters as the accounts' own
 * hashes, which need not be this process's: hashes keep the cost they were made with (an
 * operator raises it, `account add` ran with another SMSKIT_SCRYPT_LOG_N, the store predates a
 * change of default). So the stand-in copies the parameters of a real hash: the newest
 * account's, read once when first needed, then those of every account row the process reads.
 * Only with no account at all does it fall back to the configured parameters.
 */
import { hashParameters, parametersPrefix, type ScryptParams, unmatchableHash } from './passwords.js';

export interface StandInHash {
  /** Notes the hash of an account just read, so the stand-in keeps its parameters. */
  seen(passwordHash: string): void;
  /** A hash no password matches, with the parameters of the accounts' hashes. */
  get(): Promise<string>;
}

export function createStandInHash(
  fallback: ScryptParams,
  newestAccountHash: () => Promise<string | undefined>,
): StandInHash {
  let standIn: string | undefined;
  let standInPrefix = '';
  // One read of the newest account however many unknown addresses arrive before it answers.
  let firstRead: Promise<void> | undefined;
  const seen = (passwordHash: string): void => {
    // Every authentication passes here: the usual case, same parameters, is one string compare.
    if (standIn !== undefined && passwordHash.startsWith(standInPrefix)) return;
    const params = hashParameters(passwordHash);
    if (params === undefined) return;
    standIn = unmatchableHash(params);
    standInPrefix = parametersPrefix(params);
  };
  return {
    seen,
    async get() {
      if (standIn === undefined) {
        firstRead ??= newestAccountHash().then(
          (newest) => {
            if (newest !== undefined) seen(newest);
          },
          (error: unknown) => {
            firstRead = undefined; // the next unknown address reads again
            throw error;
          },
        );
        await firstRead;
      }
      if (standIn === undefined) {
        standIn = unmatchableHash(fallback);
        standInPrefix = parametersPrefix(fallback);
      }
      return standIn;
    },
  };
}
