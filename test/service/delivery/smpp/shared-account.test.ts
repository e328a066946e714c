/**
 * Two instances on separate SQLite files bound with one SMSC account: the SMSC hands receipts for
 * one instance's messages to the other's bind, where they match nothing. The instance receiving
 * them must log one warning naming the likely causes and count it in its metrics, not stay
 * silent. Against Net::SMPP (receipts kept for the next bind, so they reach the instance that
 * binds after the sender left) and the simulator (which sends every receipt to the first bound
 * receiver of the account).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSmsc, type RunningSmsc } from '../../../../service/delivery/simulator/index.js';
import { createSmppRoute } from '../../../../service/delivery/smpp/index.js';
import type { SqliteStore } from '../../../../service/store/index.js';
import { requirePeer } from '../../../helpers/peers.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { newMessage, openTestStore, type RunningEngine, runEngine, waitForState } from './engine-harness.js';
import { type PerlSmsc, routeOptions, startPerlSmsc } from './helpers.js';

const perl = requirePeer('net-smpp', 'smpp/shared-account');

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function instance(port: number): { store: SqliteStore; running: RunningEngine } {
  const store = openTestStore();
  const running = runEngine(store, [createSmppRoute('smsc', routeOptions(port))]);
  cleanup.push(
    () => running.stop(),
    () => store.close(),
  );
  return { store, running };
}

async function sendFrom(store: SqliteStore, count: number, state: string): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await store.enqueue(newMessage(`from the other instance ${i}`))).id);
  for (const id of ids) await waitForState(store, id, state);
}

function expectOneWarning(receiver: RunningEngine): void {
  const counts = receiver.engine.counters.snapshot().smsc;
  expect(counts?.receipt_unknown ?? 0).toBeGreaterThan(10);
  expect(counts?.unknown_receipts_warning).toBe(1);
  const warnings = receiver.logs.filter((line) => line.includes('more than 10 receipts in a minute'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain('same SMSC account');
}

describe('one SMSC account, two instances, the simulator', () => {
  it('warns on the instance that gets the other one’s receipts', async () => {
    const smsc: RunningSmsc = await startSmsc({ systemId: 'smskit', password: 'secret' });
    cleanup.push(() => smsc.close());
    const first = instance(smsc.port); // binds first: the simulator sends every receipt here
    await waitFor('first bound', () => first.running.engine.routes()[0]?.up === true);
    const second = instance(smsc.port);
    await waitFor('second bound', () => second.running.engine.routes()[0]?.up === true);
    await sendFrom(second.store, 15, 'accepted');
    await waitFor(
      'receipts at the first instance',
      () => (first.running.engine.counters.snapshot().smsc?.receipt_unknown ?? 0) >= 15,
    );
    expectOneWarning(first.running);
  });
});

describe.skipIf(perl.skip)('one SMSC account, two instances, Net::SMPP', () => {
  it('warns on the instance that binds after the other left with its receipts unsent', async () => {
    const smsc: PerlSmsc = await startPerlSmsc(['--receipts-on-next-bind']);
    cleanup.push(() => smsc.close());
    const sender = instance(smsc.port);
    await sendFrom(sender.store, 12, 'accepted');
    await sender.running.stop(); // its session ends; the SMSC keeps the receipts for the next bind
    const receiver = instance(smsc.port);
    await waitFor(
      '12 receipts at the other instance',
      () => (receiver.running.engine.counters.snapshot().smsc?.receipt_unknown ?? 0) >= 12,
    );
    expectOneWarning(receiver.running);
  });
});
