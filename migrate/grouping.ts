/**
 * Differences grouped as the reports show them: by operation, binding, kind and path (sibling
 * indices taken out), each group with its count, its exchange ids and one example; differences
 * at a path the reference varied on are counted as noise instead.
 */
import { type Difference, groupPath } from './compare.js';
import type { ExchangeBinding } from './classify.js';
import type { DifferenceGroup, Example, NoiseGroup } from './types.js';

const MAX_LISTED = 1000;

export interface ComparedExchange {
  readonly id: number;
  readonly operation: string;
  readonly binding: ExchangeBinding;
  readonly differences: readonly Difference[];
  /** The example a new group shows, made only for the first exchange of each group. */
  readonly example: (difference: Difference) => Example;
}

export interface Grouped {
  readonly groups: DifferenceGroup[];
  readonly noise: NoiseGroup[];
  /** Exchanges without a difference that counts, and with one. */
  readonly matched: number;
  readonly differing: number;
}

export function groupDifferences(
  compared: readonly ComparedExchange[],
  noiseKeys: ReadonlySet<string>,
  baseline: ReadonlySet<string> | undefined,
): Grouped {
  const groups = new Map<string, DifferenceGroup>();
  const noise = new Map<string, NoiseGroup>();
  let matched = 0;
  let differing = 0;
  for (const o of compared) {
    const { operation, binding } = o;
    let real = 0;
    for (const d of o.differences) {
      const path = groupPath(d.path);
      const where = `${operation} ${binding} ${path}`;
      if (noiseKeys.has(where)) {
        noise.set(where, { operation, binding, path, count: (noise.get(where)?.count ?? 0) + 1 });
        continue;
      }
      real++;
      const key = `${operation} ${binding} ${d.kind} ${path}`;
      const had = groups.get(key);
      if (had !== undefined) {
        const listed = had.exchanges.length >= MAX_LISTED || had.exchanges.at(-1) === o.id;
        groups.set(key, { ...had, count: had.count + 1, exchanges: listed ? had.exchanges : [...had.exchanges, o.id] });
        continue;
      }
      const known =
        baseline === undefined ? {} : { baseline: baseline.has(key) ? ('known' as const) : ('new' as const) };
      groups.set(key, {
        key,
        operation,
        binding,
        kind: d.kind,
        path,
        count: 1,
        exchanges: [o.id],
        ...known,
        example: o.example(d),
      });
    }
    if (real === 0) matched++;
    else differing++;
  }
  // Noise paths the reference varied on but the target matched anyway are worth showing too.
  for (const key of noiseKeys) {
    if (noise.has(key)) continue;
    const [operation, binding, ...rest] = key.split(' ');
    noise.set(key, { operation: operation!, binding: binding as ExchangeBinding, path: rest.join(' '), count: 0 });
  }
  const byName = (a: NoiseGroup, b: NoiseGroup): number =>
    `${a.operation} ${a.binding} ${a.path}`.localeCompare(`${b.operation} ${b.binding} ${b.path}`);
  return {
    groups: [...groups.values()].sort((a, b) => a.key.localeCompare(b.key)),
    noise: [...noise.values()].sort(byName),
    matched,
    differing,
  };
}
