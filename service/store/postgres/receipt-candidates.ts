/**
 * Receipts whose id names no part as written, tried again under the other forms they carry
 * (`Receipt.alsoTry`: an SMSC that writes receipt ids in another base than its submit answers).
 * Only the receipts that matched nothing cost anything more: one query finds which of their forms
 * name a part, and those receipts are applied again under that form before the call answers (so
 * before the SMSC is told the receipt is taken); the early-receipt row the first try kept under
 * the unmatched id is removed first.
 */
import type { DeliveryChange } from '../delivery.js';
import type { Queryable } from './connect.js';

type ReceiptChange = Extract<DeliveryChange, { kind: 'receipt' }>;
type Apply = (db: Queryable, changes: readonly DeliveryChange[]) => Promise<boolean[]>;

export async function applyTryingOtherIds(
  db: Queryable,
  changes: readonly DeliveryChange[],
  apply: Apply,
): Promise<boolean[]> {
  const applied = await apply(db, changes);
  const unmatched = changes
    .map((change, index) => ({ change, index }))
    .filter(
      (entry): entry is { change: ReceiptChange; index: number } =>
        entry.change.kind === 'receipt' &&
        applied[entry.index] === false &&
        (entry.change.receipt.alsoTry?.length ?? 0) > 0,
    );
  if (unmatched.length === 0) return applied;
  const routes = unmatched.flatMap(({ change }) => (change.receipt.alsoTry ?? []).map(() => change.route));
  const ids = unmatched.flatMap(({ change }) => [...(change.receipt.alsoTry ?? [])]);
  const { rows } = await db.query<{ route: string; peer_id: string }>(
    `SELECT p.route, p.peer_id FROM outbox_parts p JOIN unnest($1::text[], $2::text[]) AS t(route, peer_id)
       ON p.route = t.route AND p.peer_id = t.peer_id`,
    [routes, ids],
  );
  const known = new Set(rows.map((row) => `${row.route} ${row.peer_id}`));
  const again: Array<{ change: ReceiptChange; index: number; unmatchedId: string }> = [];
  for (const { change, index } of unmatched) {
    const peerId = change.receipt.alsoTry?.find((id) => known.has(`${change.route} ${id}`));
    if (peerId === undefined) continue;
    again.push({
      change: { ...change, receipt: { ...change.receipt, peerId, alsoTry: [] } },
      index,
      unmatchedId: change.receipt.peerId,
    });
  }
  if (again.length === 0) return applied;
  await db.query(
    `DELETE FROM outbox_early_receipts e USING unnest($1::text[], $2::text[]) AS t(route, peer_id)
     WHERE e.route = t.route AND e.peer_id = t.peer_id`,
    [again.map((entry) => entry.change.route), again.map((entry) => entry.unmatchedId)],
  );
  const results = await apply(
    db,
    again.map((entry) => entry.change),
  );
  const merged = [...applied];
  again.forEach((entry, at) => {
    merged[entry.index] = results[at] ?? false;
  });
  return merged;
}
