/**
 * The e-mail route against a real SMTP server (aiosmtpd): the mail that arrived is parsed by
 * Python's e-mail parser and its envelope recipient, headers and decoded body are checked
 * exactly, non-ASCII included; 4xx and 5xx replies, STARTTLS with AUTH, a wrong password and a
 * relay that is down map to the delivery contract's outcomes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCarrierTable } from '../../../../service/delivery/carriers.js';
import { readEmailSettings } from '../../../../service/delivery/email/routes-entry.js';
import { Settings } from '../../../../service/delivery/settings.js';
import { createEmailRoute } from '../../../../service/delivery/email/index.js';
import type { OutgoingMessage, Route } from '../../../../service/delivery/route.js';
import { makeCertificates, type TestCertificates } from '../../../helpers/certificates.js';
import { type SmtpSink, startSmtpSink } from '../../../helpers/smtp-sink.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { requirePeer } from '../../../helpers/peers.js';

const mail = requirePeer('aiosmtpd', 'delivery/email-route');

const carriers = createCarrierTable();
const logs: string[] = [];
const events = { receipt: async () => false, log: (line: string) => void logs.push(line) };

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    id: 'SMS-01JTESTMAIL0000000000000001',
    smsto: '+15551234567',
    smsmsg: 'Hello',
    encoding: 'gsm7',
    segments: 1,
    port: null,
    carrierCode: 'verizon',
    ...overrides,
  };
}

/** A route entry as the routes file gives it (JSON is YAML), read the way `smskit serve --routes` reads it. */
function parseEmailRoute(settings: Record<string, unknown>, env: NodeJS.ProcessEnv) {
  return readEmailSettings(
    Settings.parse('routes.yaml', JSON.stringify({ type: 'email', ...settings })),
    env,
    'routes.yaml',
  );
}

/**
 * The SMS text a gateway reads from a mail body: SMTP ends the data with a line break of its own,
 * and text mail writes every line break as CRLF.
 */
function smsText(body: string | undefined): string | undefined {
  return body?.replace(/\r\n$/, '').replace(/\r\n/g, '\n');
}

async function startedRoute(settings: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<Route> {
  const route = createEmailRoute('mail', parseEmailRoute(settings, env), { carriers, random: () => 0 });
  route.start(events);
  await waitFor('route up', () => route.status().up, { state: () => `${route.status().detail}; ${logs.join(' | ')}` });
  return route;
}

describe.skipIf(mail.skip)('e-mail route -> aiosmtpd', () => {
  let sink: SmtpSink;
  let route: Route | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => sink?.stop());
  afterEach(async () => {
    await route?.close(1000);
    route = undefined;
  });

  it('sends one mail per message to <national number>@<gateway domain>, body exact in UTF-8, non-ASCII included', async () => {
    route = await startedRoute({ host: '127.0.0.1', port: sink.port, security: 'none', from: 'sms@example.com' });
    const before = sink.mails.length;
    const long = `Grüße € [ ] ~ ^ { } \\ | 你好 📱 ${'x'.repeat(300)}\nsecond line`;
    const results = await Promise.all([
      route.submit(message({ smsmsg: 'Hello from smskit' })),
      route.submit(
        message({
          id: 'SMS-01JTESTMAIL0000000000000002',
          smsmsg: long,
          encoding: 'ucs2',
          segments: 6,
          smsto: '+14165550123',
          carrierCode: 'rogers',
        }),
      ),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(['accepted', 'accepted']);
    const mails = (await sink.waitForMails(before + 2)).slice(before);
    const byTo = new Map(mails.map((m) => [m.rcptTos[0], m]));
    const ascii = byTo.get('5551234567@vtext.com');
    const unicode = byTo.get('4165550123@pcs.rogers.com');
    expect(mails).toHaveLength(2);
    expect(smsText(ascii?.body)).toBe('Hello from smskit');
    expect(ascii?.rcptTos).toEqual(['5551234567@vtext.com']);
    expect(ascii?.to).toBe('5551234567@vtext.com');
    expect(ascii?.mailFrom).toBe('sms@example.com');
    expect(ascii?.subject).toBeNull();
    expect(ascii?.messageId).toBe('<SMS-01JTESTMAIL0000000000000001@example.com>');
    expect(smsText(unicode?.body)).toBe(long);
    expect(unicode?.contentType).toBe('text/plain');
    expect(unicode?.charset).toBe('utf-8');
    expect(unicode?.transferEncoding).toBe('quoted-printable');
    // The peer id is the relay's queue id from "250 2.0.0 Ok: queued as Q…".
    const accepted = results[0];
    expect(accepted?.outcome === 'accepted' && accepted.peerIds[0]).toMatch(/^Q\d+$/);
  });

  it('a 4xx reply is a retry (nothing sent), a 5xx reply is rejected with the reply text', async () => {
    route = await startedRoute({ host: '127.0.0.1', port: sink.port, security: 'none', from: 'sms@example.com' });
    const busy = await route.submit(message({ smsto: '+15551230450' }));
    const refused = await route.submit(message({ smsto: '+15551230550' }));
    expect(busy).toEqual({
      outcome: 'retry',
      code: 'smtp:450',
      text: expect.stringContaining('450 4.2.1 mailbox busy'),
      maybeSent: false,
    });
    expect(refused).toEqual({
      outcome: 'rejected',
      code: 'smtp:550',
      text: expect.stringContaining('550 5.1.1 no such user here'),
    });
    expect(route.status().up).toBe(true);
  });

  it('a carrier without a gateway, or a number the gateway does not serve, is rejected without a mail', async () => {
    route = await startedRoute({ host: '127.0.0.1', port: sink.port, security: 'none', from: 'sms@example.com' });
    const before = sink.mails.length;
    expect(await route.submit(message({ carrierCode: 'att' }))).toMatchObject({
      outcome: 'rejected',
      code: 'NoEmailGateway',
    });
    expect(await route.submit(message({ smsto: '+447700900123' }))).toMatchObject({
      outcome: 'rejected',
      code: 'NotServedByGateway',
    });
    expect(sink.mails.length).toBe(before);
  });

  it('a relay that goes away mid-run: the message is retried (not sent), the route goes down and says why', async () => {
    const own = await startSmtpSink();
    const mid = await startedRoute({
      host: '127.0.0.1',
      port: own.port,
      security: 'none',
      from: 'sms@example.com',
      reconnect: { initial: '50ms', max: '100ms' },
    });
    route = mid;
    expect((await mid.submit(message())).outcome).toBe('accepted');
    await own.stop();
    const result = await mid.submit(message({ id: 'SMS-01JTESTMAIL0000000000000003' }));
    expect(result).toMatchObject({ outcome: 'retry', maybeSent: false });
    expect(mid.status().up).toBe(false);
    await waitFor('the route checking again', () => /unreachable/.test(mid.status().detail));
  });

  it('a relay that is down keeps the route down (the engine holds its messages) and says why', async () => {
    const closedPort = sink.port === 1 ? 2 : 1;
    const down = createEmailRoute(
      'mail',
      parseEmailRoute(
        {
          host: '127.0.0.1',
          port: closedPort,
          security: 'none',
          from: 'sms@example.com',
          reconnect: { initial: '50ms', max: '100ms' },
        },
        {},
      ),
      { carriers },
    );
    route = down;
    down.start(events);
    await waitFor('a failed check', () => /unreachable/.test(down.status().detail));
    expect(down.status()).toMatchObject({ up: false, inFlight: 0, window: 2 });
    expect(down.status().detail).toMatch(/ECONNECTION|ECONNREFUSED/);
  });
});

describe.skipIf(mail.skip || requirePeer('openssl', 'delivery/email-route (STARTTLS)').skip)(
  'e-mail route -> aiosmtpd with STARTTLS and AUTH',
  () => {
    let certs: TestCertificates;
    let sink: SmtpSink;
    let route: Route | undefined;
    beforeAll(async () => {
      certs = await makeCertificates();
      sink = await startSmtpSink({ tls: certs.server, auth: { user: 'relay-user', pass: 'relay secret ü' } });
    });
    afterAll(async () => {
      await sink?.stop();
      certs?.remove();
    });
    afterEach(async () => {
      await route?.close(1000);
      route = undefined;
    });

    const settings = () => ({
      host: '127.0.0.1',
      port: sink.port,
      security: 'starttls',
      username: 'relay-user',
      passwordEnv: 'SMTP_PASSWORD',
      tlsCaFile: certs.caFile,
      from: 'sms@example.com',
      subject: 'SMS',
      reconnect: { initial: '50ms', max: '100ms' },
    });

    it('upgrades with STARTTLS, authenticates, and the mail arrives over TLS', async () => {
      route = await startedRoute(settings(), { SMTP_PASSWORD: 'relay secret ü' });
      const result = await route.submit(message({ smsmsg: 'über TLS ✓' }));
      expect(result.outcome).toBe('accepted');
      const [mail] = (await sink.waitForMails(1)).slice(-1);
      expect(mail).toMatchObject({ tls: true, authenticated: true, subject: 'SMS', rcptTos: ['5551234567@vtext.com'] });
      expect(smsText(mail?.body)).toBe('über TLS ✓');
    });

    it('a wrong password keeps the route down with one line naming AUTH, and never logs the password', async () => {
      logs.length = 0;
      const wrong = createEmailRoute('mail', parseEmailRoute(settings(), { SMTP_PASSWORD: 'not the password' }), {
        carriers,
      });
      route = wrong;
      wrong.start(events);
      await waitFor('the AUTH refusal logged', () => logs.some((line) => /EAUTH/.test(line)));
      expect(wrong.status().up).toBe(false);
      expect(logs.join('\n')).not.toContain('not the password');
    });
  },
);
