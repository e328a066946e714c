/**
 * Callbacks as a user runs them: `smskit serve` (the shipped CLI) delivering through the SMSC
 * simulator, an account whose callback URL points at a receiver in the test (`account set
 * --callback-url --allow-http-callback --callback-secret`; serve with --allow-private-callbacks,
 * the receiver being on 127.0.0.1), messages sent with `smskit send`. The receiver verifies every
 * request with svix and a plain HMAC and must see, per message, sending, accepted and delivered
 * in that order; afterwards `smskit callbacks` finds the queue empty and the metrics count them.
 * Then the operator's side: a receiver answering 410 switches the account off (its events dead),
 * `smskit callbacks` lists them by state and account, `--retry` re-queues them, `--follow` prints
 * events as they are queued and ends with 0 on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSmsc, startSmsc } from '../../service/delivery/simulator/index.js';
import {
  addAccount,
  repoRoot,
  runCliAsync,
  type ServeProcess,
  startServe,
  tempDir,
} from '../../tools/serve-process.js';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { waitFor } from '../helpers/wait-for.js';
import { newSecret } from '../service/callbacks/fixtures.js';

const PASSWORD = 'callbacks-e2e-password';
const SMPP_PASSWORD = 'secret12';
const MESSAGES = 6;
const dir = tempDir('callbacks-e2e');
const db = join(dir.path, 'service.db');
const secret = newSecret();
let smsc: RunningSmsc;
let receiver: CallbackReceiver;
let server: ServeProcess | undefined;

beforeAll(async () => {
  smsc = await startSmsc({ systemId: 'smskit', password: SMPP_PASSWORD, receiptDelayMs: 20 });
  receiver = await startCallbackReceiver(secret);
  const routes = join(dir.path, 'routes.yaml');
  writeFileSync(
    routes,
    `routes:\n  sim:\n    type: smpp\n    host: 127.0.0.1\n    port: ${smsc.port}\n    systemId: smskit\n    passwordEnv: CALLBACKS_SMPP_PASSWORD\ndefault: sim\n`,
  );
  await addAccount(db, { email: 'app@example.com', keywords: ['ACME'], password: PASSWORD });
  const set = await runCliAsync([
    ...['account', 'set', '--db', db, '--email', 'app@example.com'],
    ...['--callback-url', receiver.url, '--allow-http-callback', '--callback-secret', secret],
  ]);
  expect(set.status, set.stderr).toBe(0);
  process.env.CALLBACKS_SMPP_PASSWORD = SMPP_PASSWORD;
  server = await startServe({ db, args: ['--routes', routes, '--allow-private-callbacks', '--metrics-port', '0'] });
  delete process.env.CALLBACKS_SMPP_PASSWORD;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await smsc?.close();
  dir.remove();
});

async function send(i: number): Promise<string> {
  const sent = await runCliAsync(
    [
      ...['send', '--url', server?.url ?? '', '--email', 'app@example.com', '--keyword', 'ACME'],
      ...['--to', `+1415555${String(1000 + i)}`, '--carrier', 'auto', '--message', `callback test ${i}`],
    ],
    { env: { SMSKIT_PASSWORD: PASSWORD } },
  );
  expect(sent.status, sent.stderr).toBe(0);
  return sent.stdout.trim();
}

describe('smskit serve posts signed state changes to the account’s receiver', () => {
  it('delivers sending, accepted, delivered for every message, in order, verified', async () => {
    const ids = await Promise.all(Array.from({ length: MESSAGES }, (_, i) => send(i)));
    const statesOf = (id: string): string[] => {
      const seen = new Set<string>();
      const states: string[] = [];
      for (const request of receiver.received) {
        const { data } = JSON.parse(request.body) as { data: { messageId: string; state: string } };
        const webhookId = request.headers['webhook-id'] ?? '';
        // At least once: a repeat carries the same webhook-id and is counted once.
        if (data.messageId !== id || seen.has(webhookId)) continue;
        seen.add(webhookId);
        states.push(data.state);
      }
      return states;
    };
    await waitFor(
      'every message delivered at the receiver',
      () => ids.every((id) => statesOf(id).includes('delivered')),
      {
        timeoutMs: 60_000,
        state: () => ids.map((id) => `${id}: ${statesOf(id).join(',')}`).join('; '),
      },
    );
    for (const id of ids) expect(statesOf(id), id).toEqual(['sending', 'accepted', 'delivered']);
    expect(receiver.received.map((r) => r.rejection).filter((r) => r !== null)).toEqual([]);
    const first = JSON.parse(receiver.received[0]?.body ?? '{}');
    expect(first.data).toMatchObject({ keyword: 'ACME', previousState: 'queued', state: 'sending', route: 'sim' });
    expect(first.data.smsto).toMatch(/^\+1415555100\d$/);
    expect(receiver.received[0]?.body).not.toContain('callback test');

    await waitFor('the queue empty', async () => {
      const listed = await runCliAsync(['callbacks', '--db', db]);
      return listed.stdout.startsWith('no callback events in');
    });
    const metricsUrl = /metrics: +(http:\/\/\S+)\/metrics/.exec(server?.output().stdout ?? '')?.[1];
    const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`smskit_callback_events_total\\{outcome="sent"\\} ${3 * MESSAGES}\\b`));
    expect(metrics).toMatch(/smskit_callback_queue_events\{state="pending"\} 0/);
    expect(metrics).toMatch(/^smskit_callback_sender_deferring 0$/m);
    const health = (await (await fetch(`${metricsUrl}/healthz`)).json()) as { callbacks?: unknown };
    expect(health.callbacks).toMatchObject({ sending: true, pending: 0, dead: 0 });
  }, 120_000);

  it('lists dead events after a 410, re-queues them, and follows new ones until Ctrl-C', async () => {
    receiver.answer = () => ({ status: 410 });
    const gone = await send(100);
    const deadFor = async (): Promise<Array<Record<string, unknown>>> => {
      const listed = await runCliAsync([
        'callbacks',
        '--db',
        db,
        '--state',
        'dead',
        '--account',
        'app@example.com',
        '--json',
      ]);
      expect(listed.status, listed.stderr).toBe(0);
      return JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    };
    await waitFor('a dead event', async () => (await deadFor()).length > 0, { timeoutMs: 30_000 });
    const [dead] = await deadFor();
    expect(dead).toMatchObject({ messageId: gone, eventState: 'dead', account: 'app@example.com' });
    expect(String(dead?.lastError)).toMatch(/410/);
    // Logged once the switch-off is committed: the line may reach this process after the store shows it.
    const served = (): string => server?.output().stderr ?? '';
    await waitFor('the switch-off logged', () => /callbacks of app@example\.com disabled: .*410 Gone/.test(served()), {
      state: served,
    });
    const table = await runCliAsync(['callbacks', '--db', db, '--message', gone]);
    expect(table.stdout).toMatch(/^SEQ +MESSAGE +ACCOUNT +STATE +EVENT +TRIES/);
    const none = await runCliAsync(['callbacks', '--db', db, '--account', 'nobody@example.com']);
    expect(none.stdout).toBe(`no callback events in ${db} match the filters\n`);
    const count = (await deadFor()).filter((e) => e.messageId === gone).length;

    // The receiver mends; the operator switches callbacks on again and re-queues what died.
    receiver.answer = () => ({ status: 204 });
    const set = await runCliAsync([
      'account',
      'set',
      '--db',
      db,
      '--email',
      'app@example.com',
      '--callback-url',
      receiver.url,
      '--allow-http-callback',
    ]);
    expect(set.status, set.stderr).toBe(0);
    const retried = await runCliAsync([
      'callbacks',
      '--db',
      db,
      '--retry',
      '--account',
      'app@example.com',
      '--message',
      gone,
    ]);
    expect(retried.stdout).toBe(`re-queued ${count} dead callback event${count === 1 ? '' : 's'}\n`);

    // --follow sees the events of a new message while they wait (the receiver is made slow for it).
    receiver.answer = () => ({ status: 204, delayMs: 1_500 });
    const follower = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'smskit.js'), 'callbacks', '--db', db, '--follow', '--json', '--interval', '50'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let followed = '';
    let followErr = '';
    follower.stdout.setEncoding('utf8').on('data', (chunk: string) => (followed += chunk));
    follower.stderr.setEncoding('utf8').on('data', (chunk: string) => (followErr += chunk));
    const exited = new Promise<number | null>((resolve) => follower.once('close', resolve));
    await waitFor('follow started', () => followErr.includes('following the callback queue'));
    const next = await send(101);
    await waitFor('the new message followed', () => followed.includes(next), { state: () => followed + followErr });
    follower.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = followed
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { messageId: string; eventState: string });
    expect(lines.filter((l) => l.messageId === next)[0]).toMatchObject({ eventState: 'pending' });
    await waitFor('the re-queued and new events delivered', () =>
      receiver.received.some((r) => r.body.includes(next) && r.body.includes('"delivered"')),
    );
  }, 120_000);
});
