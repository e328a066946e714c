/**
 * Group commit for delivery state changes: every change recorded in one event-loop turn goes to
 * the store as one transaction, and each caller's promise resolves after COMMIT. A failed commit
 * loses nothing: the batch stays queued and is tried again after `retryMs` (the peer is told of
 * a receipt only after it is recorded, so it resends the ones a crash would lose meanwhile).
 */
import type { DeliveryChange, DeliveryStore } from '../store/delivery.js';

export interface ChangeBatcher {
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

export function createChangeBatcher(
  store: Pick<DeliveryStore, 'apply'>,
  log: (line: string) => void,
  retryMs = 1_000,
): ChangeBatcher {
  return new GroupCommitBatcher(store, log, retryMs);
}

class GroupCommitBatcher implements ChangeBatcher {
  private queue: Waiting[] = [];
  private scheduled = false;
  private running: Promise<void> | undefined;
  private failing = false;
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly store: Pick<DeliveryStore, 'apply'>,
    private readonly log: (line: string) => void,
    private readonly retryMs: number,
  ) {}

  record(change: DeliveryChange): Promise<boolean> {
    return new Promise((resolve) => {
      this.queue.push({ change, resolve });
      if (this.running === undefined) this.schedule(0);
    });
  }

  flush(): Promise<void> {
    if (this.queue.length === 0 && this.running === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.idle.delete(done);
        resolve();
      };
      this.idle.add(done);
    });
  }

  get waiting(): number {
    return this.queue.length;
  }

  private schedule(delayMs: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = (): void => {
      this.scheduled = false;
      this.running = this.commit().finally(() => {
        this.running = undefined;
        if (this.queue.length > 0) this.schedule(this.failing ? this.retryMs : 0);
        else for (const resolve of this.idle) resolve();
      });
    };
    if (delayMs === 0) setImmediate(run);
    else setTimeout(run, delayMs).unref();
  }

  private async commit(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      const results = await this.store.apply(batch.map((w) => w.change));
      if (this.failing) this.log('delivery states are being recorded again');
      this.failing = false;
      batch.forEach((w, index) => {
        w.resolve(results[index] ?? false);
      });
    } catch (error) {
      if (!this.failing) {
        const reason = error instanceof Error ? error.message : String(error);
        this.log(
          `cannot record ${batch.length} delivery state change(s), retrying every ${this.retryMs} ms: ${reason}`,
        );
      }
      this.failing = true;
      this.queue = [...batch, ...this.queue];
    }
  }
}
