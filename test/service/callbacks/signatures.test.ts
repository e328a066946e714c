/**
 * The signature, checked by a receiver we did not write: every callback the sender makes is
 * verified with svix's Webhook (its own implementation of Standard Webhooks) and with a plain
 * HMAC-SHA256 computed in the test; and the same receiver refuses a tampered body, a wrong
 * secret and a timestamp more than 5 minutes old, each on its own. The signer (Node's HMAC) gives
 * the reference package's own signature, and refuses the secrets it refuses.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createCallbackSigner } from '../../../service/callbacks/signing.js';
import { type CallbackReceiver, hmacCheck, startCallbackReceiver, svixCheck } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { type Harness, newSecret, startSender } from './fixtures.js';

let receiver: CallbackReceiver | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.sender.close(100);
  await receiver?.close();
  harness = undefined;
  receiver = undefined;
});

/** POSTs a copy of a received callback, altered, to the receiver; its status. */
async function replay(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const pick = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];
  const sent = Object.fromEntries(pick.map((name) => [name, headers[name] ?? '']));
  const answer = await fetch(url, { method: 'POST', headers: sent, body });
  await answer.arrayBuffer();
  return answer.status;
}

describe('callback signatures', () => {
  it('are the reference package’s, for secrets of any length; a secret it refuses is refused', () => {
    const signer = createCallbackSigner('test');
    const body = JSON.stringify({ type: 'message.state', data: { text: 'é €' } });
    for (const bytes of [1, 16, 24, 32, 64]) {
      const secret = `whsec_${randomBytes(bytes).toString('base64')}`;
      const at = 1_800_000_000_123;
      const signed = signer.headers('SMS-1.7', body, secret, at)['webhook-signature'];
      expect(signed).toBe(new Webhook(secret).sign('SMS-1.7', new Date(1_800_000_000_000), body));
    }
    expect(() => signer.headers('SMS-1.7', body, 'whsec_!!!', 0)).toThrow(/padding/);
    expect(() => signer.headers('SMS-1.7', body, 'whsec_', 0)).toThrow(/empty/);
  });

  it('are verified by svix and by a plain HMAC; a tampered body, a wrong secret and an old timestamp are refused', async () => {
    const secret = newSecret();
    receiver = await startCallbackReceiver(secret);
    harness = startSender();
    for (let i = 0; i < 5; i++)
      for (const state of ['sending', 'accepted', 'delivered'] as const)
        harness.store.add({ messageId: `SMS-${i}`, state, url: receiver.url, secret });
    await waitFor('15 callbacks received', () => receiver!.received.length >= 15);
    expect(receiver.received.map((r) => r.rejection)).toEqual(new Array(15).fill(null));
    const [first] = receiver.received;
    if (first === undefined) throw new Error('no callback');
    const now = Math.floor(Date.now() / 1000);
    // Each verifier on its own accepts the genuine request…
    expect(svixCheck(first.headers, first.body, secret)).toBeNull();
    expect(hmacCheck(first.headers, first.body, secret, now)).toBeNull();
    expect(first.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    // …and the receiver refuses each alteration.
    const tampered = first.body.replace('"SMS-', '"SMS-X');
    expect(await replay(receiver.url, first.headers, tampered)).toBe(401);
    expect(receiver.received.at(-1)?.rejection).toMatch(/svix: No matching signature found/);
    expect(hmacCheck(first.headers, tampered, secret, now)).toBe('no matching signature');

    const other = newSecret();
    expect(svixCheck(first.headers, first.body, other)).toMatch(/No matching signature/);
    expect(hmacCheck(first.headers, first.body, other, now)).toBe('no matching signature');

    // Signed correctly, but six minutes ago: only the age is wrong.
    const old = String(now - 6 * 60);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const id = first.headers['webhook-id'] ?? '';
    const signature = `v1,${createHmac('sha256', key).update(`${id}.${old}.${first.body}`).digest('base64')}`;
    const aged = { ...first.headers, 'webhook-timestamp': old, 'webhook-signature': signature };
    expect(await replay(receiver.url, aged, first.body)).toBe(401);
    expect(receiver.received.at(-1)?.rejection).toMatch(/svix: Message timestamp too old/);
    expect(hmacCheck(aged, first.body, secret, now)).toBe('timestamp outside the tolerance');
    // The same signature with a fresh clock would pass: it is the age that is refused.
    expect(hmacCheck(aged, first.body, secret, Number(old))).toBeNull();
  });
});
