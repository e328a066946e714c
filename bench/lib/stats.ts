export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * `items` starting at index `by` (modulo its length), the rest in order after it: rounds that
 * each begin with another side, so no side always runs first.
 */
export function rotated<T>(items: readonly T[], by: number): T[] {
  const at = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(at), ...items.slice(0, at)];
}
