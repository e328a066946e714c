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

/**
 * The sides of round `round` in the order they run: every round begins with another side, and
 * every other round runs them backwards, so no side always runs first, nor always right after the
 * same neighbour (identical servers read up to 17% apart when one always followed the other).
 */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const order = rotated(items, Math.floor(round / 2) + (round % 2));
  return round % 2 === 0 ? order : order.reverse();
}
