/**
 * Compares two outlines (outline.ts) path by path: a value that changed, a path only one side
 * has, or children in another order. Paths a user ignores (globs, ignore.ts) are left out first,
 * with everything below them.
 */
import type { OutlineEntry } from './outline.js';

export type DifferenceKind = 'changed' | 'missing' | 'extra' | 'order';

export interface Difference {
  readonly kind: DifferenceKind;
  readonly path: string;
  /** What the recorded (or reference) answer has there; undefined for `extra`. */
  readonly want: string | undefined;
  /** What the target answered there; undefined for `missing`. */
  readonly got: string | undefined;
}

const parentOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '' : path.slice(0, slash);
};

export function compareOutlines(
  want: readonly OutlineEntry[],
  got: readonly OutlineEntry[],
  ignored: (path: string) => boolean = () => false,
): Difference[] {
  const keep = (e: OutlineEntry): boolean => !ignored(e.path);
  const wanted = want.filter(keep);
  const gotten = got.filter(keep);
  const gotByPath = new Map(gotten.map((e) => [e.path, e]));
  const wantByPath = new Map(wanted.map((e) => [e.path, e]));
  const out: Difference[] = [];
  for (const w of wanted) {
    const g = gotByPath.get(w.path);
    if (g === undefined) out.push({ kind: 'missing', path: w.path, want: w.value, got: undefined });
    else if (g.value !== w.value) out.push({ kind: 'changed', path: w.path, want: w.value, got: g.value });
  }
  for (const g of gotten)
    if (!wantByPath.has(g.path)) out.push({ kind: 'extra', path: g.path, want: undefined, got: g.value });
  return [...out, ...orderDifferences(wanted, gotten, gotByPath)];
}

/** Children both sides have, in another order under the same parent (element order is part of the contract). */
function orderDifferences(
  wanted: readonly OutlineEntry[],
  gotten: readonly OutlineEntry[],
  gotByPath: ReadonlyMap<string, OutlineEntry>,
): Difference[] {
  const sequences = (entries: readonly OutlineEntry[], both: (path: string) => boolean): Map<string, string[]> => {
    const byParent = new Map<string, string[]>();
    for (const e of entries) {
      if (!e.path.startsWith('/') || !both(e.path)) continue;
      const parent = parentOf(e.path);
      byParent.set(parent, [...(byParent.get(parent) ?? []), e.path.slice(parent.length + 1)]);
    }
    return byParent;
  };
  const wantPaths = new Set(wanted.map((e) => e.path));
  const inBoth = (path: string): boolean => wantPaths.has(path) && gotByPath.has(path);
  const want = sequences(wanted, inBoth);
  const got = sequences(gotten, inBoth);
  const out: Difference[] = [];
  for (const [parent, names] of want) {
    const other = got.get(parent) ?? [];
    if (names.join(' ') !== other.join(' '))
      out.push({ kind: 'order', path: parent === '' ? '/' : parent, want: names.join(' '), got: other.join(' ') });
  }
  return out;
}

/** The path with sibling indices taken out, so repeats of one element group together. */
export function groupPath(path: string): string {
  return path.replace(/\[\d+\]/g, '');
}
