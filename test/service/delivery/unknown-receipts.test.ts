/**
 * The unknown-receipt watch on an injected clock: ten unknown receipts in a minute are quiet,
 * the eleventh warns once (logged and counted), a burst that goes on does not warn again, and a
 * burst after a quiet minute does. Receipts spread thinner than ten a minute never warn.
 */
import { expect, it } from 'vitest';
import { createDeliveryCounters } from '../../../service/delivery/counters.js';
import { UnknownReceiptWatch } from '../../../service/delivery/unknown-receipts.js';

it('warns once per burst of more than ten unknown receipts in a minute', () => {
  let now = 1_000_000;
  const logs: string[] = [];
  const counters = createDeliveryCounters();
  const watch = new UnknownReceiptWatch(
    'smsc',
    counters,
    () => now,
    (line) => logs.push(line),
  );
  const warnings = (): number => counters.snapshot().smsc?.unknown_receipts_warning ?? 0;
  for (let i = 0; i < 10; i++) {
    watch.seen();
    now += 1_000;
  }
  expect(warnings()).toBe(0);
  watch.seen(); // the eleventh within a minute
  expect(warnings()).toBe(1);
  expect(logs[0]).toMatch(/^route smsc: more than 10 receipts in a minute for ids no message has/);
  expect(logs[0]).toContain('same SMSC account');
  expect(logs[0]).toContain('receiptIds');
  for (let i = 0; i < 30; i++) {
    now += 500;
    watch.seen();
  }
  expect(warnings()).toBe(1);
  now += 61_000; // a quiet minute
  for (let i = 0; i < 11; i++) watch.seen();
  expect(warnings()).toBe(2);
  expect(logs).toHaveLength(2);
});

it('never warns for unknown receipts spread thinner than ten a minute', () => {
  let now = 0;
  const counters = createDeliveryCounters();
  const watch = new UnknownReceiptWatch(
    'smsc',
    counters,
    () => now,
    () => {},
  );
  for (let i = 0; i < 100; i++) {
    watch.seen();
    now += 6_001;
  }
  expect(counters.snapshot().smsc?.unknown_receipts_warning).toBeUndefined();
});
