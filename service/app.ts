/**
 * Wiring of the service for `smskit serve` and `smskit account|outbox`: one store, the accounts,
 * the carrier table, the send operation and its wire handlers, from one validated options object.
 *
 * Shutdown order for a server: stop accepting and let in-flight requests finish (the HTTP
 * server's close), then `app.close()`, which commits whatever is still queued and closes the
 * database. A request that reaches the store after `close()` gets ServiceUnavailable
 * (StorageClosed), never a silent loss.
 */
import { createAccounts, DEFAULT_AUTH_LIMITS, type Accounts, type AuthLimits } from './accounts/accounts.js';
import { createCarrierTable, loadCarrierTable, type CarrierTable } from './delivery/carriers.js';
import type { Durability } from './store/index.js';
import { createSmsHandlers, type SmsHandlers } from './handlers.js';
import { createStatusHandlers, type StatusHandlers } from './status/handlers.js';
import { createStatusService } from './status/status.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics/metrics.js';
import { DEFAULT_SCRYPT, type ScryptParams } from './accounts/passwords.js';
import { checkCountryCode } from './send/phone.js';
import { DEFAULT_MAX_SEGMENTS } from './sms/segments.js';
import { createSmsService, type SmsService } from './send/sms.js';
import type { DeliveryConfig } from './delivery/routes-file.js';
import type { DeliveryEngine, EngineTiming } from './delivery/engine.js';
import { type OpenStoreOptions, openStore, type Store } from './store/index.js';
import { type CallbackSender, createCallbackSender } from './callbacks/sender.js';
import { callbackSettings, type CallbackSettingsInput } from './callbacks/options.js';
import { startCallbackSenderThread } from './callbacks/thread.js';

export interface SmsAppOptions {
  /** A SQLite file path, or a postgres:// (postgresql://) connection string (password from PGPASSWORD / ~/.pgpass). */
  readonly dbPath: string;
  /** PostgreSQL: connections this process keeps at most (default 10). */
  readonly poolSize?: number;
  readonly durability?: Durability;
  /** JSON carrier table (see docs/service.md); the default table otherwise. */
  readonly carriersFile?: string;
  /** Country calling code for national numbers; national numbers are refused without it. */
  readonly defaultCountryCode?: string;
  readonly maxSegments?: number;
  readonly authLimits?: AuthLimits;
  readonly scrypt?: ScryptParams;
  /** How long a successful password verification is remembered (ms, default 10 min; 0 = never). */
  readonly credentialCacheTtlMs?: number;
  readonly busyTimeoutMs?: number;
  /** SQLite: commit the hot-path writes on a thread of their own (see store/sqlite/writer.ts); `serve` does. */
  readonly writerThread?: boolean;
  readonly clock?: () => number;
  /** One line per failed outbox commit and per delivery event worth a line (never request values). */
  readonly log?: (line: string) => void;
  /** The routes file (docs/delivery.md); without one, accepted messages stay queued. */
  readonly routesFile?: string;
  /** Engine timing (lease, poll, expiry sweep), for tests; the routes file sets the lease. */
  readonly deliveryTiming?: Partial<EngineTiming>;
  /**
   * The callback sender's settings (docs/status.md; `allowPrivate` is serve's
   * --allow-private-callbacks), or false for none. `startCallbacks` starts it.
   */
  readonly callbacks?: CallbackSettingsInput | false;
  /**
   * Send callbacks from a thread of their own at the lowest CPU priority
   * (callbacks/sender-thread.ts); `serve` does. Not with `clock` (a thread has its own).
   */
  readonly callbackThread?: boolean;
}

export interface SmsApp {
  readonly store: Store;
  readonly accounts: Accounts;
  readonly carriers: CarrierTable;
  readonly sms: SmsService;
  readonly handlers: SmsHandlers;
  /** GetMessageStatus (the status contract at /statusapi.asmx), on the same accounts and store. */
  readonly statusHandlers: StatusHandlers;
  /** Requests, acknowledged messages, commit latency, outbox and route gauges (GET /metrics). */
  readonly metrics: ServiceMetrics;
  /** The delivery engine, when a routes file was given (started by `startDelivery`). */
  readonly delivery: DeliveryEngine | undefined;
  readonly deliveryConfig: DeliveryConfig | undefined;
  /** Starts the delivery engine (a no-op without routes). */
  startDelivery(): void;
  /** The callback sender (absent with `callbacks: false`); started by `startCallbacks`. */
  readonly callbacks: CallbackSender | undefined;
  startCallbacks(): void;
  /**
   * Stops delivery (in-flight submits finish within `drainMs`) and the callback sender (its
   * unfinished events go back to the queue), commits what is queued, closes the store.
   */
  close(drainMs?: number): Promise<void>;
}

const OPTION_NAMES = new Set([
  'dbPath',
  'poolSize',
  'durability',
  'carriersFile',
  'defaultCountryCode',
  'maxSegments',
  'authLimits',
  'scrypt',
  'credentialCacheTtlMs',
  'busyTimeoutMs',
  'writerThread',
  'clock',
  'log',
  'routesFile',
  'deliveryTiming',
  'callbacks',
  'callbackThread',
]);

/** Rejects unknown and out-of-range options; throws a plain Error naming the option. */
export function checkSmsAppOptions(options: SmsAppOptions): void {
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length > 0) throw new Error(`unknown service option(s): ${unknown.join(', ')}`);
  if (typeof options.dbPath !== 'string' || options.dbPath === '') throw new Error('dbPath is required');
  if (options.durability !== undefined && options.durability !== 'full' && options.durability !== 'normal')
    throw new Error('durability must be "full" or "normal"');
  if (options.defaultCountryCode !== undefined) checkCountryCode(options.defaultCountryCode);
  if (
    options.maxSegments !== undefined &&
    (!Number.isInteger(options.maxSegments) || options.maxSegments < 1 || options.maxSegments > 255)
  ) {
    throw new Error('maxSegments must be an integer 1-255 (the concatenation header counts to 255)');
  }
  for (const [name, value] of [
    ['credentialCacheTtlMs', options.credentialCacheTtlMs],
    ['busyTimeoutMs', options.busyTimeoutMs],
    ['poolSize', options.poolSize],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value < 0)) throw new Error(`${name} must be a number >= 0`);
  }
  if (options.callbacks !== undefined && options.callbacks !== false) callbackSettings(options.callbacks);
  if (options.callbackThread === true && options.clock !== undefined)
    throw new Error('callbackThread cannot be used with clock: the thread keeps its own time');
}

export async function openSmsApp(options: SmsAppOptions): Promise<SmsApp> {
  checkSmsAppOptions(options);
  const carriers = options.carriersFile === undefined ? createCarrierTable() : loadCarrierTable(options.carriersFile);
  const clock = options.clock ?? Date.now;
  // Read before the store opens: a bad routes file must not leave a connection pool open.
  // Imported only with a routes file: SMPP, SMTP and YAML code a server without routes never runs.
  const deliveryConfig =
    options.routesFile === undefined
      ? undefined
      : (await import('./delivery/routes-file.js')).loadRoutesFile(options.routesFile, carriers);
  const store = await openStore(
    appStoreOptions(options, deliveryConfig, clock, (seconds, size) => metrics.commit(seconds, size)),
  );
  const accounts = createAccounts({
    store,
    clock,
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
    limits: options.authLimits ?? DEFAULT_AUTH_LIMITS,
    ...(options.credentialCacheTtlMs === undefined ? {} : { cacheTtlMs: options.credentialCacheTtlMs }),
  });
  const limits = {
    maxSegments: options.maxSegments ?? DEFAULT_MAX_SEGMENTS,
    ...(options.defaultCountryCode === undefined ? {} : { defaultCountryCode: options.defaultCountryCode }),
  };
  const sms = createSmsService({ store, accounts, carriers, limits });
  const delivery = deliveryConfig === undefined ? undefined : await createEngine(store, deliveryConfig, options);
  const callbacks = createCallbacks(store, options);
  const metrics = createServiceMetrics({ store, delivery: () => delivery, callbacks: () => callbacks, clock });
  let started = false;
  return {
    store,
    accounts,
    carriers,
    sms,
    handlers: createSmsHandlers(sms, {
      answered: (operation, binding, outcome, code) => metrics.request(operation, binding, outcome, code),
      stored: (state) => metrics.acknowledged(state),
    }),
    statusHandlers: createStatusHandlers(createStatusService({ store, accounts }), {
      answered: (binding, outcome, code) => metrics.request('GetMessageStatus', binding, outcome, code),
    }),
    metrics,
    delivery,
    deliveryConfig,
    startDelivery() {
      if (started || delivery === undefined) return;
      started = true;
      delivery.start();
    },
    callbacks,
    startCallbacks: () => callbacks?.start(),
    async close(drainMs = 10_000) {
      // Side by side: neither waits for the other, and both finish before the store closes.
      await Promise.all([started ? delivery?.stop(drainMs) : undefined, callbacks?.close(Math.min(drainMs, 5_000))]);
      await store.close();
    },
  };
}

/** The store's options from the app's: the database, its durability, the commit metrics and the log. */
function appStoreOptions(
  options: SmsAppOptions,
  deliveryConfig: DeliveryConfig | undefined,
  clock: () => number,
  onCommit: (seconds: number, size: number) => void,
): OpenStoreOptions {
  const log = options.log;
  return {
    ...(deliveryConfig === undefined ? {} : { deliveryDurability: deliveryConfig.stateDurability }),
    db: options.dbPath,
    clock,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(log === undefined ? {} : { log }),
    ...(options.durability === undefined ? {} : { durability: options.durability }),
    ...(options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }),
    ...(options.writerThread === undefined ? {} : { writerThread: options.writerThread }),
    onCommit,
    ...(log === undefined
      ? {}
      : {
          onError: (error, size) =>
            log(
              `outbox commit of ${size} message(s) failed: ${error.code}${error.driverCode === undefined ? '' : ` [${error.driverCode}]`}: ${error.message}`,
            ),
        }),
  };
}

function createCallbacks(store: Store, options: SmsAppOptions): CallbackSender | undefined {
  if (options.callbacks === false) return undefined;
  if (options.callbackThread === true)
    return startCallbackSenderThread({
      store: store.callbacks,
      ...(options.callbacks === undefined ? {} : { settings: options.callbacks }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  return createCallbackSender({
    store: store.callbacks,
    ...(options.callbacks === undefined ? {} : { settings: options.callbacks }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
}

async function createEngine(store: Store, config: DeliveryConfig, options: SmsAppOptions): Promise<DeliveryEngine> {
  const { createDeliveryEngine } = await import('./delivery/engine.js');
  return createDeliveryEngine({
    store: store.delivery,
    onCommitted: (wake) => store.onCommitted(wake),
    routes: config.routes.map((route) => ({ route: route.create(), carriers: route.carriers })),
    policy: config.policy,
    timing: { leaseMs: config.leaseMs, ...options.deliveryTiming },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.log === undefined ? {} : { log: options.log }),
  });
}
