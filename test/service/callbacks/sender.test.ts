/**
 * The sender over real HTTP on 127.0.0.1 (private addresses allowed, as in any test), against an
 * in-memory queue that keeps the store's rules: order per message, retries on 5xx, timeouts and
 * refused connections with the same webhook-id, 410 switching the account off (logged once), dead
 * after the budget, 3xx not followed, a huge answer cut off, the per-host limit measured at the
 * receiver, and a clean stop.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallbackReceiver, startCallbackReceiver } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { type Harness, newSecret, seen, startSender } from './fixtures.js';

const STATES = ['sending', 'accepted', 'delivered'] as const;
const opened: { close(): Promise<void> }[] = [];
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.sender.close(100);
  harness = undefined;
  for (const thing of opened.splice(0)) await thing.close();
});

async function receiverFor(secret: string): Promise<CallbackReceiver> {
  const receiver = await startCallbackReceiver(secret);
  opened.push(receiver);
  return receiver;
}

function queueMessages(h: Harness, count: number, url: string, secret: string, account?: string): void {
  for (const state of STATES)
    for (let i = 0; i < count; i++)
      h.store.add({ messageId: `SMS-${i}`, state, url, secret, ...(account === undefined ? {} : { account }) });
}

describe('the callback sender', () => {
  it('sends every state change once, signed, in order per message, with the documented body', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    harness = startSender();
    queueMessages(harness, 40, receiver.url, secret);
    await waitFor('120 callbacks', () => receiver.received.length >= 120);
    await waitFor('the queue emptied', async () => (await harness!.store.callbackStats()).pending === 0);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const byMessage = new Map<string, string[]>();
    for (const s of receiver.received.map(seen)) {
      byMessage.set(s.messageId, [...(byMessage.get(s.messageId) ?? []), s.state]);
      expect(s.webhookId).toBe(`${s.messageId}.${s.sequence}`);
    }
    expect(byMessage.size).toBe(40);
    for (const states of byMessage.values()) expect(states).toEqual([...STATES]);
    const body = JSON.parse(receiver.received[0]?.body ?? '{}');
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
    expect(body.type).toBe('message.state');
    expect(Object.keys(body.data).sort()).toEqual(
      [
        'at',
        'attempt',
        'errorCode',
        'errorText',
        'keyword',
        'messageId',
        'possibleDuplicate',
        'previousState',
        'route',
        'sequence',
        'smscId',
        'smsto',
        'state',
      ].sort(),
    );
    expect(body.data.previousState).toBe('queued');
    expect(harness.sender.stats().outcomes.sent).toBe(120);
    // Claims come in batches, not one per event.
    expect(harness.store.claims.filter((n) => n > 0).length).toBeLessThan(120);
  });

  it('tries again after a 5xx and a timeout, with the same webhook-id, and holds the next state back meanwhile', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = (_r, index) => (index === 0 ? { status: 503 } : index === 1 ? { delayMs: 600 } : { status: 200 });
    harness = startSender({ timeoutMs: 200 });
    queueMessages(harness, 1, receiver.url, secret);
    await waitFor('three states through', () => receiver.received.filter((r) => r.verified).length >= 5);
    const ids = receiver.received.map((r) => seen(r).webhookId);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[1]).toBe(ids[2]);
    expect(receiver.received.map((r) => seen(r).state)).toEqual([
      'sending',
      'sending',
      'sending',
      'accepted',
      'delivered',
    ]);
    const failures = harness.sender.stats().failures;
    expect(failures.http_5xx).toBe(1);
    expect(failures.timeout).toBe(1);
    expect(
      harness.store.settled.filter((o) => o.kind === 'retry').map((o) => (o.kind === 'retry' ? o.error : '')),
    ).toEqual(['HTTP 503', 'no answer within 200 ms']);
  });

  it('tries again when the connection is refused, and sends once the receiver is back', async () => {
    const secret = newSecret();
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    harness = startSender();
    harness.store.add({ messageId: 'SMS-1', state: 'sending', url: `http://127.0.0.1:${port}/hook`, secret });
    await waitFor('a refused try', () => (harness!.sender.stats().failures.refused ?? 0) >= 2);
    const back = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise<void>((resolve) => back.close(() => resolve())) });
    await waitFor('sent', () => harness!.sender.stats().outcomes.sent === 1);
    const retry = harness.store.settled.find((o) => o.kind === 'retry');
    expect(retry?.kind === 'retry' && retry.error).toMatch(/^ECONNREFUSED/);
  });

  it("sends an account's backlog as soon as its receiver is back, not after each event's backoff", async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    await receiver.down();
    // Each failed event waits 5 s for its next try: a backlog that only that would release.
    harness = startSender({ budget: { firstDelayMs: 5_000, maxDelayMs: 5_000 } });
    for (let i = 0; i < 5; i++)
      harness.store.add({ messageId: `SMS-${i}`, state: 'sending', url: receiver.url, secret });
    await waitFor('five refused tries', () => (harness!.sender.stats().failures.refused ?? 0) >= 5);
    await receiver.up();
    const back = Date.now();
    harness.store.add({ messageId: 'SMS-new', state: 'sending', url: receiver.url, secret });
    await waitFor('all six sent', () => harness!.sender.stats().outcomes.sent === 6, { timeoutMs: 10_000 });
    expect(Date.now() - back).toBeLessThan(3_000);
    expect(harness.store.hastened).toEqual(['app@example.com']);
    expect(receiver.received.map((r) => seen(r).messageId)[0]).toBe('SMS-new');
  });

  it('switches the account off on 410 Gone, logging it once', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 410 });
    harness = startSender();
    queueMessages(harness, 20, receiver.url, secret, 'gone@example.com');
    await waitFor('all settled', async () => (await harness!.store.callbackStats()).pending === 0);
    expect(harness.store.disabled).toEqual([
      { account: 'gone@example.com', reason: expect.stringMatching(/410 Gone/) },
    ]);
    expect(harness.log.filter((line) => line.includes('disabled'))).toHaveLength(1);
    const stats = await harness.store.callbackStats();
    expect(stats.dead).toBe(60);
    // Only the events in flight when the 410 came reached the receiver; the rest were not sent.
    expect(receiver.received.length).toBeLessThanOrEqual(20);
  });

  it('gives an event up (dead) after the budget, keeping the reason; later states of the message still go', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = (r) => ({ status: seen(r).state === 'sending' ? 500 : 204 });
    harness = startSender({ budget: { maxTries: 3 } });
    queueMessages(harness, 1, receiver.url, secret);
    await waitFor('the later states sent', () => harness!.sender.stats().outcomes.sent === 2);
    const [dead] = await harness.store.listCallbacks({ eventState: 'dead', limit: 10 });
    expect(dead).toMatchObject({ state: 'sending', tries: 3, lastError: 'HTTP 500 (gave up after 3 tries)' });
    expect(receiver.received.map((r) => seen(r).state)).toEqual([
      'sending',
      'sending',
      'sending',
      'accepted',
      'delivered',
    ]);
    expect(harness.sender.stats().outcomes.dead).toBe(1);
  });

  it('does not follow a redirect', async () => {
    const secret = newSecret();
    const elsewhere = await receiverFor(secret);
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 307, headers: { location: elsewhere.url } });
    harness = startSender({ budget: { maxTries: 2 } });
    harness.store.add({ messageId: 'SMS-1', state: 'sending', url: receiver.url, secret });
    await waitFor('dead', async () => (await harness!.store.callbackStats()).dead === 1);
    expect(elsewhere.received).toHaveLength(0);
    expect(receiver.received).toHaveLength(2);
    const [dead] = await harness.store.listCallbacks({ eventState: 'dead', limit: 1 });
    expect(dead?.lastError).toMatch(/^HTTP 307 \(redirects are not followed\)/);
  });

  it('reads a huge answer only to its limit and goes on', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 200, bodyBytes: 512 * 1024 * 1024 });
    harness = startSender({ maxResponseBytes: 64 * 1024 });
    const started = Date.now();
    queueMessages(harness, 3, receiver.url, secret);
    await waitFor('9 sent', () => harness!.sender.stats().outcomes.sent === 9, { timeoutMs: 20_000 });
    // 9 x 512 MiB would take minutes to read; cut off at 64 KiB each, it takes moments.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps to the per-host limit while using it', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 204, delayMs: 40 });
    harness = startSender({ perHost: 3, concurrency: 64 });
    queueMessages(harness, 30, receiver.url, secret);
    await waitFor('90 sent', () => harness!.sender.stats().outcomes.sent === 90);
    expect(receiver.concurrency.max).toBe(3);
  });

  it('renews the leases of the events it holds: each sent once though they wait longer than a lease', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 204, delayMs: 150 });
    // One at a time at 150 ms each: the sixth message's event waits ~750 ms, almost two leases.
    harness = startSender({ perHost: 1, leaseMs: 400, timeoutMs: 300 });
    queueMessages(harness, 6, receiver.url, secret);
    await waitFor('18 sent', () => harness!.sender.stats().outcomes.sent === 18, { timeoutMs: 20_000 });
    const ids = receiver.received.map((r) => seen(r).webhookId);
    expect(ids).toHaveLength(18);
    expect(new Set(ids).size).toBe(18);
    expect(harness.store.renewals.some((n) => n > 1)).toBe(true);
  });

  it('stops cleanly: no claim after close, held events go back due at once', async () => {
    const secret = newSecret();
    const receiver = await receiverFor(secret);
    receiver.answer = () => ({ status: 204, delayMs: 5_000 });
    harness = startSender({ perHost: 2 });
    queueMessages(harness, 6, receiver.url, secret);
    await waitFor('two in flight', () => receiver.concurrency.now === 2);
    const closing = Date.now();
    await harness.sender.close(100);
    expect(Date.now() - closing).toBeLessThan(2_000);
    const claims = harness.store.claims.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.store.claims.length).toBe(claims);
    const stats = await harness.store.callbackStats();
    expect(stats.pending).toBe(18);
    expect([...harness.store.rows.values()].every((r) => r.leaseOwner === null)).toBe(true);
    harness = undefined;
  });
});
