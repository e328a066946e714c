/**
 * The SMS service with a UsernameToken required on top of its body credentials, as
 * docs/ws-security.md sets it up: `startSmsServer({ http: { wsSecurity } })` with a secret per
 * calling system. The token authenticates the calling system; emailAddress/password in the Body
 * still authenticate the account, and each is refused on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError, type UsernameTokenOptions } from '../../runtime/index.js';
import { MESSAGE_ID_PATTERN } from '../../service/store/ids.js';
import { startSmsServer, type SmsServer } from '../../service/server.js';

const ACCOUNT_PASSWORD = 'correct horse battery';
/** Secrets of the systems allowed to call, kept apart from account passwords (which are scrypt hashes). */
const SYSTEM_SECRETS = new Map([['billing-system', 'integration secret 42']]);
const dir = mkdtempSync(join(tmpdir(), 'smskit-wsse-'));
let server: SmsServer;

beforeAll(async () => {
  server = await startSmsServer({
    dbPath: join(dir, 'sms.db'),
    scrypt: { logN: 10, r: 8, p: 1 },
    http: { wsSecurity: { passwordOf: (system) => SYSTEM_SECRETS.get(system) } },
  });
  await server.app.accounts.add({ email: 'alice@example.com', password: ACCOUNT_PASSWORD, keywords: ['ACME'] });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const input = (password: string) => ({
  keyword: 'ACME',
  emailAddress: 'alice@example.com',
  password,
  smsto: '+14155550123',
  carrierCode: 'att',
  smsmsg: 'hello',
});

describe.each(['soap11', 'soap12'] as const)('%s', (binding) => {
  const send = async (wsse: UsernameTokenOptions | undefined, password: string) => {
    const client = new ServiceAPIClient({
      binding,
      url: `${server.url}/serviceapi.asmx`,
      ...(wsse === undefined ? {} : { wsse }),
    });
    try {
      return await client.SMSSend(input(password));
    } catch (error) {
      return error as SoapFaultError;
    } finally {
      await client.close();
    }
  };
  const system = { username: 'billing-system', password: 'integration secret 42' };

  it('token and body credentials both right: the message is queued', async () => {
    const result = await send(system, ACCOUNT_PASSWORD);
    expect(result).not.toBeInstanceOf(Error);
    expect((result as { SMSSendResult: string }).SMSSendResult).toMatch(MESSAGE_ID_PATTERN);
  });

  it('no token: refused at the message layer (wsse:InvalidSecurity) before the account is looked at', async () => {
    const fault = (await send(undefined, ACCOUNT_PASSWORD)) as SoapFaultError;
    expect(fault).toBeInstanceOf(SoapFaultError);
    expect(binding === 'soap11' ? fault.code : fault.subcode).toBe('InvalidSecurity');
  });

  it('a wrong system secret: wsse:FailedAuthentication', async () => {
    const fault = (await send({ ...system, password: 'guess' }, ACCOUNT_PASSWORD)) as SoapFaultError;
    expect(binding === 'soap11' ? fault.code : fault.subcode).toBe('FailedAuthentication');
  });

  it('the right token with a wrong account password: the service refuses the account as before', async () => {
    const fault = (await send(system, 'wrong account password')) as SoapFaultError;
    expect(fault).toBeInstanceOf(SoapFaultError);
    expect(fault.detail.code).toBe('AuthenticationFailed');
  });
});

it('only the two accepted calls queued a message', async () => {
  expect(await server.app.store.countOutbox()).toBe(2);
});
