/**
 * What the delivery engine's thread (./engine-thread.ts) and the event loop's side (./thread.ts)
 * say to each other. The thread reads the routes file itself, binds the routes, and reaches the
 * store through the connection the store handed over; the event loop tells it when accepted
 * messages were committed, and keeps the counters and route reports it posts for /metrics and
 * /healthz.
 */
import type { DeliveryConnection } from '../store/delivery.js';
import type { DeliveryCounters } from './counters.js';
import type { EngineTiming, RouteReport } from './engine.js';

export interface DeliveryThreadData {
  readonly routesFile: string;
  readonly carriersFile: string | undefined;
  readonly owner: string;
  readonly timing: Partial<EngineTiming>;
  readonly nice: number;
  readonly connection: DeliveryConnection;
}

export interface DeliveryThreadStats {
  readonly counters: ReturnType<DeliveryCounters['snapshot']>;
  readonly routes: RouteReport[];
}

export type ToDeliveryThread =
  | { readonly kind: 'start' }
  | { readonly kind: 'wake' }
  | { readonly kind: 'stop'; readonly deadlineMs: number };

export type FromDeliveryThread =
  | { readonly kind: 'log'; readonly line: string }
  | { readonly kind: 'stats'; readonly stats: DeliveryThreadStats }
  | { readonly kind: 'stopped' };
