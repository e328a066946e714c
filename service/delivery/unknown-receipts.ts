/**
 * Receipts for ids no message has, watched per route: a few are normal (a very old message, one
 * pruned), but more than LIMIT in a minute means receipts meant for someone else arrive here, or
 * ours are written in a form we do not match. The watch logs one warning naming both likely
 * causes and counts it (`unknown_receipts_warning` in smskit_delivery_events_total); it warns
 * again only after a quiet minute. Bounded: it keeps at most LIMIT + 1 times.
 */
import type { DeliveryCounters } from './counters.js';

const LIMIT = 10;
const WINDOW_MS = 60_000;

export class UnknownReceiptWatch {
  private readonly times: number[] = [];
  private warnedAt: number | undefined;

  constructor(
    private readonly route: string,
    private readonly counters: DeliveryCounters,
    private readonly clock: () => number,
    private readonly log: (line: string) => void,
  ) {}

  /** A receipt matched no message. */
  seen(): void {
    const now = this.clock();
    this.times.push(now);
    while (this.times.length > LIMIT + 1 || (this.times[0] ?? now) <= now - WINDOW_MS) this.times.shift();
    if (this.warnedAt !== undefined && now - this.warnedAt >= WINDOW_MS && this.times.length <= LIMIT)
      this.warnedAt = undefined; // a quiet minute: the next burst warns again
    if (this.times.length <= LIMIT || this.warnedAt !== undefined) return;
    this.warnedAt = now;
    this.counters.count(this.route, 'unknown_receipts_warning');
    this.log(
      `route ${this.route}: more than ${LIMIT} receipts in a minute for ids no message has. Likely causes: ` +
        'another system is bound with the same SMSC account and the SMSC hands its receipts to this bind ' +
        '(instances sharing an account need one store, PostgreSQL: see docs/deployment.md), or the SMSC ' +
        'writes receipt ids in another form than its submit_sm_resp ids (see receiptIds in docs/delivery.md)',
    );
  }
}
