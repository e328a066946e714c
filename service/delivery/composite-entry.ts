/**
 * Routes-file entries made of other routes (see docs/delivery.md, "Failover and round robin"):
 *   backup-pair: { failover: [primary, backup], failoverAfter: 2 }
 *   spread:      { roundRobin: [smsc-a, smsc-b] }
 * The members are routes of the file with a `type` (not other composites); a member is sent to
 * only through its composite, so carriers and default must name the composite, not the member.
 */
import { createCompositeRoute } from './composite-route.js';
import type { Route } from './route.js';
import type { Settings } from './settings.js';

export const COMPOSITE_KEYS = ['failover', 'roundRobin'] as const;

export interface BuiltRoute {
  readonly kind: string;
  readonly create: () => Route;
}

/** True when the entry is a composite (names its members instead of a `type`). */
export function isComposite(route: Settings): boolean {
  return COMPOSITE_KEYS.some((key) => route.has(key));
}

/** The composite entry `name`: how to build it, and its members' names. */
export function readCompositeEntry(
  route: Settings,
  name: string,
  plain: ReadonlyMap<string, BuiltRoute>,
): BuiltRoute & { readonly members: readonly string[] } {
  const kind = route.has('failover') ? 'failover' : 'roundRobin';
  route.only(kind === 'failover' ? ['failover', 'failoverAfter'] : ['roundRobin']);
  const members = route.names(kind, 2);
  for (const member of members) {
    if (member === name) route.fail(kind, `cannot name the route itself`);
    if (!plain.has(member)) route.fail(kind, `names "${member}", which is not a route of routes with a type`);
  }
  const failoverAfter = kind === 'failover' ? route.integer('failoverAfter', 1, 1_000, 2) : 1;
  const builders = members.map((member) => plain.get(member) as BuiltRoute);
  return {
    kind,
    members,
    create: () =>
      createCompositeRoute(
        name,
        builders.map((builder) => builder.create()),
        { kind, failoverAfter },
      ),
  };
}
