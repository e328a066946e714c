/**
 * What the engine did, per route, since it started: for the operator's metrics and the bench.
 * Plain counters in memory; the durable truth is the outbox.
 */
export type DeliveryEvent =
  | 'submitted'
  | 'accepted'
  | 'rejected'
  | 'retried'
  | 'failed'
  | 'expired'
  | 'receipt_delivered'
  | 'receipt_undeliverable'
  | 'receipt_expired'
  | 'receipt_rejected'
  | 'receipt_unknown'
  /** An accepted message became `unknown`: no receipt within the route's receipt timeout. */
  | 'receipt_timeout'
  /** More than 10 unknown receipts in a minute on the route: one warning logged (./unknown-receipts.ts). */
  | 'unknown_receipts_warning';

export interface DeliveryCounters {
  count(route: string, event: DeliveryEvent): void;
  /** route → event → count. */
  snapshot(): Record<string, Partial<Record<DeliveryEvent, number>>>;
}

export function createDeliveryCounters(): DeliveryCounters {
  const byRoute = new Map<string, Map<DeliveryEvent, number>>();
  return {
    count(route, event) {
      let events = byRoute.get(route);
      if (events === undefined) {
        events = new Map();
        byRoute.set(route, events);
      }
      events.set(event, (events.get(event) ?? 0) + 1);
    },
    snapshot: () =>
      Object.fromEntries([...byRoute].map(([route, events]) => [route, Object.fromEntries(events)] as const)),
  };
}
