/**
 * The callback guarantee, checked from both ends: the outbox history (every state change the store
 * recorded, with its seq) against what the receiver took in (verified callbacks only). Every change
 * of every message must have arrived at least once with its state, and a message's callbacks must
 * arrive in history order (repeats of the same event are allowed: at least once; an earlier event
 * after a later one is not).
 */
import type { HistoryChange, Store } from '../../service/store/index.js';
import type { ReceivedCallback } from '../helpers/callback-receiver.js';

export interface CallbackAudit {
  /** Requests whose signature did not verify. */
  readonly unverified: number;
  /** History changes of the messages that never arrived, as "id seq state". */
  readonly missing: string[];
  /** Arrivals whose state differs from the history's for that seq. */
  readonly wrongState: string[];
  /** Arrivals that came after a later event of the same message. */
  readonly outOfOrder: string[];
  readonly changes: number;
  /** Arrivals beyond the first of each event (the at-least-once repeats). */
  readonly repeats: number;
}

interface Arrived {
  readonly messageId: string;
  readonly sequence: number;
  readonly state: string;
}

async function historyOf(store: Store, ids: ReadonlySet<string>): Promise<HistoryChange[]> {
  const changes: HistoryChange[] = [];
  for (let after = 0; ; ) {
    const page = await store.historyAfter(after, 5_000);
    if (page.length === 0) return changes;
    for (const change of page) if (ids.has(change.messageId)) changes.push(change);
    after = page[page.length - 1]!.seq;
  }
}

export async function auditCallbacks(
  store: Store,
  messageIds: ReadonlySet<string>,
  received: readonly ReceivedCallback[],
): Promise<CallbackAudit> {
  const changes = await historyOf(store, messageIds);
  const arrived = received.filter((r) => r.verified).map((r) => (JSON.parse(r.body) as { data: Arrived }).data);
  const bySeq = new Map<number, Arrived>();
  const wrongState: string[] = [];
  const outOfOrder: string[] = [];
  const lastSeq = new Map<string, number>();
  let repeats = 0;
  for (const callback of arrived) {
    if (bySeq.has(callback.sequence)) repeats++;
    else bySeq.set(callback.sequence, callback);
    const before = lastSeq.get(callback.messageId) ?? 0;
    if (callback.sequence < before) outOfOrder.push(`${callback.messageId} ${callback.sequence} after ${before}`);
    else lastSeq.set(callback.messageId, callback.sequence);
  }
  const missing: string[] = [];
  for (const change of changes) {
    const got = bySeq.get(change.seq);
    if (got === undefined) missing.push(`${change.messageId} ${change.seq} ${change.state}`);
    else if (got.state !== change.state || got.messageId !== change.messageId)
      wrongState.push(`${change.messageId} ${change.seq}: history ${change.state}, callback ${got.state}`);
  }
  const unverified = received.length - arrived.length;
  return { unverified, missing, wrongState, outOfOrder, changes: changes.length, repeats };
}
