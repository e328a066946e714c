import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAccounts, type Accounts, type AccountsOptions } from '../../../service/accounts/accounts.js';
import { SmsRefusal } from '../../../service/errors.js';
import { hashPassword, unmatchableHash, verifyPassword } from '../../../service/accounts/passwords.js';
import { openSqliteStore, type SqliteStore as Store } from '../../../service/store/index.js';

// The real hashing, watched: how many scrypt verifications a call costs, and against which hash.
vi.mock('../../../service/accounts/passwords.js', { spy: true });

const FAST = { logN: 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';
const dir = mkdtempSync(join(tmpdir(), 'smskit-accounts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: Store;
let counter = 0;
let now = 1_700_000_000_000;
const clock = (): number => now;

beforeEach(() => {
  store = openSqliteStore({ path: join(dir, `accounts-${counter++}.db`), clock });
});
afterEach(async () => store.close());

function accounts(options: Partial<AccountsOptions> = {}): Accounts {
  return createAccounts({ store, scrypt: FAST, clock, ...options });
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SmsRefusal) {
      expect(error.message).not.toContain(PASSWORD);
      return error.code;
    }
    throw error;
  }
  return 'accepted';
}

describe('password hashes', () => {
  it('verifies the right password only, and carries its parameters', async () => {
    const hash = await hashPassword(PASSWORD, FAST);
    expect(hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, hash)).toBe(false);
    expect(await hashPassword(PASSWORD, FAST)).not.toBe(hash); // salted
  });
  it('makes a stand-in hash of the same form and parameters that no password matches', async () => {
    const hash = unmatchableHash(FAST);
    expect(hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(unmatchableHash(FAST)).not.toBe(hash);
    for (const password of [PASSWORD, '', 'x']) expect(await verifyPassword(password, hash)).toBe(false);
  });
  it.each([
    ['empty', ''],
    ['wrong scheme', '$argon2id$v=19$x$y'],
    ['short key', '$scrypt$ln=10,r=8,p=1$AAAA$AAAA'],
    ['absurd cost', `$scrypt$ln=40,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(43)}=`],
  ])('malformed hash (%s) never verifies', async (_name, hash) =>
    expect(await verifyPassword(PASSWORD, hash)).toBe(false),
  );
});

describe('authenticate', () => {
  const cases: Array<[string, { given: { email: string; password: string; disabled?: boolean }; want: string }]> = [
    ['right password', { given: { email: 'alice@example.com', password: PASSWORD }, want: 'accepted' }],
    ['address case-insensitive', { given: { email: 'Alice@Example.COM', password: PASSWORD }, want: 'accepted' }],
    [
      'wrong password',
      { given: { email: 'alice@example.com', password: 'wrong password' }, want: 'AuthenticationFailed' },
    ],
    [
      'password case matters',
      { given: { email: 'alice@example.com', password: PASSWORD.toUpperCase() }, want: 'AuthenticationFailed' },
    ],
    ['unknown account', { given: { email: 'bob@example.com', password: PASSWORD }, want: 'AuthenticationFailed' }],
    [
      'over-long address',
      { given: { email: `${'a'.repeat(10_000)}@example.com`, password: PASSWORD }, want: 'AuthenticationFailed' },
    ],
    [
      'over-long password',
      { given: { email: 'alice@example.com', password: PASSWORD + 'x'.repeat(5000) }, want: 'AuthenticationFailed' },
    ],
    [
      'disabled, right password',
      { given: { email: 'alice@example.com', password: PASSWORD, disabled: true }, want: 'AccountDisabled' },
    ],
    [
      'disabled, wrong password',
      { given: { email: 'alice@example.com', password: 'nope nope', disabled: true }, want: 'AuthenticationFailed' },
    ],
  ];
  it.each(cases)('%s', async (_name, { given, want }) => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    if (given.disabled === true) await service.setDisabled('alice@example.com', true);
    expect(await refusal(() => service.authenticate(given.email, given.password, '192.0.2.1'))).toBe(want);
  });

  it('returns the account with its canonical keywords', async () => {
    const service = accounts();
    await service.add({ email: 'Alice@Example.com', password: PASSWORD, keywords: ['acme', 'Promo1', 'ACME'] });
    const row = await service.authenticate('alice@example.com', PASSWORD);
    expect(row).toMatchObject({ email: 'alice@example.com', keywords: ['ACME', 'PROMO1'], disabled: false });
  });

  it('never stores the password', async () => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    await service.authenticate('alice@example.com', PASSWORD);
    store.database.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(store.database.name).includes(Buffer.from(PASSWORD))).toBe(false);
    expect(JSON.stringify(await service.list())).not.toContain(PASSWORD);
  });

  it('a cached success does not survive a password change or a disable', async () => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    await service.authenticate('alice@example.com', PASSWORD);
    await service.setDisabled('alice@example.com', true);
    expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD))).toBe('AccountDisabled');
    await service.setDisabled('alice@example.com', false);
    await service.setPassword('alice@example.com', 'another password');
    expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD))).toBe('AuthenticationFailed');
    expect(await refusal(() => service.authenticate('alice@example.com', 'another password'))).toBe('accepted');
  });

  it('concurrent first requests with the same credentials share one scrypt run', async () => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    vi.mocked(verifyPassword).mockClear();
    const rows = await Promise.all(
      Array.from({ length: 64 }, () => service.authenticate('alice@example.com', PASSWORD)),
    );
    expect(rows.every((row) => row.email === 'alice@example.com')).toBe(true);
    expect(vi.mocked(verifyPassword)).toHaveBeenCalledTimes(1);
  });

  it('an unknown account costs the same scrypt run as a wrong password (one verification, same parameters)', async () => {
    const scrypt = { logN: 12, r: 8, p: 1 };
    const service = accounts({
      scrypt,
      limits: { perAccount: { maxFailures: 0, windowMs: 1 }, perAddress: { maxFailures: 0, windowMs: 1 } },
    });
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    const verifications = async (email: string): Promise<string[]> => {
      vi.mocked(verifyPassword).mockClear();
      expect(await refusal(() => service.authenticate(email, 'wrong password'))).toBe('AuthenticationFailed');
      // The parameters part of the hash verified against: a malformed one would return at once.
      return vi
        .mocked(verifyPassword)
        .mock.calls.map(([, encoded]) => /^\$scrypt\$[^$]+\$/.exec(encoded)?.[0] ?? encoded);
    };
    const params = `$scrypt$ln=${scrypt.logN},r=${scrypt.r},p=${scrypt.p}$`;
    expect(await verifications('alice@example.com')).toEqual([params]);
    expect(await verifications('nobody@example.com')).toEqual([params]);
    expect(await verifications('x'.repeat(300))).toEqual([]); // over-long: no account can have it
  });
});

describe('the stand-in hash for unknown addresses', () => {
  const paramsOf = (encoded: string): string => /^\$scrypt\$[^$]+\$/.exec(encoded)?.[0] ?? encoded;
  const verifiedFor = async (service: Accounts, email: string): Promise<string[]> => {
    vi.mocked(verifyPassword).mockClear();
    expect(await refusal(() => service.authenticate(email, 'wrong password'))).toBe('AuthenticationFailed');
    return vi.mocked(verifyPassword).mock.calls.map(([, encoded]) => paramsOf(encoded));
  };
  const NO_LIMITS = { perAccount: { maxFailures: 0, windowMs: 1 }, perAddress: { maxFailures: 0, windowMs: 1 } };
  /** An account hashed at 2^logN, as another process (another SMSKIT_SCRYPT_LOG_N, an older default) made it. */
  const addMadeAt = (logN: number, email: string) =>
    createAccounts({ store, scrypt: { logN, r: 8, p: 1 }, clock }).add({
      email,
      password: PASSWORD,
      keywords: ['acme'],
    });

  it('takes the parameters of the stored hashes, not of this process, from the first unknown address on', async () => {
    await addMadeAt(12, 'alice@example.com');
    const service = accounts({ limits: NO_LIMITS });
    expect(await verifiedFor(service, 'nobody@example.com')).toEqual(['$scrypt$ln=12,r=8,p=1$']);
    expect(await verifiedFor(service, 'alice@example.com')).toEqual(['$scrypt$ln=12,r=8,p=1$']);
  });

  it("follows the newest account's cost, then the cost of each account read", async () => {
    await addMadeAt(11, 'old@example.com');
    now += 1000;
    await addMadeAt(12, 'new@example.com');
    const service = accounts({ limits: NO_LIMITS });
    expect(await verifiedFor(service, 'ghost@example.com')).toEqual(['$scrypt$ln=12,r=8,p=1$']);
    expect(await verifiedFor(service, 'old@example.com')).toEqual(['$scrypt$ln=11,r=8,p=1$']);
    expect(await verifiedFor(service, 'ghost@example.com')).toEqual(['$scrypt$ln=11,r=8,p=1$']);
  });

  it('reads the newest account once, however many unknown addresses arrive together', async () => {
    await addMadeAt(11, 'alice@example.com');
    const listed = vi.spyOn(store, 'listAccounts');
    const service = accounts({ limits: NO_LIMITS });
    const refusals = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => refusal(() => service.authenticate(`ghost${i}@example.com`, 'wrong password'))),
    );
    expect(refusals).toEqual(Array(5).fill('AuthenticationFailed'));
    expect(listed).toHaveBeenCalledTimes(1);
  });

  it("uses this process's parameters while there is no account at all", async () => {
    expect(await verifiedFor(accounts({ limits: NO_LIMITS }), 'ghost@example.com')).toEqual(['$scrypt$ln=10,r=8,p=1$']);
  });
});

describe('failed-attempt limits', () => {
  const limits = { perAccount: { maxFailures: 3, windowMs: 60_000 }, perAddress: { maxFailures: 5, windowMs: 60_000 } };

  it('blocks an account after repeated failures, even with the right password, until the window passes', async () => {
    const service = accounts({ limits });
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    for (let i = 0; i < 3; i++)
      expect(await refusal(() => service.authenticate('alice@example.com', 'bad password', `198.51.100.${i}`))).toBe(
        'AuthenticationFailed',
      );
    expect(await refusal(() => service.authenticate('ALICE@example.com', PASSWORD, '198.51.100.9'))).toBe(
      'TooManyAttempts',
    );
    now += 60_001;
    expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD, '198.51.100.9'))).toBe('accepted');
  });

  it('limits unknown accounts the same way (no existence oracle)', async () => {
    const service = accounts({ limits });
    for (let i = 0; i < 3; i++) await refusal(() => service.authenticate('ghost@example.com', 'bad password'));
    expect(await refusal(() => service.authenticate('ghost@example.com', 'bad password'))).toBe('TooManyAttempts');
  });

  it('blocks a remote address guessing across accounts, not other addresses', async () => {
    const service = accounts({ limits });
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    for (let i = 0; i < 5; i++)
      await refusal(() => service.authenticate(`user${i}@example.com`, 'bad password', '203.0.113.7'));
    expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD, '203.0.113.7'))).toBe(
      'TooManyAttempts',
    );
    expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD, '203.0.113.8'))).toBe('accepted');
  });

  it('a success resets the account counter', async () => {
    const service = accounts({ limits });
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 2; i++) await refusal(() => service.authenticate('alice@example.com', 'bad password'));
      expect(await refusal(() => service.authenticate('alice@example.com', PASSWORD))).toBe('accepted');
    }
  });
});

describe('a refusal on a row the store keeps', () => {
  const limits = {
    perAccount: { maxFailures: 1, windowMs: 60_000 },
    perAddress: { maxFailures: 100, windowMs: 60_000 },
  };

  /**
   * The store as a running server sees it a moment after another process changed the account:
   * its kept row is the one from before the change, `fresh` reads the row as it is now.
   */
  function keptFromBefore() {
    const kept = new Map<string, Awaited<ReturnType<Store['getAccount']>>>();
    const fresh: string[] = [];
    const lagging: AccountsOptions['store'] = {
      getAccount: async (email, options) => {
        if (options?.fresh === true) {
          fresh.push(email);
          return store.getAccount(email);
        }
        return kept.has(email) ? kept.get(email) : store.getAccount(email);
      },
      listAccounts: () => store.listAccounts(),
      insertAccount: (row) => store.insertAccount(row),
      updateAccount: (email, change) => store.updateAccount(email, change),
    };
    return {
      fresh,
      /** From now on the kept row of `email` is the current one, whatever changes next. */
      keep: async (email: string) => kept.set(email, await store.getAccount(email)),
      accounts: createAccounts({ store: lagging, scrypt: FAST, clock, limits }),
    };
  }

  it('signs in with a password another process has just set, counting no failure', async () => {
    const admin = accounts();
    await admin.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    const t = keptFromBefore();
    await t.keep('alice@example.com');
    await admin.setPassword('alice@example.com', 'another password');
    expect(await refusal(() => t.accounts.authenticate('alice@example.com', 'another password'))).toBe('accepted');
    expect(t.fresh).toEqual(['alice@example.com']);
    // No failure was counted (one more would lock the account: maxFailures 1).
    expect(await refusal(() => t.accounts.authenticate('alice@example.com', 'another password'))).toBe('accepted');
  });

  it('signs in to an account another process has just enabled', async () => {
    const admin = accounts();
    await admin.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    await admin.setDisabled('alice@example.com', true);
    const t = keptFromBefore();
    await t.keep('alice@example.com');
    await admin.setDisabled('alice@example.com', false);
    expect(await refusal(() => t.accounts.authenticate('alice@example.com', PASSWORD))).toBe('accepted');
  });

  it('refuses a wrong password on the row read again only once, with one scrypt run', async () => {
    const admin = accounts();
    await admin.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    const t = keptFromBefore();
    await t.keep('alice@example.com');
    vi.mocked(verifyPassword).mockClear();
    expect(await refusal(() => t.accounts.authenticate('alice@example.com', 'wrong password'))).toBe(
      'AuthenticationFailed',
    );
    // The row as it is now is the one kept: the refusal stands without a second verification.
    expect(t.fresh).toEqual(['alice@example.com']);
    expect(vi.mocked(verifyPassword)).toHaveBeenCalledTimes(1);
    expect(await refusal(() => t.accounts.authenticate('alice@example.com', PASSWORD))).toBe('TooManyAttempts');
  });
});

describe('administration', () => {
  const cases: Array<[string, { given: { email: string; password: string; keywords: string[] }; want: string }]> = [
    ['valid', { given: { email: 'carol@example.com', password: PASSWORD, keywords: ['ACME'] }, want: 'ok' }],
    ['not an address', { given: { email: 'carol', password: PASSWORD, keywords: ['ACME'] }, want: 'InvalidEmail' }],
    [
      'non-ASCII address',
      { given: { email: 'caröl@example.com', password: PASSWORD, keywords: ['ACME'] }, want: 'InvalidEmail' },
    ],
    [
      'short password',
      { given: { email: 'carol@example.com', password: 'short', keywords: ['ACME'] }, want: 'InvalidPassword' },
    ],
    [
      'bad keyword',
      {
        given: { email: 'carol@example.com', password: PASSWORD, keywords: ['TOO-LONG-KEYWORD'] },
        want: 'InvalidKeyword',
      },
    ],
    ['no keyword', { given: { email: 'carol@example.com', password: PASSWORD, keywords: [] }, want: 'InvalidKeyword' }],
    [
      'duplicate',
      { given: { email: 'Alice@example.com', password: PASSWORD, keywords: ['ACME'] }, want: 'AccountExists' },
    ],
  ];
  it.each(cases)('add: %s', async (_name, { given, want }) => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    const outcome = await service.add(given).then(
      () => 'ok',
      (error: { code: string }) => error.code,
    );
    expect(outcome).toBe(want);
  });

  it('lists accounts without secrets; disable/enable/keywords of an unknown account fail', async () => {
    const service = accounts();
    await service.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['acme'] });
    await service.setKeywords('alice@example.com', ['news']);
    expect(await service.list()).toEqual([
      {
        email: 'alice@example.com',
        keywords: ['NEWS'],
        disabled: false,
        createdAt: new Date(now).toISOString(),
        test: false,
        lockedUntil: null,
        callbackUrl: null,
        callbacksDisabledAt: null,
      },
    ]);
    await expect(service.setDisabled('nobody@example.com', true)).rejects.toThrow(
      expect.objectContaining({ code: 'NoSuchAccount' }),
    );
  });
});
