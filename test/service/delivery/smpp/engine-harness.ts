/**
 * The delivery engine as `smskit serve --routes` runs it, for the SMPP tests that need the whole
 * path (store, engine, real route, real SMSC): a SQLite store on a temporary file, messages
 * enqueued as the service stores them, an engine over the given routes with fast sweeps, and
 * waits on a message's state.
 */
import { join } from 'node:path';
import { createDeliveryEngine, type DeliveryEngine } from '../../../../service/delivery/engine.js';
import type { RetryPolicy } from '../../../../service/delivery/policy.js';
import type { Route } from '../../../../service/delivery/route.js';
import { openSqliteStore, type NewMessage, type SqliteStore } from '../../../../service/store/index.js';
import { checkMessage } from '../../../../service/sms/segments.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { scratchDir } from '../../../helpers/scratch.js';

export const FAST_POLICY: RetryPolicy = {
  maxAttempts: 5,
  initialBackoffMs: 20,
  maxBackoffMs: 100,
  jitter: 0,
  validityMs: 3_600_000,
};

export function openTestStore(): SqliteStore {
  return openSqliteStore({ path: join(scratchDir('smskit-smpp-engine-'), 'outbox.db') });
}

export function newMessage(smsmsg: string, carrierCode = 'att'): NewMessage {
  const checked = checkMessage(smsmsg, false, { maxSegments: 10 });
  return {
    account: 'a@example.com',
    keyword: 'ACME',
    smsto: '+14155550123',
    carrierCode,
    encoding: checked.encoding,
    segments: checked.segments,
    port: null,
    smsmsg,
  };
}

export interface RunningEngine {
  readonly engine: DeliveryEngine;
  readonly logs: string[];
  stop(): Promise<void>;
}

export function runEngine(
  store: SqliteStore,
  routes: readonly Route[],
  options: { policy?: RetryPolicy; sweepMs?: number } = {},
): RunningEngine {
  const logs: string[] = [];
  const engine = createDeliveryEngine({
    store: store.delivery,
    onCommitted: (wake) => store.onCommitted(wake),
    routes: routes.map((route) => ({ route, carriers: { except: [] } })),
    policy: options.policy ?? FAST_POLICY,
    timing: { pollMs: 20, leaseMs: 5_000, expirySweepMs: options.sweepMs ?? 50 },
    log: (line) => logs.push(line),
  });
  engine.start();
  return { engine, logs, stop: () => engine.stop(2_000) };
}

export async function stateOf(store: SqliteStore, id: string): Promise<string | undefined> {
  return (await store.getMessage(id))?.state;
}

export async function waitForState(store: SqliteStore, id: string, state: string, timeoutMs = 15_000): Promise<void> {
  let last: string | undefined;
  await waitFor(
    `${id} ${state}`,
    async () => {
      last = await stateOf(store, id);
      return last === state;
    },
    { timeoutMs, state: () => `state ${last}` },
  );
}
