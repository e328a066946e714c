/**
 * Authentication abuse through the wire (the SMS service on port 0): repeated wrong
 * passwords for one account, and from one remote address across accounts, are refused with
 * TooManyAttempts on every binding (other accounts are not affected); and an unknown account
 * takes as long as a wrong password on a known one (medians compared, real scrypt cost).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../generated/service-api/index.js';
import { SoapFaultError } from '../runtime/index.js';
import { startSmsServer, type SmsServer } from '../service/server.js';
import { tempDir } from './helpers/serve-process.js';

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
  it('unknown account vs wrong password: medians within 25% (real scrypt cost, N=2^15)', async () => {
    const server = await start('timing', { account: 0, address: 0 }, 15);
    const unknown: number[] = [];
    const wrong: number[] = [];
    await send(server, 'soap11', 'warm@example.com', 'wrong-password'); // first use of the dummy hash
    for (let i = 0; i < 12; i++) {
      for (const [list, email] of [
        [unknown, `ghost${i}@example.com`],
        [wrong, 'alice@example.com'],
      ] as const) {
        const t0 = performance.now();
        expect(await send(server, BINDINGS[i % 4]!, email, `wrong-${i}`)).toMatch(/AuthenticationFailed$/);
        list.push(performance.now() - t0);
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [mu, mw] = [median(unknown), median(wrong)];
    console.log(`auth timing: unknown account median ${mu.toFixed(1)} ms, wrong password median ${mw.toFixed(1)} ms`);
    expect(Math.abs(mu - mw) / Math.max(mu, mw)).toBeLessThan(0.25);
  }, 60_000);
});
