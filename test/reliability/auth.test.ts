/**
 * Authentication abuse through the wire (the SMS service on port 0): repeated wrong
 * passwords for one account, and from one remote address across accounts, are refused with
 * TooManyAttempts on every binding (other accounts are not affected); and an unknown account
 * costs the same work as a wrong password on a known one: one scrypt verification with the
 * account's parameters (counted, not timed, so a loaded machine cannot fail it).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError } from '../../runtime/index.js';
import { verifyPassword } from '../../service/accounts/passwords.js';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { tempDir } from '../../tools/serve-process.js';

// The real hashing, watched: how many scrypt verifications a request costs, and against which hash.
vi.mock('../../service/accounts/passwords.js', { spy: true });

const BINDINGS = ['soap11', 'soap12', 'http-get', 'http-post'] as const;
const PASSWORD = 'Otter-Granite-4410-pw';
const dir = tempDir('auth');
const servers: SmsServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  dir.remove();
});

async function start(name: string, limits: { account: number; address: number }, logN: number): Promise<SmsServer> {
  const server = await startSmsServer({
    dbPath: join(dir.path, `${name}.db`),
    scrypt: { logN, r: 8, p: 1 },
    authLimits: {
      perAccount: { maxFailures: limits.account, windowMs: 60_000 },
      perAddress: { maxFailures: limits.address, windowMs: 60_000 },
    },
    http: { logger: { error: () => {} } },
  });
  servers.push(server);
  for (const email of ['alice@example.com', 'bob@example.com'])
    await server.app.accounts.add({ email, password: PASSWORD, keywords: ['ACME'] });
  return server;
}

async function send(
  server: SmsServer,
  binding: (typeof BINDINGS)[number],
  email: string,
  password: string,
): Promise<string> {
  const client = new ServiceAPIClient({ url: `${server.url}/serviceapi.asmx`, binding, timeoutMs: 10_000 });
  try {
    await client.SMSSend({
      keyword: 'ACME',
      emailAddress: email,
      password,
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: 'hi',
    });
    return 'ok';
  } catch (error) {
    if (!(error instanceof SoapFaultError)) throw error;
    return `${error.code}/${error.detail.code ?? error.message.split(':')[0]}`;
  } finally {
    await client.close();
  }
}

const CLIENT = { soap11: 'Client', soap12: 'Sender', 'http-get': 'Client', 'http-post': 'Client' } as const;

describe('failed-attempt limits on the wire', () => {
  it('an account with repeated wrong passwords is refused with TooManyAttempts on every binding, even with the right password', async () => {
    const server = await start('account', { account: 4, address: 1000 }, 10);
    for (let i = 0; i < 4; i++)
      expect(await send(server, BINDINGS[i]!, 'alice@example.com', 'wrong-password')).toBe(
        `${CLIENT[BINDINGS[i]!]}/AuthenticationFailed`,
      );
    for (const binding of BINDINGS)
      expect(await send(server, binding, 'alice@example.com', PASSWORD)).toBe(`${CLIENT[binding]}/TooManyAttempts`);
    for (const binding of BINDINGS) expect(await send(server, binding, 'bob@example.com', PASSWORD)).toBe('ok');
  });

  it('one address guessing across accounts is refused with TooManyAttempts on every binding', async () => {
    const server = await start('address', { account: 1000, address: 6 }, 10);
    for (let i = 0; i < 6; i++)
      expect(await send(server, BINDINGS[i % 4]!, `nobody${i}@example.com`, 'wrong-password')).toMatch(
        /AuthenticationFailed$/,
      );
    for (const binding of BINDINGS)
      expect(await send(server, binding, 'bob@example.com', PASSWORD)).toBe(`${CLIENT[binding]}/TooManyAttempts`);
  });
});

describe('timing does not reveal whether an account exists', () => {
  it('unknown account vs wrong password: each costs one scrypt verification with the same parameters, on every binding', async () => {
    const server = await start('timing', { account: 0, address: 0 }, 12);
    const params = '$scrypt$ln=12,r=8,p=1$';
    for (const [i, binding] of BINDINGS.entries())
      for (const email of [`ghost${i}@example.com`, 'alice@example.com']) {
        vi.mocked(verifyPassword).mockClear();
        expect(await send(server, binding, email, `wrong-${i}`)).toMatch(/AuthenticationFailed$/);
        // The parameters part of the hash verified against: a malformed one would return at once.
        const verified = vi.mocked(verifyPassword).mock.calls.map(([, encoded]) => encoded.slice(0, params.length));
        expect(verified, `${email} over ${binding}`).toEqual([params]);
      }
  });
});
