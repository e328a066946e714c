/**
 * GET /metrics and GET /healthz scraped while the service runs and delivers: through an SMPP
 * route to the SMSC simulator (receipts come back delivered) and, where aiosmtpd is installed,
 * an e-mail route to a real SMTP server. The values move as the traffic does: requests by
 * outcome, acknowledged messages, per-route delivery events, messages per state, the oldest
 * queued message's age, each route's up/window gauges, the commit latency histogram.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsc, type RunningSmsc } from '../../service/delivery/simulator/index.js';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait-for.js';
import { requirePeer } from '../helpers/peers.js';

const PASSWORD = 'correct horse battery';
const SMPP_PASSWORD = 'secret12';
const withMail = !requirePeer('aiosmtpd', 'service/metrics (the e-mail route part)').skip;
const dir = mkdtempSync(join(tmpdir(), 'smskit-metrics-'));
let smsc: RunningSmsc;
let sink: SmtpSink | undefined;
let server: SmsServer;

beforeAll(async () => {
  smsc = await startSmsc({ systemId: 'smskit', password: SMPP_PASSWORD, receiptDelayMs: 10 });
  sink = withMail ? await startSmtpSink() : undefined;
  const routes = join(dir, 'routes.yaml');
  const lines = [
    'routes:',
    '  local:',
    '    type: smpp',
    '    host: 127.0.0.1',
    `    port: ${smsc.port}`,
    '    systemId: smskit',
    '    passwordEnv: METRICS_SMPP_PASSWORD',
    '    reconnect: { initial: 50ms, max: 100ms }',
  ];
  if (sink !== undefined)
    lines.push(
      '  mail:',
      '    type: email',
      '    host: 127.0.0.1',
      `    port: ${sink.port}`,
      '    security: none',
      '    from: sms@example.com',
      'carriers:',
      '  verizon: mail',
    );
  lines.push('default: local', '');
  writeFileSync(routes, lines.join('\n'));
  process.env.METRICS_SMPP_PASSWORD = SMPP_PASSWORD;
  server = await startSmsServer({
    dbPath: join(dir, 'service.db'),
    routesFile: routes,
    scrypt: { logN: 10, r: 8, p: 1 },
    deliveryTiming: { pollMs: 50 },
    metrics: { port: 0 },
    log: () => undefined,
  });
  await server.app.accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME'] });
});

afterAll(async () => {
  await server?.close();
  await smsc?.close();
  await sink?.stop();
  delete process.env.METRICS_SMPP_PASSWORD;
  rmSync(dir, { recursive: true, force: true });
});

/** The exposition as `name{labels}` → value (labels in the order the server wrote them). */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(`${server.metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const value = (samples: Map<string, number>, key: string): number => samples.get(key) ?? 0;

async function send(carrierCode: string): Promise<number> {
  const form = new URLSearchParams({
    keyword: 'ACME',
    emailAddress: 'alice@example.com',
    password: PASSWORD,
    smsto: '+15551234567',
    carrierCode,
    smsmsg: 'Hello',
  });
  const response = await fetch(`${server.url}/serviceapi.asmx/SMSSend`, { method: 'POST', body: form });
  await response.text();
  return response.status;
}

describe('metrics and health while the service runs', () => {
  it('is served on its own loopback listener, not on the service port', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.metricsUrl}/other`)).status).toBe(404);
    expect((await fetch(`${server.metricsUrl}/metrics`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('requests, acknowledgements, deliveries and states move with the traffic', async () => {
    await waitFor(
      'the SMPP route up',
      async () => value(await scrape(), 'smskit_route_up{route="local",kind="smpp"}') === 1,
    );
    const before = await scrape();
    expect(await send('att')).toBe(200);
    expect(await send('att')).toBe(200);
    expect(await send('nope')).toBe(500); // UnknownCarrier
    await waitFor(
      'two receipts delivered',
      async () => value(await scrape(), 'smskit_outbox_messages{state="delivered"}') >= 2,
    );
    const after = await scrape();
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved('smskit_requests_total{operation="SMSSend",binding="http-post",outcome="accepted"}')).toBe(2);
    expect(moved('smskit_requests_total{operation="SMSSend",binding="http-post",outcome="UnknownCarrier"}')).toBe(1);
    expect(moved('smskit_messages_acknowledged_total{state="queued"}')).toBe(2);
    expect(moved('smskit_delivery_events_total{route="local",event="accepted"}')).toBe(2);
    expect(moved('smskit_delivery_events_total{route="local",event="receipt_delivered"}')).toBe(2);
    expect(value(after, 'smskit_outbox_messages{state="delivered"}')).toBe(2);
    expect(value(after, 'smskit_outbox_oldest_queued_age_seconds')).toBe(0);
    expect(value(after, 'smskit_route_window{route="local",kind="smpp"}')).toBe(10);
    expect(value(after, 'smskit_route_in_flight{route="local",kind="smpp"}')).toBe(0);
    expect(moved('smskit_store_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'smskit_store_commit_seconds_bucket{le="+Inf"}')).toBe(
      value(after, 'smskit_store_commit_seconds_count'),
    );
    const health = await fetch(`${server.metricsUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', store: 'ok' });
  });

  // Only where an SMTP sink can run (the line at the top says so otherwise).
  it.skipIf(!withMail)("a message by the e-mail route moves the mail route's counters", async () => {
    const before = await scrape();
    expect(await send('verizon')).toBe(200);
    await waitFor(
      'the mail accepted',
      async () => value(await scrape(), 'smskit_delivery_events_total{route="mail",event="accepted"}') === 1,
    );
    const after = await scrape();
    const moved = (key: string) => value(after, key) - value(before, key);
    expect(moved('smskit_requests_total{operation="SMSSend",binding="http-post",outcome="accepted"}')).toBe(1);
    expect(moved('smskit_messages_acknowledged_total{state="queued"}')).toBe(1);
    expect(moved('smskit_delivery_events_total{route="local",event="accepted"}')).toBe(0);
  });

  it('a route that goes down: route_up 0, messages wait, the oldest queued age grows, health says degraded', async () => {
    await smsc.close();
    await waitFor(
      'the SMPP route down',
      async () => value(await scrape(), 'smskit_route_up{route="local",kind="smpp"}') === 0,
    );
    expect(await send('att')).toBe(200);
    await waitFor(
      'one message waiting',
      async () => value(await scrape(), 'smskit_outbox_messages{state="queued"}') === 1,
    );
    const first = value(await scrape(), 'smskit_outbox_oldest_queued_age_seconds');
    await waitFor(
      'the age growing',
      async () => value(await scrape(), 'smskit_outbox_oldest_queued_age_seconds') > first,
    );
    const health = await fetch(`${server.metricsUrl}/healthz`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { status: string; routes: { name: string; up: boolean }[] };
    expect(body.status).toBe('degraded');
    expect(body.routes.find((r) => r.name === 'local')?.up).toBe(false);
  });

  it('a store that does not answer: /healthz is 503 with status failing', async () => {
    await server.app.store.close();
    const health = await fetch(`${server.metricsUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'failing' });
  });
});
