/**
 * Accounts: administration (add, list, disable, enable, keywords, password) and authentication.
 *
 * `authenticate` costs the same whether or not the account exists: an unknown address is verified
 * against a stand-in hash that no password matches, with the parameters of the accounts' own
 * hashes (stand-in-hash.ts). Failed attempts are limited per account and per remote address
 * (sliding windows, see rate-limit.ts); while a key is blocked every attempt is refused with
 * TooManyAttempts before any hashing, even with the right password.
 *
 * A successful verification is remembered for `cacheTtlMs` (see credential-cache.ts), because
 * scrypt costs far more CPU than the per-message budget; the account row (disabled flag,
 * keywords, current hash) is the store's current one for every request (the stores keep rows
 * between changes: a change from another process is seen within milliseconds, docs/service.md).
 */
import { callbackSecretProblem, callbackUrlProblem, newCallbackSecret } from './callback-settings.js';
import { createSharedVerifier, createVerifiedCache } from './credential-cache.js';
import { SmsRefusal } from '../errors.js';
import { canonicalKeyword } from './keyword.js';
import { DEFAULT_SCRYPT, hashPassword, type ScryptParams } from './passwords.js';
import { createFailureLimiter, type FailureLimit } from './rate-limit.js';
import { createStandInHash } from './stand-in-hash.js';
import type { AccountRow, Store } from '../store/index.js';

export interface AuthLimits {
  readonly perAccount: FailureLimit;
  readonly perAddress: FailureLimit;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  perAccount: { maxFailures: 10, windowMs: 15 * 60_000 },
  perAddress: { maxFailures: 100, windowMs: 15 * 60_000 },
};

export interface AccountsOptions {
  readonly store: Pick<Store, 'getAccount' | 'listAccounts' | 'insertAccount' | 'updateAccount'>;
  readonly scrypt?: ScryptParams;
  readonly limits?: AuthLimits;
  readonly clock?: () => number;
  /** How long a successful verification is remembered (ms; 0 disables the cache). */
  readonly cacheTtlMs?: number;
  readonly cacheMaxEntries?: number;
}

export type AccountErrorCode =
  | 'InvalidEmail'
  | 'InvalidPassword'
  | 'InvalidKeyword'
  | 'AccountExists'
  | 'NoSuchAccount'
  | 'InvalidCallback';

/** An administration request was wrong (smskit account add|disable|...). */
export class AccountError extends Error {
  override readonly name = 'AccountError';
  constructor(
    readonly code: AccountErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface AccountSummary {
  readonly email: string;
  readonly keywords: readonly string[];
  readonly disabled: boolean;
  readonly createdAt: string;
  /** A test account: messages stored in state `test`, never delivered. */
  readonly test: boolean;
  /** Until when a server locked it out after repeated wrong passwords (ISO 8601), or null. */
  readonly lockedUntil: string | null;
  /** Where its state changes are posted, or null (never the signing secret). */
  readonly callbackUrl: string | null;
  /** Since when its callbacks are off because the receiver answered 410 Gone (ISO 8601), or null. */
  readonly callbacksDisabledAt: string | null;
}

/** `smskit account set`: the receiver (null removes it) and the signing secret. */
export interface CallbackChange {
  readonly url?: string | null;
  readonly secret?: string;
  /** Plain http:// accepted (tests, private networks). */
  readonly allowHttp?: boolean;
}

export interface Accounts {
  authenticate(email: string, password: string, remoteAddress?: string): Promise<AccountRow>;
  add(input: { email: string; password: string; keywords: readonly string[]; test?: boolean }): Promise<AccountSummary>;
  list(): Promise<AccountSummary[]>;
  /** Enabling also lifts a lockout (see unlock). */
  setDisabled(email: string, disabled: boolean): Promise<void>;
  /** Makes it a test account (messages never delivered) or a live one. */
  setTest(email: string, test: boolean): Promise<void>;
  /**
   * Lifts a lockout: every running server forgets the account's earlier failed attempts the next
   * time it is tried (the row carries the time of the unlock), and the lockout shown by list ends.
   */
  unlock(email: string): Promise<void>;
  setKeywords(email: string, keywords: readonly string[]): Promise<void>;
  setPassword(email: string, password: string): Promise<void>;
  /**
   * Sets (which switches callbacks back on after a 410) or removes the receiver, and the secret.
   * A receiver set on an account without a secret gets a fresh one, returned once to be shown.
   */
  setCallback(email: string, change: CallbackChange): Promise<{ readonly generatedSecret: string | undefined }>;
}

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;
export const MAX_EMAIL = 254;
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The account key: the address with ASCII letters lower-cased (only ASCII; see ../delivery/carriers.ts). */
export function accountKey(email: string): string {
  return email.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

export function createAccounts(options: AccountsOptions): Accounts {
  const params = options.scrypt ?? DEFAULT_SCRYPT;
  const clock = options.clock ?? Date.now;
  return {
    authenticate: createAuthenticator(options, params, clock),
    ...createAdministration(options.store, params, clock),
  };
}

type Authenticate = Accounts['authenticate'];

function createAuthenticator(options: AccountsOptions, params: ScryptParams, clock: () => number): Authenticate {
  const { store } = options;
  const limits = options.limits ?? DEFAULT_AUTH_LIMITS;
  const perAccount = createFailureLimiter(limits.perAccount, clock);
  const perAddress = createFailureLimiter(limits.perAddress, clock);
  const cache = createVerifiedCache(options.cacheTtlMs ?? 10 * 60_000, options.cacheMaxEntries ?? 10_000, clock);
  const standIn = createStandInHash(params, async () => newestAccount(await store.listAccounts())?.passwordHash);
  const signInOn = createSignIn(perAccount, cache, standIn);
  const recordLockout = (key: string, lockedUntil: number | null): void => {
    // Only so that `smskit account list` can show it; the in-memory limiter decides. A failed
    // write changes nothing for the answer.
    store.updateAccount(key, { lockedUntil }).catch(() => undefined);
  };
  const failed = (key: string | undefined, remoteAddress: string | undefined, exists = false): SmsRefusal => {
    if (key !== undefined) {
      const wasBlocked = perAccount.isBlocked(key);
      perAccount.recordFailure(key);
      const until = perAccount.blockedUntil(key);
      if (exists && !wasBlocked && until !== undefined) recordLockout(key, until);
    }
    if (remoteAddress !== undefined) perAddress.recordFailure(remoteAddress);
    return new SmsRefusal('AuthenticationFailed', 'emailAddress or password is wrong');
  };

  return async (email, password, remoteAddress) => {
    // No account can have an over-long address, so answering at once reveals nothing; and it
    // must not become a limiter key (a megabyte of key per attempt would exhaust memory).
    if (email.length > MAX_EMAIL) throw failed(undefined, remoteAddress);
    const key = accountKey(email);
    if (remoteAddress !== undefined && perAddress.isBlocked(remoteAddress)) throw tooMany();
    const kept = await store.getAccount(key);
    let signIn = await signInOn(key, password, kept);
    if (signIn.outcome !== 'signed in') {
      // Refused on the row the store keeps, which may be a moment behind a change another process
      // just made (a new password, the account enabled or unlocked): decided on the row as it is
      // now, so such a change never costs a refusal, nor a failure towards the lockout.
      const current = await store.getAccount(key, { fresh: true });
      if (differsForSignIn(kept, current)) signIn = await signInOn(key, password, current);
    }
    if (signIn.outcome === 'locked') throw tooMany();
    if (signIn.outcome === 'wrong') throw failed(key, remoteAddress, signIn.exists);
    if (signIn.outcome === 'disabled') throw new SmsRefusal('AccountDisabled', 'this account is disabled');
    perAccount.reset(key);
    if (signIn.row.lockedUntil != null) recordLockout(key, null);
    cache.remember(signIn.cacheKey, signIn.row.passwordHash);
    return signIn.row;
  };
}

/** What signing in on one account row comes to; the caller answers, counts and remembers. */
type SignIn =
  | { readonly outcome: 'signed in'; readonly row: AccountRow; readonly cacheKey: string }
  | { readonly outcome: 'locked' }
  | { readonly outcome: 'disabled' }
  | { readonly outcome: 'wrong'; readonly exists: boolean };

function createSignIn(
  perAccount: ReturnType<typeof createFailureLimiter>,
  cache: ReturnType<typeof createVerifiedCache>,
  standIn: ReturnType<typeof createStandInHash>,
): (key: string, password: string, row: AccountRow | undefined) => Promise<SignIn> {
  const verify = createSharedVerifier();
  return async (key, password, row) => {
    if (row !== undefined) standIn.seen(row.passwordHash);
    if (perAccount.isBlocked(key)) {
      // An administrator may have lifted the lockout since (smskit account unlock, possibly
      // from another process): failures before that no longer count.
      if (row?.unlockedAt != null) perAccount.forgetBefore(key, row.unlockedAt);
      if (perAccount.isBlocked(key)) return { outcome: 'locked' };
    }
    const cacheKey = cache.key(key, password);
    let verified = row !== undefined && cache.hit(cacheKey, row.passwordHash);
    if (!verified) {
      // Same work for unknown accounts and over-long passwords ('' never matches: MIN_PASSWORD).
      const candidate = password.length <= MAX_PASSWORD ? password : '';
      const matches = await verify(cacheKey, candidate, row?.passwordHash ?? (await standIn.get()));
      verified = matches && row !== undefined;
    }
    if (!verified || row === undefined) return { outcome: 'wrong', exists: row !== undefined };
    if (row.disabled) return { outcome: 'disabled' };
    return { outcome: 'signed in', row, cacheKey };
  };
}

/** Whether a sign-in refused on `kept` could go otherwise on `current`. */
function differsForSignIn(kept: AccountRow | undefined, current: AccountRow | undefined): boolean {
  if (kept === undefined || current === undefined) return kept !== current;
  return (
    kept.passwordHash !== current.passwordHash ||
    kept.disabled !== current.disabled ||
    (kept.unlockedAt ?? null) !== (current.unlockedAt ?? null)
  );
}

function newestAccount(rows: readonly AccountRow[]): AccountRow | undefined {
  return rows.reduce<AccountRow | undefined>(
    (newest, row) => (newest && newest.createdAt >= row.createdAt ? newest : row),
    undefined,
  );
}

function tooMany(): SmsRefusal {
  return new SmsRefusal('TooManyAttempts', 'too many failed authentication attempts; try again later');
}

function createAdministration(
  store: AccountsOptions['store'],
  params: ScryptParams,
  clock: () => number,
): Omit<Accounts, 'authenticate'> {
  return {
    async add(input) {
      const email = checkEmail(input.email);
      checkPassword(input.password);
      const keywords = checkKeywords(input.keywords);
      if ((await store.getAccount(email)) !== undefined)
        throw new AccountError('AccountExists', `account ${email} already exists`);
      const row: AccountRow = {
        email,
        passwordHash: await hashPassword(input.password, params),
        keywords,
        disabled: false,
        createdAt: clock(),
        test: input.test === true,
      };
      await store.insertAccount(row);
      return summary(row, clock());
    },
    list: async () => (await store.listAccounts()).map((row) => summary(row, clock())),
    async setDisabled(email, disabled) {
      const unlock = disabled ? {} : { unlockedAt: clock(), lockedUntil: null };
      if (!(await store.updateAccount(accountKey(email), { disabled, ...unlock }))) throw noSuchAccount(email);
    },
    async setTest(email, test) {
      if (!(await store.updateAccount(accountKey(email), { test }))) throw noSuchAccount(email);
    },
    async unlock(email) {
      if (!(await store.updateAccount(accountKey(email), { unlockedAt: clock(), lockedUntil: null })))
        throw noSuchAccount(email);
    },
    async setKeywords(email, keywords) {
      const canonical = checkKeywords(keywords);
      if (!(await store.updateAccount(accountKey(email), { keywords: canonical }))) throw noSuchAccount(email);
    },
    async setPassword(email, password) {
      checkPassword(password);
      const passwordHash = await hashPassword(password, params);
      if (!(await store.updateAccount(accountKey(email), { passwordHash }))) throw noSuchAccount(email);
    },
    setCallback: (email, change) => setCallback(store, accountKey(email), change),
  };
}

async function setCallback(
  store: AccountsOptions['store'],
  key: string,
  change: CallbackChange,
): Promise<{ generatedSecret: string | undefined }> {
  const urlProblem =
    typeof change.url === 'string' ? callbackUrlProblem(change.url, change.allowHttp === true) : undefined;
  if (urlProblem !== undefined) throw new AccountError('InvalidCallback', `callback URL ${urlProblem}`);
  const secretProblem = change.secret === undefined ? undefined : callbackSecretProblem(change.secret);
  if (secretProblem !== undefined) throw new AccountError('InvalidCallback', `callback secret ${secretProblem}`);
  const row = await store.getAccount(key);
  if (row === undefined) throw noSuchAccount(key);
  const generatedSecret =
    typeof change.url === 'string' && change.secret === undefined && row.callbackSecret == null
      ? newCallbackSecret()
      : undefined;
  const secret = change.secret ?? generatedSecret;
  const updated = await store.updateAccount(key, {
    ...(change.url === undefined ? {} : { callbackUrl: change.url }),
    ...(typeof change.url === 'string' ? { callbacksDisabledAt: null } : {}),
    ...(secret === undefined ? {} : { callbackSecret: secret }),
  });
  if (!updated) throw noSuchAccount(key);
  return { generatedSecret };
}

function summary(row: AccountRow, now: number): AccountSummary {
  const locked = row.lockedUntil != null && row.lockedUntil > now;
  return {
    email: row.email,
    keywords: row.keywords,
    disabled: row.disabled,
    createdAt: new Date(row.createdAt).toISOString(),
    test: row.test === true,
    lockedUntil: locked ? new Date(row.lockedUntil ?? 0).toISOString() : null,
    callbackUrl: row.callbackUrl ?? null,
    callbacksDisabledAt: row.callbacksDisabledAt == null ? null : new Date(row.callbacksDisabledAt).toISOString(),
  };
}

function noSuchAccount(email: string): AccountError {
  return new AccountError('NoSuchAccount', `no account ${accountKey(email)}`);
}

function checkEmail(email: string): string {
  if (email.length > MAX_EMAIL || !EMAIL.test(email))
    throw new AccountError(
      'InvalidEmail',
      'email address must look like name@example.com (ASCII, at most 254 characters)',
    );
  return accountKey(email);
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw new AccountError('InvalidPassword', `password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
}

function checkKeywords(keywords: readonly string[]): string[] {
  const canonical = new Set<string>();
  for (const keyword of keywords) {
    try {
      canonical.add(canonicalKeyword(keyword));
    } catch {
      throw new AccountError('InvalidKeyword', 'keyword must be 1 to 11 ASCII letters or digits');
    }
  }
  if (canonical.size === 0) throw new AccountError('InvalidKeyword', 'an account needs at least one keyword');
  return [...canonical];
}
