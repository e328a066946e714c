/**
 * Group commit for delivery state changes: every change recorded in one event-loop turn goes to
 * the store as one transaction, and each caller's promise resolves after COMMIT. A failed commit
 * loses nothing: the batch stays queued and is tried again after `retryMs` (the peer is told of
 * a receipt only after it is recorded, so it resends the ones a crash would lose meanwhile).
 */
import type { DeliveryChange, DeliveryStore } from '../store/delivery.js';

export interface ChangeWriter {
  /** Resolves once the change is committed: true when it applied (a receipt: matched a part). */
  record(change: DeliveryChange): Promise<boolean>;
  /** Resolves when everything recorded so far is committed. */
  flush(): Promise<void>;
  /** Changes waiting for their commit. */
  readonly waiting: number;
}

interface Waiting {
  readonly change: DeliveryChange;
  readonly resolve: (applied: boolean) => void;
}

export function createChangeWriter(
  store: Pick<DeliveryStore, 'apply'>,
  log: (line: string) => void,
  retryMs = 1_000,
): ChangeWriter {
  let queue: Waiting[] = [];
  let scheduled = false;
  let running: Promise<void> | undefined;
  let failing = false;
  const idle = new Set<() => void>();

  function schedule(delayMs: number): void {
    if (scheduled) return;
    scheduled = true;
    const run = (): void => {
      scheduled = false;
      running = commit().finally(() => {
        running = undefined;
        if (queue.length > 0) schedule(failing ? retryMs : 0);
        else for (const resolve of idle) resolve();
      });
    };
    if (delayMs === 0) setImmediate(run);
    else setTimeout(run, delayMs).unref();
  }

  async function commit(): Promise<void> {
    const batch = queue;
    queue = [];
    try {
      const results = await store.apply(batch.map((w) => w.change));
      if (failing) log('delivery states are being recorded again');
      failing = false;
      batch.forEach((w, index) => {
        w.resolve(results[index] ?? false);
      });
    } catch (error) {
      if (!failing) {
        const reason = error instanceof Error ? error.message : String(error);
        log(`cannot record ${batch.length} delivery state change(s), retrying every ${retryMs} ms: ${reason}`);
      }
      failing = true;
      queue = [...batch, ...queue];
    }
  }

  return {
    record(change) {
      return new Promise((resolve) => {
        queue.push({ change, resolve });
        if (running === undefined) schedule(0);
      });
    },
    flush() {
      if (queue.length === 0 && running === undefined) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          idle.delete(done);
          resolve();
        };
        idle.add(done);
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}
