/**
 * The delivery engine's statements on PostgreSQL, with the meaning of ../sqlite/delivery.ts
 * (read that first: same states, same events, same owner checks), made safe for several
 * instances on one database:
 *
 * - claim takes due queued rows with `FOR UPDATE SKIP LOCKED`: two instances claiming at once
 *   lock disjoint rows, and neither waits for the other. Claim, its `sending` events and the
 *   state change are one statement, so one transaction.
 * - every owned change keeps SQLite's guard (`state = 'sending' AND lease_owner = owner`) in its
 *   UPDATE: if another instance took the message back after the lease ran out, the late answer
 *   of the old owner changes nothing (false) — the row lock makes the guard and the write atomic.
 * - a receipt locks its message row before counting the message's undelivered parts, so two
 *   receipts for two parts of one message arriving on two instances at once cannot both see the
 *   other part as undelivered (READ COMMITTED gives each statement a fresh snapshot after the lock).
 * - a receipt whose part is not recorded yet (it reached another instance's bind before the
 *   submitting instance committed `accepted`) is kept in outbox_early_receipts and applied by
 *   that `accepted`. Both sides take a transaction-scoped advisory lock on (route, peer id)
 *   first, so one of them always sees the other's row: the receipt is never lost in between.
 */
import type { ClaimedMessage, ClaimRequest, DeliveryChange } from '../delivery.js';
import type { Queryable } from './connect.js';
import { firstIdAt } from '../ids.js';
import { type ClaimedColumns, claimedFromRow } from '../rows.js';

type ClaimedRecord = ClaimedColumns;

const EVENT_COLUMNS = 'message_id, at, state, attempt, route, smsc_id, code, text';

/** Claims due queued messages from id `floor` up ('' for the whole queue: ./claim-floor.ts says why). */
export async function claim(db: Queryable, request: ClaimRequest, floor = ''): Promise<ClaimedMessage[]> {
  const only = 'only' in request.carriers;
  const list = only
    ? (request.carriers as { only: readonly string[] }).only
    : (request.carriers as { except: readonly string[] }).except;
  if (only && list.length === 0) return [];
  const filter = only ? 'carrier_code = ANY($2::text[])' : 'carrier_code <> ALL($2::text[])';
  const { rows } = await db.query<ClaimedRecord>({
    // Prepared once per connection and carrier filter: a claim is parsed once (and planned per
    // call: the delivery pool's plan_cache_mode). The rows picked are updated by id, and their
    // guard is written so that no index serves it (as in ./apply-function.ts KEY_LOOKUPS): as
    // `state = 'queued'` the planner could find them through a state index, reading every
    // entry of that state since the last VACUUM, dead ones included.
    name: only ? 'smskit_claim_only' : 'smskit_claim_except',
    text: `WITH picked AS (
       SELECT id FROM outbox WHERE state = 'queued' AND id >= $7 AND next_attempt_at <= $1 AND ${filter}
       ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE outbox o SET state = 'sending', attempts = o.attempts + 1, route = $4, lease_owner = $5,
         lease_until = $6, updated_at = $1
       WHERE o.id = ANY(ARRAY(SELECT id FROM picked)) AND (o.state = 'queued') IS TRUE
       RETURNING o.id, o.created_at, o.smsto, o.carrier_code, o.smsmsg, o.encoding, o.segments, o.port, o.attempts,
         o.possible_duplicate),
     logged AS (
       INSERT INTO outbox_events (${EVENT_COLUMNS})
       SELECT id, $1, 'sending', attempts, $4, NULL, NULL, NULL FROM claimed ORDER BY id)
     SELECT * FROM claimed ORDER BY id`,
    values: [
      request.now,
      list,
      Math.max(0, Math.floor(request.limit)),
      request.route,
      request.owner,
      request.leaseUntil,
      floor,
    ],
  });
  return rows.map(claimedFromRow);
}

export async function renewLeases(db: Queryable, owner: string, leaseUntil: number): Promise<void> {
  await db.query(`UPDATE outbox SET lease_until = $1 WHERE state = 'sending' AND lease_owner = $2`, [
    leaseUntil,
    owner,
  ]);
}

export async function recoverExpiredLeases(db: Queryable, now: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH stale AS (
       SELECT id FROM outbox WHERE state = 'sending' AND lease_until < $1 FOR UPDATE SKIP LOCKED),
     requeued AS (
       UPDATE outbox o SET state = 'queued', possible_duplicate = true, lease_owner = NULL, lease_until = NULL,
         next_attempt_at = $1, updated_at = $1, error_code = 'LEASE_EXPIRED',
         error_text = 'its delivery worker stopped while sending it'
       FROM stale WHERE o.id = stale.id AND o.state = 'sending'
       RETURNING o.id, o.attempts, o.route),
     logged AS (
       INSERT INTO outbox_events (${EVENT_COLUMNS})
       SELECT id, $1, 'queued', attempts, route, NULL, 'LEASE_EXPIRED',
         'taken back after its delivery worker stopped while sending it; a resend may be a duplicate'
       FROM requeued ORDER BY id)
     SELECT count(*) AS n FROM requeued`,
    [now],
  );
  return rows[0]?.n ?? 0;
}

export async function expireOverdue(db: Queryable, createdBefore: number, now: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH overdue AS (
       SELECT id FROM outbox WHERE state = 'queued' AND id < $3 AND created_at < $1 FOR UPDATE SKIP LOCKED),
     expired AS (
       UPDATE outbox o SET state = 'expired', updated_at = $2, error_code = 'VALIDITY',
         error_text = 'not sent within its validity period'
       FROM overdue WHERE o.id = overdue.id AND o.state = 'queued'
       RETURNING o.id, o.attempts, o.route),
     logged AS (
       INSERT INTO outbox_events (${EVENT_COLUMNS})
       SELECT id, $2, 'expired', attempts, route, NULL, 'VALIDITY', 'not sent within its validity period'
       FROM expired ORDER BY id)
     SELECT count(*) AS n FROM expired`,
    // An id starts with its creation time: the bound makes the index on queued ids find the
    // overdue alone, where created_at alone reads every queued message.
    [createdBefore, now, firstIdAt(createdBefore)],
  );
  return rows[0]?.n ?? 0;
}

type OwnedChange = Exclude<DeliveryChange, { kind: 'receipt' }>;

type ReceiptChange = Extract<DeliveryChange, { kind: 'receipt' }>;
type Column<C> = (change: C, ord: number) => unknown;

/** The apply function's owned-change columns, in its parameter order (ord: the change's position). */
const OWNED_COLUMNS: ReadonlyArray<Column<OwnedChange>> = [
  (_, ord) => ord,
  (c) => c.kind,
  (c) => c.id,
  (c) => c.owner,
  (c) => c.at,
  (c) => c.attempt,
  (c) => c.route,
  (c) => (c.kind === 'final' ? c.state : null),
  (c) => (c.kind === 'requeue' ? c.nextAttemptAt : null),
  (c) => (c.kind === 'requeue' || c.kind === 'final' ? c.code : null),
  (c) => (c.kind === 'requeue' || c.kind === 'final' ? c.text : null),
  (c) => c.kind === 'requeue' && c.maybeSent,
  (c) => (c.kind === 'accepted' ? (c.peerIds[0] ?? null) : null),
];

const RECEIPT_COLUMNS: ReadonlyArray<Column<ReceiptChange>> = [
  (_, ord) => ord,
  (c) => c.route,
  (c) => c.receipt.peerId,
  (c) => c.receipt.state,
  (c) => c.receipt.code,
  (c) => c.receipt.text,
  (c) => c.at,
];

/** The batch as the apply function's column arrays (./apply-function.ts): owned changes, parts, receipts. */
function batchColumns(changes: readonly DeliveryChange[]): unknown[][] {
  const owned: Array<[OwnedChange, number]> = [];
  const receipts: Array<[ReceiptChange, number]> = [];
  const parts: [number[], string[], number[]] = [[], [], []];
  changes.forEach((change, ord) => {
    if (change.kind === 'receipt') receipts.push([change, ord]);
    else {
      owned.push([change, ord]);
      if (change.kind === 'accepted') addParts(parts, ord, change.peerIds);
    }
  });
  return [
    ...OWNED_COLUMNS.map((column) => owned.map(([change, ord]) => column(change, ord))),
    ...parts,
    ...RECEIPT_COLUMNS.map((column) => receipts.map(([change, ord]) => column(change, ord))),
  ];
}

/** An accepted change's parts (position, peer id, part number): a peer id named twice keeps its last part. */
function addParts(parts: [number[], string[], number[]], ord: number, peerIds: readonly string[]): void {
  const lastPart = new Map<string, number>();
  for (const [index, peerId] of peerIds.entries()) lastPart.set(peerId, index + 1);
  for (const [peer, part] of lastPart) {
    parts[0].push(ord);
    parts[1].push(peer);
    parts[2].push(part);
  }
}

const APPLY_CALL = `SELECT smskit_apply_delivery($1::integer[], $2::text[], $3::text[], $4::text[], $5::bigint[],
  $6::integer[], $7::text[], $8::text[], $9::bigint[], $10::text[], $11::text[], $12::boolean[], $13::text[],
  $14::integer[], $15::text[], $16::integer[], $17::integer[], $18::text[], $19::text[], $20::text[], $21::text[],
  $22::text[], $23::bigint[]) AS ord`;

/**
 * Applies the batch in one statement, so one round trip and one transaction of its own (or part
 * of the caller's, when `db` is a connection inside one): the apply function installed by the
 * migrations, prepared once per connection. Returns, per change, whether it applied.
 */
export async function applyChanges(db: Queryable, changes: readonly DeliveryChange[]): Promise<boolean[]> {
  const { rows } = await db.query<{ ord: number }>({
    name: 'smskit_apply_delivery',
    text: APPLY_CALL,
    values: batchColumns(changes),
  });
  const applied = changes.map(() => false);
  for (const row of rows) applied[row.ord] = true;
  return applied;
}

/** Early receipts no `accepted` claimed within an hour (their submitter died before recording it). */
export const EARLY_RECEIPT_KEEP_MS = 60 * 60_000;

export async function purgeEarlyReceipts(db: Queryable, now: number): Promise<void> {
  await db.query('DELETE FROM outbox_early_receipts WHERE at < $1', [now - EARLY_RECEIPT_KEEP_MS]);
}
