/**
 * The receipt timeout, applied by the engine's periodic sweep: a route's accepted messages still
 * without a final receipt after its `receiptTimeout` become `unknown`, so the outbox tells
 * "delivered without a receipt, or lost" from "still waiting". Bounded work per sweep: the store
 * takes at most BATCH per call, and the sweep stops after ROUNDS calls (the next sweep goes on).
 */
import type { DeliveryStore } from '../store/delivery.js';
import type { DeliveryCounters } from './counters.js';
import type { Route } from './route.js';

const BATCH = 5_000;
const ROUNDS = 20;

/** Times out `route`'s overdue receipts; resolves with how many messages became `unknown`. */
export async function sweepReceiptTimeouts(
  route: Pick<Route, 'name' | 'receiptTimeoutMs'>,
  store: Pick<DeliveryStore, 'timeOutReceipts'>,
  counters: DeliveryCounters,
  clock: () => number,
  log: (line: string) => void,
): Promise<number> {
  const timeoutMs = route.receiptTimeoutMs;
  if (timeoutMs === undefined) return 0;
  const text = `no delivery receipt within ${describeDuration(timeoutMs)} (receiptTimeout)`;
  let total = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const now = clock();
      const request = { route: route.name, acceptedBefore: now - timeoutMs, now, text, limit: BATCH };
      const count = await store.timeOutReceipts(request);
      for (let i = 0; i < count; i++) counters.count(route.name, 'receipt_timeout');
      total += count;
      if (count < BATCH) break;
    }
  } catch (error) {
    log(`route ${route.name}: cannot time out receipts: ${error instanceof Error ? error.message : error}`);
  }
  if (total > 0) log(`route ${route.name}: ${total} accepted message(s) became unknown: ${text}`);
  return total;
}

/** "48 h", "90 s", "1500 ms": the largest unit that divides the duration. */
export function describeDuration(ms: number): string {
  const units: ReadonlyArray<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1_000, 's'],
  ];
  for (const [size, unit] of units) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}
