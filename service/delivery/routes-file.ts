/**
 * The routes file (`smskit serve --routes routes.yaml`): the ways out, which carrier codes take
 * which one, and the retry policy. YAML or JSON; every error names file:line:column and the key;
 * secrets come from environment variables the file names. See docs/delivery.md for the format.
 */
import { readFileSync } from 'node:fs';
import type { CarrierSelection } from '../store/delivery.js';
import { AUTO_CARRIER, type CarrierTable } from './carriers.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './policy.js';
import type { Route } from './route.js';
import { createEmailRoute, readEmailSettings } from './email/index.js';
import { createSmppRoute, readSmppSettings } from './smpp/index.js';
import { Settings, SettingsError } from './settings.js';
import { type BuiltRoute, isComposite, readCompositeEntry } from './composite-entry.js';

/** Reads one `routes.<name>` entry of a kind and returns how to build the route. */
export type RouteKindReader = (
  route: Settings,
  name: string,
  env: NodeJS.ProcessEnv,
  file: string,
  carriers: CarrierTable,
) => () => Route;

/** The kinds of route a file may name in `type:`. */
export const ROUTE_KINDS: Record<string, RouteKindReader> = {
  smpp: (route, name, env, file) => {
    const options = readSmppSettings(route, env, file);
    return () => createSmppRoute(name, options);
  },
  email: (route, name, env, file, carriers) => {
    const options = readEmailSettings(route, env, file);
    return () => createEmailRoute(name, options, { carriers });
  },
};

export interface ConfiguredRoute {
  readonly name: string;
  readonly kind: string;
  readonly carriers: CarrierSelection;
  readonly create: () => Route;
}

export interface DeliveryConfig {
  readonly file: string;
  readonly routes: readonly ConfiguredRoute[];
  readonly policy: RetryPolicy;
  readonly leaseMs: number;
  /** Whether delivery state commits wait for fsync (docs/delivery.md, "What is durable"). */
  readonly stateDurability: 'full' | 'normal';
  /** Carrier codes no route takes (no default route): their messages stay queued. */
  readonly unrouted: readonly string[];
}

const HOUR = 3_600_000;

export function loadRoutesFile(
  file: string,
  carriers: CarrierTable,
  env: NodeJS.ProcessEnv = process.env,
): DeliveryConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsError(`${file}: cannot read the routes file (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  return readRoutes(Settings.parse(file, text), file, carriers, env);
}

export function readRoutes(top: Settings, file: string, table: CarrierTable, env: NodeJS.ProcessEnv): DeliveryConfig {
  top.only(['routes', 'carriers', 'default', 'delivery']);
  const routes = top.section('routes');
  if (routes.keys().length === 0) top.fail('routes', 'must name at least one route');
  const builders = new Map<string, BuiltRoute>();
  for (const name of routes.keys()) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name))
      routes.fail(name, 'route names are 1-64 characters: letters, digits, _ . -');
    const route = routes.section(name);
    if (isComposite(route)) continue;
    const kind = route.string('type');
    const reader = ROUTE_KINDS[kind];
    if (reader === undefined) throw route.error('type', `must be one of ${Object.keys(ROUTE_KINDS).join(', ')}`);
    builders.set(name, { kind, create: reader(route, name, env, file, table) });
  }
  const memberOf = readComposites(routes, builders);
  const mapping = readCarrierMapping(top, table, builders);
  const defaultRoute = top.has('default') ? top.string('default') : undefined;
  if (defaultRoute !== undefined && !builders.has(defaultRoute)) top.fail('default', `names no route in routes`);
  refuseMembers(top, mapping, defaultRoute, memberOf);
  const known = [...table.carriers.keys(), ...(table.allowAuto ? [AUTO_CARRIER] : [])];
  return {
    file,
    routes: [...builders]
      .filter(([name]) => !memberOf.has(name))
      .map(([name, built]) => ({
        name,
        kind: built.kind,
        carriers: selectionFor(name, mapping, defaultRoute),
        create: built.create,
      })),
    ...readDelivery(top.section('delivery')),
    unrouted: defaultRoute === undefined ? known.filter((code) => !mapping.has(code)) : [],
  };
}

/** Adds each failover / roundRobin entry to `builders`; returns member → the composite it belongs to. */
function readComposites(routes: Settings, builders: Map<string, BuiltRoute>): Map<string, string> {
  const plain = new Map(builders);
  const memberOf = new Map<string, string>();
  for (const name of routes.keys()) {
    const route = routes.section(name);
    if (!isComposite(route)) continue;
    const composite = readCompositeEntry(route, name, plain);
    for (const member of composite.members) {
      const other = memberOf.get(member);
      if (other !== undefined) route.fail(undefined, `shares member ${member} with ${other}: a route has one bind set`);
      memberOf.set(member, name);
    }
    builders.set(name, composite);
  }
  return memberOf;
}

/** A member is sent to through its composite only. */
function refuseMembers(
  top: Settings,
  mapping: ReadonlyMap<string, string>,
  defaultRoute: string | undefined,
  memberOf: ReadonlyMap<string, string>,
): void {
  for (const [code, route] of mapping) {
    const composite = memberOf.get(route);
    if (composite !== undefined)
      top.section('carriers').fail(code, `names ${route}, a member of ${composite}: name ${composite}`);
  }
  const composite = defaultRoute === undefined ? undefined : memberOf.get(defaultRoute);
  if (composite !== undefined)
    top.fail('default', `names ${defaultRoute}, a member of ${composite}: name ${composite}`);
}

function readCarrierMapping(
  top: Settings,
  table: CarrierTable,
  builders: ReadonlyMap<string, unknown>,
): Map<string, string> {
  const carriers = top.section('carriers');
  const mapping = new Map<string, string>();
  for (const code of carriers.keys()) {
    const canonical = code.toLowerCase();
    const known = table.carriers.has(canonical) || (canonical === AUTO_CARRIER && table.allowAuto);
    if (!known) carriers.fail(code, 'is not a carrier code of the carrier table');
    const route = carriers.string(code);
    if (!builders.has(route)) carriers.fail(code, `names route "${route}", which routes does not define`);
    mapping.set(canonical, route);
  }
  return mapping;
}

function selectionFor(name: string, mapping: ReadonlyMap<string, string>, defaultRoute?: string): CarrierSelection {
  const mine = [...mapping].filter(([, route]) => route === name).map(([code]) => code);
  if (name !== defaultRoute) return { only: mine.sort() };
  return {
    except: [...mapping]
      .filter(([, route]) => route !== name)
      .map(([code]) => code)
      .sort(),
  };
}

function readDelivery(delivery: Settings): Pick<DeliveryConfig, 'policy' | 'leaseMs' | 'stateDurability'> {
  delivery.only(['maxAttempts', 'backoff', 'validity', 'lease', 'stateDurability']);
  const backoff = delivery.section('backoff');
  backoff.only(['initial', 'max', 'jitter']);
  const policy: RetryPolicy = {
    maxAttempts: delivery.integer('maxAttempts', 1, 1_000, DEFAULT_RETRY_POLICY.maxAttempts),
    initialBackoffMs: backoff.duration('initial', 10, 24 * HOUR, DEFAULT_RETRY_POLICY.initialBackoffMs),
    maxBackoffMs: backoff.duration('max', 10, 7 * 24 * HOUR, DEFAULT_RETRY_POLICY.maxBackoffMs),
    jitter: backoff.number('jitter', 0, 1, DEFAULT_RETRY_POLICY.jitter),
    validityMs: delivery.duration('validity', 1_000, 30 * 24 * HOUR, DEFAULT_RETRY_POLICY.validityMs),
  };
  if (policy.maxBackoffMs < policy.initialBackoffMs) backoff.fail('max', 'must not be shorter than initial');
  return {
    policy,
    leaseMs: delivery.duration('lease', 1_000, HOUR, 60_000),
    stateDurability: delivery.oneOf('stateDurability', ['full', 'normal'], 'normal'),
  };
}
