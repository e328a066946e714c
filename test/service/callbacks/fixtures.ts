/**
 * What the sender tests share: a secret, a sender on an in-memory queue with a fast budget, and
 * the receiver's requests read back as (message, state) in arrival order.
 */
import { randomBytes } from 'node:crypto';
import { type CallbackSender, createCallbackSender } from '../../../service/callbacks/sender.js';
import type { CallbackSettingsInput } from '../../../service/callbacks/options.js';
import type { ReceivedCallback } from '../../helpers/callback-receiver.js';
import { type MemoryCallbackStore, memoryCallbackStore } from './memory-store.js';

export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** Milliseconds, not seconds: the budget's shape is the same, the test is fast. */
export const FAST: CallbackSettingsInput = {
  allowPrivate: true,
  idlePollMs: 10,
  timeoutMs: 2_000,
  leaseMs: 30_000,
  budget: { firstDelayMs: 10, maxDelayMs: 40, maxTries: 50, jitter: 0 },
};

export interface Harness {
  readonly store: MemoryCallbackStore;
  readonly sender: CallbackSender;
  readonly log: string[];
}

export function startSender(settings: CallbackSettingsInput = {}): Harness {
  const store = memoryCallbackStore();
  const log: string[] = [];
  const sender = createCallbackSender({
    store,
    settings: { ...FAST, ...settings, budget: { ...FAST.budget, ...settings.budget } },
    owner: 'test-sender',
    random: () => 0.5,
    log: (line) => log.push(line),
  });
  sender.start();
  return { store, sender, log };
}

export interface Seen {
  readonly messageId: string;
  readonly state: string;
  readonly sequence: number;
  readonly webhookId: string;
}

export function seen(request: ReceivedCallback): Seen {
  const { data } = JSON.parse(request.body) as { data: { messageId: string; state: string; sequence: number } };
  return {
    messageId: data.messageId,
    state: data.state,
    sequence: data.sequence,
    webhookId: request.headers['webhook-id'] ?? '',
  };
}
