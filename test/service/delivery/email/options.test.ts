/** The e-mail route's settings, the gateway address and the carrier table's gateways, as tables. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createCarrierTable, loadCarrierTable } from '../../../../service/delivery/carriers.js';
import { loadRoutesFile } from '../../../../service/delivery/routes-file.js';
import { classifyMailError } from '../../../../service/delivery/email/index.js';
import { gatewayAddress } from '../../../../service/delivery/email/gateways.js';
import { readEmailSettings } from '../../../../service/delivery/email/routes-entry.js';
import { Settings } from '../../../../service/delivery/settings.js';
import { scratchDir } from '../../../helpers/scratch.js';

const ROUTES = (entry: string): string => `routes:
  mail:
    type: email
${entry
  .split('\n')
  .map((line) => `    ${line}`)
  .join('\n')}
carriers:
  verizon: mail
`;

function load(entry: string, env: NodeJS.ProcessEnv = {}) {
  const dir = scratchDir('smskit-routes-');
  const file = join(dir, 'routes.yaml');
  writeFileSync(file, ROUTES(entry));
  return { file, config: () => loadRoutesFile(file, createCarrierTable(), env) };
}

describe('the routes file: type email', () => {
  it('fills in the defaults (STARTTLS on 587, two pooled connections) and builds an e-mail route', async () => {
    const { config } = load('host: smtp.example.com\nfrom: sms@example.com');
    const [route] = config().routes;
    expect(route).toMatchObject({ name: 'mail', kind: 'email', carriers: { only: ['verizon'] } });
    const built = route!.create();
    expect(built.kind).toBe('email');
    expect(built.status()).toMatchObject({ up: false, window: 2, detail: 'not started (relay smtp.example.com:587)' });
    await built.close(0);
  });

  it.each([
    ['no host', 'from: a@b.example', 'routes.mail.host is required'],
    [
      'an unknown key',
      'host: h\nfrom: a@b.example\nhots: x',
      'routes.yaml:6:5: routes.mail.hots is not a known setting here',
    ],
    [
      'a bad port',
      'host: h\nfrom: a@b.example\nport: 70000',
      'routes.yaml:6:5: routes.mail.port must be an integer from 1 to 65535',
    ],
    [
      'a bad security',
      'host: h\nfrom: a@b.example\nsecurity: ssl',
      'routes.mail.security must be one of starttls, tls, none',
    ],
    [
      'a password in the file',
      'host: h\nfrom: a@b.example\npassword: x',
      'routes.mail.password is not a known setting here',
    ],
    [
      'username without passwordEnv',
      'host: h\nfrom: a@b.example\nusername: u',
      'routes.mail.username goes with passwordEnv',
    ],
    [
      'an unset variable',
      'host: h\nfrom: a@b.example\nusername: u\npasswordEnv: NOPE',
      'routes.mail.passwordEnv names NOPE, which is not set',
    ],
    [
      'AUTH without TLS',
      'host: h\nfrom: a@b.example\nsecurity: none\nusername: u\npasswordEnv: P',
      'routes.mail.security must be starttls or tls with username',
    ],
    ['a bad from', 'host: h\nfrom: nobody', 'routes.mail.from must be a mail address'],
    ['a bad timeout', 'host: h\nfrom: a@b.example\ntimeout: soon', 'routes.mail.timeout must be a duration'],
    [
      'a missing CA file',
      'host: h\nfrom: a@b.example\ntlsCaFile: nope.pem',
      'routes.mail.tlsCaFile cannot be read: ENOENT',
    ],
  ])('%s is refused with file:line and the key', (_, entry, want) => {
    const { file, config } = load(entry as string, { P: 'x' });
    const error = (() => {
      try {
        config();
      } catch (caught) {
        return (caught as Error).message;
      }
      return 'no error';
    })();
    expect(error.startsWith(file)).toBe(true);
    expect(error).toContain(want);
  });

  const AUTH = 'host: h\nfrom: a@b.example\nusername: relay\npasswordEnv: SMTP_PW';
  // Variables a careless reader might fall back to hold other values, so using one shows.
  const ENV = { SMTP_PW: 's3cret', PASSWORD: 'wrong-1', SMTP_PASSWORD: 'wrong-2', MAIL_PASSWORD: 'wrong-3' };

  const refusal = (config: () => unknown): string => {
    try {
      config();
    } catch (caught) {
      return (caught as Error).message;
    }
    return 'no error';
  };

  it('reads the relay password from the environment variable the file names', () => {
    const settings = readEmailSettings(Settings.parse('routes.yaml', `type: email\n${AUTH}`), ENV, 'routes.yaml');
    expect(settings).toMatchObject({ username: 'relay', password: 's3cret' });
    const unset = refusal(load(AUTH, { PASSWORD: 'wrong-1' }).config);
    expect(unset).toContain('routes.mail.passwordEnv names SMTP_PW, which is not set in the environment');
    expect(unset).not.toContain('wrong-1');
  });

  it('keeps the relay password out of the parsed routes, the route status and every refusal', async () => {
    const { config } = load(AUTH, ENV);
    const parsed = config();
    expect(parsed.routes[0]?.kind).toBe('email');
    expect(inspect(parsed, { depth: null, showHidden: true })).not.toContain('s3cret');
    expect(JSON.stringify(parsed)).not.toContain('s3cret');
    const route = parsed.routes[0]!.create();
    expect(inspect(route.status(), { depth: null })).not.toContain('s3cret');
    await route.close(0);
    // A refusal of another key of the same entry, and a password written in the file itself.
    const badPort = refusal(load(`${AUTH}\nport: 0`, ENV).config);
    expect(badPort).toContain('routes.mail.port');
    expect(badPort).not.toContain('s3cret');
    const inFile = refusal(load(`${AUTH}\npassword: s3cret`, ENV).config);
    expect(inFile).toContain('routes.mail.password');
    expect(inFile).not.toContain('s3cret');
  });
});

describe('gatewayAddress', () => {
  it.each([
    ['+15551234567', { domain: 'vtext.com', countryCode: '1' }, '5551234567@vtext.com'],
    ['+447700900123', { domain: 'vtext.com', countryCode: '1' }, undefined],
    ['+447700900123', { domain: 'sms.example.net' }, '447700900123@sms.example.net'],
    ['+1', { domain: 'vtext.com' }, undefined],
  ])('%s via %o → %s', (recipient, gateway, want) => {
    expect(gatewayAddress(recipient, gateway)).toBe(want);
  });
});

describe('carrier table gateways', () => {
  it('the built-in table has the public gateways; AT&T closed its gateway and has none', () => {
    const table = createCarrierTable();
    expect(table.emailGateways.get('verizon')).toEqual({ domain: 'vtext.com', countryCode: '1' });
    expect(table.emailGateways.has('att')).toBe(false);
  });

  it('a table file gives a gateway per carrier, and refuses a bad one naming the carrier', () => {
    const dir = scratchDir('smskit-carriers-');
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        carriers: { acme: { name: 'Acme', emailGateway: { domain: 'SMS.Acme.example' } }, plain: 'Plain' },
      }),
    );
    const table = loadCarrierTable(good);
    expect(table.emailGateways.get('acme')).toEqual({ domain: 'sms.acme.example' });
    expect(table.emailGateways.has('plain')).toBe(false);
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ carriers: { acme: { name: 'Acme', emailGateway: { domain: 'no spaces.example' } } } }),
    );
    expect(() => loadCarrierTable(bad)).toThrow(`${bad}: carrier "acme": emailGateway.domain must be a mail domain`);
  });
});

describe('classifyMailError', () => {
  it.each([
    [
      { code: 'EENVELOPE', responseCode: 452, response: '452 4.2.2 over quota' },
      { outcome: 'retry', code: 'smtp:452', maybeSent: false, routeDown: false },
    ],
    [
      { code: 'EMESSAGE', responseCode: 554, response: '554 5.7.1 spam' },
      { outcome: 'rejected', code: 'smtp:554', text: '554 5.7.1 spam' },
    ],
    [
      { code: 'EAUTH', responseCode: 535, response: '535 bad' },
      { outcome: 'retry', code: 'EAUTH', routeDown: true },
    ],
    [
      { code: 'ECONNECTION', message: 'connect ECONNREFUSED' },
      { outcome: 'retry', maybeSent: false, routeDown: true },
    ],
    [
      { code: 'ETIMEDOUT', command: 'DATA', message: 'Timeout' },
      { outcome: 'retry', maybeSent: true, routeDown: true },
    ],
  ])('%o → %o', (error, want) => {
    expect(classifyMailError(error)).toMatchObject(want);
  });
});
