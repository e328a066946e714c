/**
 * The service's numbers for Prometheus (text exposition at GET /metrics) and its health (GET
 * /healthz). Counters are kept in memory as things happen (requests, acknowledged messages,
 * commit latency); the rest is read at scrape time from the store (messages per state, the
 * oldest queued message) and from the delivery engine (per-route counts, each route's
 * `status()`: up, in flight, window). Names and labels are listed in docs/operations.md.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DeliveryEngine } from '../delivery/engine.js';
import type { BindStatus } from '../delivery/route.js';
import type { CallbackSender } from '../callbacks/sender.js';
import type { Store } from '../store/index.js';
import { addCallbackMetrics, type CallbackHealth, callbackHealth } from './callback-metrics.js';

export type RequestOutcome = 'accepted' | 'refused' | 'unavailable' | 'error';

export interface ServiceMetrics {
  /** One answered SMSSend/SMSSendToPort: its binding, and a refusal's code (else the outcome). */
  request(operation: string, binding: string, outcome: RequestOutcome, code?: string): void;
  /** An id was returned for a message stored in `state`. */
  acknowledged(state: 'queued' | 'test'): void;
  /** One group commit of accepted messages. */
  commit(seconds: number, batchSize: number): void;
  /** The text exposition. */
  render(): Promise<{ contentType: string; text: string }>;
  health(): Promise<Health>;
}

export interface Health {
  /** ok: the store answers and every route is up; degraded: a route is down; failing: the store does not answer. */
  readonly status: 'ok' | 'degraded' | 'failing';
  readonly store: string;
  readonly routes: readonly HealthRoute[];
  /** The callback queue and whether this process sends it (absent when the store cannot be read). */
  readonly callbacks?: CallbackHealth;
}

export interface HealthRoute {
  readonly name: string;
  readonly up: boolean;
  readonly detail: string;
  /** A route's sessions when it keeps several (SMPP `binds: N`). */
  readonly binds?: readonly { readonly bind: number; readonly up: boolean; readonly detail: string }[];
  /** The members of a failover or round-robin route. */
  readonly members?: readonly { readonly name: string; readonly up: boolean; readonly detail: string }[];
}

export interface MetricsSources {
  readonly store: Pick<Store, 'countByState' | 'findOutbox' | 'callbacks'>;
  /** The delivery engine, when the service delivers (it may be started later). */
  readonly delivery: () => DeliveryEngine | undefined;
  /** The callback sender, when this process runs one. */
  readonly callbacks?: () => CallbackSender | undefined;
  readonly clock?: () => number;
}

const COMMIT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export function createServiceMetrics(sources: MetricsSources): ServiceMetrics {
  const clock = sources.clock ?? Date.now;
  const registry = new Registry();
  const requests = new Counter({
    name: 'smskit_requests_total',
    help: 'Answered send requests by operation, binding and outcome (accepted, a refusal code, unavailable, error).',
    labelNames: ['operation', 'binding', 'outcome'],
    registers: [registry],
  });
  const acknowledged = new Counter({
    name: 'smskit_messages_acknowledged_total',
    help: 'Messages whose id was returned to the client, by how they were stored (queued for delivery, or test).',
    labelNames: ['state'],
    registers: [registry],
  });
  const commits = new Histogram({
    name: 'smskit_store_commit_seconds',
    help: 'Time of each group commit of accepted messages (the transaction, to COMMIT returning).',
    buckets: COMMIT_BUCKETS,
    registers: [registry],
  });
  addStoreGauges(registry, sources, clock);
  addDeliveryGauges(registry, sources);
  addCallbackMetrics(registry, callbackSource(sources), clock);
  return {
    request(operation, binding, outcome, code) {
      requests.inc({ operation, binding, outcome: outcome === 'refused' ? (code ?? 'refused') : outcome });
    },
    acknowledged: (state) => acknowledged.inc({ state }),
    commit: (seconds) => commits.observe(seconds),
    async render() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
    health: () => healthOf(sources, clock),
  };
}

function addStoreGauges(registry: Registry, sources: MetricsSources, clock: () => number): void {
  new Gauge({
    name: 'smskit_outbox_messages',
    help: 'Messages in the outbox by state.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const [state, count] of Object.entries(await sources.store.countByState())) this.set({ state }, count ?? 0);
    },
  });
  new Gauge({
    name: 'smskit_outbox_oldest_queued_age_seconds',
    help: 'Age of the oldest message waiting to be sent (0 when none waits).',
    registers: [registry],
    async collect() {
      const [oldest] = await sources.store.findOutbox({ states: ['queued'], order: 'oldest', limit: 1 });
      this.set(oldest === undefined ? 0 : Math.max(0, (clock() - oldest.createdAt) / 1000));
    },
  });
}

function addDeliveryGauges(registry: Registry, sources: MetricsSources): void {
  // Counters the engine keeps; exposed as counters (they only grow while the process runs).
  new Counter({
    name: 'smskit_delivery_events_total',
    help: 'Delivery events per route: submitted, accepted, rejected, retried, failed, expired, receipt_delivered, receipt_undeliverable, receipt_expired, receipt_rejected, receipt_unknown.',
    labelNames: ['route', 'event'],
    registers: [registry],
    collect() {
      this.reset();
      const counts = sources.delivery()?.counters.snapshot() ?? {};
      for (const [route, events] of Object.entries(counts))
        for (const [event, count] of Object.entries(events)) this.inc({ route, event }, count ?? 0);
    },
  });
  const perRoute = (name: string, help: string, value: (r: ReturnType<DeliveryEngine['routes']>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['route', 'kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const route of sources.delivery()?.routes() ?? [])
          this.set({ route: route.name, kind: route.kind }, value(route));
      },
    });
  perRoute('smskit_route_up', 'Whether the route can send (SMPP: bound; e-mail: the relay answered).', (r) =>
    r.up ? 1 : 0,
  );
  perRoute(
    'smskit_route_in_flight',
    'Requests sent on the route and not yet answered (SMPP: the window in use).',
    (r) => r.inFlight,
  );
  perRoute('smskit_route_window', 'Most requests the route keeps unanswered at once.', (r) => r.window);
  addBindGauges(registry, sources);
  perRoute(
    'smskit_route_buffered',
    'Messages claimed for the route and waiting for a free slot in its window.',
    (r) => r.buffered,
  );
}

/** Per session of a route with several (SMPP `binds: N`): up and in flight, labelled route and bind. */
function addBindGauges(registry: Registry, sources: MetricsSources): void {
  const perBind = (name: string, help: string, value: (b: BindStatus) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['route', 'bind'],
      registers: [registry],
      collect() {
        this.reset();
        // A composite's members are routes of their own here, each with its binds.
        for (const route of sources.delivery()?.routes() ?? [])
          for (const owner of [route, ...(route.members ?? [])])
            for (const bind of owner.binds ?? []) this.set({ route: owner.name, bind: String(bind.bind) }, value(bind));
      },
    });
  perBind('smskit_route_bind_up', 'Whether each session (bind) of an SMPP route is bound.', (b) => (b.up ? 1 : 0));
  perBind(
    'smskit_route_bind_in_flight',
    'Messages sent on each session (bind) and not yet answered.',
    (b) => b.inFlight,
  );
  new Gauge({
    name: 'smskit_route_member_up',
    help: 'Whether each member of a failover or round-robin route can send.',
    labelNames: ['route', 'member'],
    registers: [registry],
    collect() {
      this.reset();
      for (const route of sources.delivery()?.routes() ?? [])
        for (const member of route.members ?? [])
          this.set({ route: route.name, member: member.name }, member.up ? 1 : 0);
    },
  });
}

function callbackSource(sources: MetricsSources) {
  return { store: sources.store.callbacks, sender: sources.callbacks ?? (() => undefined) };
}

async function healthOf(sources: MetricsSources, clock: () => number): Promise<Health> {
  const routes = (sources.delivery()?.routes() ?? []).map(
    (r): HealthRoute => ({
      name: r.name,
      up: r.up,
      detail: r.detail,
      ...(r.members === undefined
        ? {}
        : { members: r.members.map((m) => ({ name: m.name, up: m.up, detail: m.detail })) }),
      ...(r.binds === undefined || r.binds.length < 2
        ? {}
        : { binds: r.binds.map((b) => ({ bind: b.bind, up: b.up, detail: b.detail })) }),
    }),
  );
  try {
    await sources.store.countByState();
  } catch (error) {
    return { status: 'failing', store: error instanceof Error ? error.message : 'unreadable', routes };
  }
  const allUp = routes.every((r) => r.up && (r.members ?? []).every((m) => m.up));
  const callbacks = await callbackHealth(callbackSource(sources), clock).catch(() => undefined);
  return { status: allUp ? 'ok' : 'degraded', store: 'ok', routes, ...(callbacks === undefined ? {} : { callbacks }) };
}
