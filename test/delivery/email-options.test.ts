/** The e-mail route's settings, the gateway address and the carrier table's gateways, as tables. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCarrierTable, loadCarrierTable } from '../../service/carriers.js';
import { classifyMailError, parseEmailRoute } from '../../service/delivery/email/index.js';
import { gatewayAddress } from '../../service/email-gateways.js';

const BASE = { host: 'smtp.example.com', from: 'sms@example.com' };

describe('parseEmailRoute', () => {
  it('fills in the defaults (STARTTLS on 587, two pooled connections)', () => {
    expect(parseEmailRoute(BASE, {})).toEqual({
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      from: 'sms@example.com',
      connections: 2,
      messagesPerConnection: 100,
      timeoutMs: 30_000,
      reconnect: { initialMs: 1000, maxMs: 60_000 },
    });
    expect(parseEmailRoute({ ...BASE, security: 'tls' }, {}).port).toBe(465);
  });

  it('reads the password from the environment variable the file names', () => {
    const options = parseEmailRoute({ ...BASE, username: 'relay', passwordEnv: 'SMTP_PW' }, { SMTP_PW: 's3cret' });
    expect(options).toMatchObject({ username: 'relay', password: 's3cret' });
  });

  it.each([
    ['no host', { from: 'a@b.c' }, /^host: is required/],
    ['no from', { host: 'h' }, /^from: is required/],
    ['an unknown key', { ...BASE, hots: 'x' }, /^hots: is not a setting of an e-mail route/],
    ['a bad port', { ...BASE, port: 70000 }, /^port: must be an integer from 1 to 65535/],
    ['a bad security', { ...BASE, security: 'ssl' }, /^security: must be starttls, tls or none/],
    ['a password in the file', { ...BASE, password: 'x' }, /^password: is not a setting/],
    ['username without passwordEnv', { ...BASE, username: 'u' }, /^passwordEnv: AUTH needs both/],
    [
      'an unset variable',
      { ...BASE, username: 'u', passwordEnv: 'NOPE' },
      /^passwordEnv: the environment variable NOPE is not set/,
    ],
    [
      'AUTH without TLS',
      { ...BASE, security: 'none', username: 'u', passwordEnv: 'P' },
      /^security: AUTH sends the password/,
    ],
    ['a bad reconnect', { ...BASE, reconnect: { initialMs: 5 } }, /^reconnect.initialMs: must be an integer/],
    ['a two-line subject', { ...BASE, subject: 'a\nb' }, /^subject: must be one line/],
    [
      'a missing CA file',
      { ...BASE, tlsCaFile: '/nonexistent/ca.pem' },
      /^tlsCaFile: cannot read \/nonexistent\/ca.pem: ENOENT/,
    ],
  ])('%s is refused naming the key', (_, settings, want) => {
    expect(() => parseEmailRoute(settings as Record<string, unknown>, { P: 'x' })).toThrow(want);
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
    const dir = mkdtempSync(join(tmpdir(), 'smskit-carriers-'));
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
