/**
 * The callback sender's numbers: events settled by outcome and failed tries by reason (counters
 * the sender keeps in memory: sent events leave the queue, so the store cannot count them), and
 * the queue read at scrape time (pending and dead events, the oldest pending event's age). The
 * `/healthz` entry says whether the sender runs and how far behind it is.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { CallbackSender } from '../callbacks/sender.js';
import type { CallbackStore } from '../store/callbacks.js';

export interface CallbackMetricsSource {
  readonly store: Pick<CallbackStore, 'callbackStats'>;
  /** The sender, when this process runs one (serve does). */
  readonly sender: () => CallbackSender | undefined;
}

export interface CallbackHealth {
  /** Whether this process sends callbacks. */
  readonly sending: boolean;
  readonly pending: number;
  readonly dead: number;
  readonly oldestPendingAgeSeconds: number;
  /** The sender's last failed claim or settle, when the store refused one. */
  readonly storeError?: string;
}

export function addCallbackMetrics(registry: Registry, source: CallbackMetricsSource, clock: () => number): void {
  new Counter({
    name: 'smskit_callback_events_total',
    help: 'Callback events settled by this process: sent (2xx), retried (a try failed, tried again later), dead (budget spent), disabled (410 Gone).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      const stats = source.sender()?.stats();
      for (const [outcome, count] of Object.entries(stats?.outcomes ?? {})) this.inc({ outcome }, count);
    },
  });
  new Counter({
    name: 'smskit_callback_failures_total',
    help: 'Failed callback tries by reason: http_3xx, http_4xx, http_5xx, timeout, refused, reset, address (SSRF guard), dns, bad_url, stopped, error.',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      const stats = source.sender()?.stats();
      for (const [reason, count] of Object.entries(stats?.failures ?? {})) this.inc({ reason }, count ?? 0);
    },
  });
  new Gauge({
    name: 'smskit_callback_sender_deferring',
    help: 'Whether the sender pauses new claims because serving and delivery keep the service and the machine busy (1) or not (0).',
    registers: [registry],
    collect() {
      this.set(source.sender()?.stats().deferring === true ? 1 : 0);
    },
  });
  new Gauge({
    name: 'smskit_callback_queue_events',
    help: 'Callback events in the queue: pending (to be sent or retried) and dead (given up; smskit callbacks --retry).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const stats = await source.store.callbackStats();
      this.set({ state: 'pending' }, stats.pending);
      this.set({ state: 'dead' }, stats.dead);
    },
  });
  new Gauge({
    name: 'smskit_callback_oldest_pending_age_seconds',
    help: 'How long the oldest pending callback event has been queued (0 when none is).',
    registers: [registry],
    async collect() {
      const { oldestPendingAt } = await source.store.callbackStats();
      this.set(oldestPendingAt === null ? 0 : Math.max(0, (clock() - oldestPendingAt) / 1000));
    },
  });
}

export async function callbackHealth(source: CallbackMetricsSource, clock: () => number): Promise<CallbackHealth> {
  const stats = await source.store.callbackStats();
  const sender = source.sender()?.stats();
  return {
    sending: sender?.running ?? false,
    pending: stats.pending,
    dead: stats.dead,
    oldestPendingAgeSeconds:
      stats.oldestPendingAt === null ? 0 : Math.max(0, Math.round((clock() - stats.oldestPendingAt) / 1000)),
    ...(sender?.storeError == null ? {} : { storeError: sender.storeError }),
  };
}
