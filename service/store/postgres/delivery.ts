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
import type { Receipt } from '../records.js';
import type { ClaimedMessage, ClaimRequest, DeliveryChange } from '../delivery.js';
import type { Encoding } from '../../segments.js';
import type { Queryable } from './connect.js';

interface ClaimedRecord {
  id: string;
  created_at: number;
  recipient: string;
  carrier: string;
  message: string;
  encoding: Encoding;
  segments: number;
  port: number | null;
  attempts: number;
  possible_duplicate: boolean;
}

const EVENT_COLUMNS = 'message_id, at, state, attempt, route, smsc_id, code, text';

export async function claim(db: Queryable, request: ClaimRequest): Promise<ClaimedMessage[]> {
  const only = 'only' in request.carriers;
  const list = only
    ? (request.carriers as { only: readonly string[] }).only
    : (request.carriers as { except: readonly string[] }).except;
  if (only && list.length === 0) return [];
  const filter = only ? 'carrier = ANY($2::text[])' : 'carrier <> ALL($2::text[])';
  const { rows } = await db.query<ClaimedRecord>(
    `WITH picked AS (
       SELECT id FROM outbox WHERE state = 'queued' AND next_attempt_at <= $1 AND ${filter}
       ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE outbox o SET state = 'sending', attempts = o.attempts + 1, route = $4, lease_owner = $5,
         lease_until = $6, updated_at = $1
       FROM picked WHERE o.id = picked.id AND o.state = 'queued'
       RETURNING o.id, o.created_at, o.recipient, o.carrier, o.message, o.encoding, o.segments, o.port, o.attempts,
         o.possible_duplicate),
     logged AS (
       INSERT INTO outbox_events (${EVENT_COLUMNS})
       SELECT id, $1, 'sending', attempts, $4, NULL, NULL, NULL FROM claimed ORDER BY id)
     SELECT * FROM claimed ORDER BY id`,
    [request.now, list, Math.max(0, Math.floor(request.limit)), request.route, request.owner, request.leaseUntil],
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    recipient: row.recipient,
    carrier: row.carrier,
    text: row.message,
    encoding: row.encoding,
    segments: row.segments,
    port: row.port,
    attempt: row.attempts,
    possibleDuplicate: row.possible_duplicate,
  }));
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
       SELECT id FROM outbox WHERE state = 'queued' AND created_at < $1 FOR UPDATE SKIP LOCKED),
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
    [createdBefore, now],
  );
  return rows[0]?.n ?? 0;
}

/** Applies the batch in order on `db` (one connection inside a transaction). */
export async function applyChanges(db: Queryable, changes: readonly DeliveryChange[]): Promise<boolean[]> {
  const results: boolean[] = [];
  for (const change of changes)
    results.push(change.kind === 'receipt' ? await receipt(db, change) : await owned(db, change));
  return results;
}

type OwnedChange = Exclude<DeliveryChange, { kind: 'receipt' }>;

const OWNED = `id = $1 AND state = 'sending' AND lease_owner = $2`;

/**
 * One round trip per change: the owner-guarded UPDATE and its history event in one statement
 * (the event is written only if the UPDATE changed the row). `event` lists the event's columns
 * after message_id as SQL over the statement's parameters.
 */
async function changedWithEvent(
  db: Queryable,
  update: string,
  event: string,
  values: readonly unknown[],
): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `WITH changed AS (${update} RETURNING id),
     logged AS (INSERT INTO outbox_events (${EVENT_COLUMNS}) SELECT id, ${event} FROM changed)
     SELECT count(*) AS n FROM changed`,
    values,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** accepted / requeue / final / released: applied only while the change's owner still holds the message. */
async function owned(db: Queryable, change: OwnedChange): Promise<boolean> {
  const { id, owner, at, attempt, route } = change;
  switch (change.kind) {
    case 'accepted': {
      // Parts first (their rows are what receipts look for), then the message, in one statement.
      const lastPart = new Map<string, number>();
      for (const [index, peerId] of change.peerIds.entries()) lastPart.set(peerId, index + 1);
      const { rows } = await db.query<{ n: number }>(
        `WITH changed AS (
           UPDATE outbox SET state = 'accepted', smsc_id = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL,
             error_code = NULL, error_text = NULL WHERE ${OWNED} RETURNING id),
         parts AS (
           INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
           SELECT $5, t.peer_id, changed.id, t.part, $6, NULL
           FROM changed, unnest($7::text[], $8::integer[]) AS t(peer_id, part)
           ON CONFLICT (route, peer_id) DO UPDATE SET message_id = EXCLUDED.message_id, part = EXCLUDED.part,
             attempt = EXCLUDED.attempt, state = NULL),
         logged AS (
           INSERT INTO outbox_events (${EVENT_COLUMNS})
           SELECT id, $4, 'accepted', $6, $5, $3, NULL, NULL FROM changed)
         SELECT count(*) AS n FROM changed`,
        [id, owner, change.peerIds[0] ?? null, at, route, attempt, [...lastPart.keys()], [...lastPart.values()]],
      );
      if ((rows[0]?.n ?? 0) === 0) return false;
      if (change.peerIds.length > 0) await applyEarlyReceipts(db, route, change.peerIds);
      return true;
    }
    case 'requeue':
      return changedWithEvent(
        db,
        `UPDATE outbox SET state = 'queued', next_attempt_at = $3, updated_at = $4, lease_owner = NULL,
           lease_until = NULL, error_code = $5, error_text = $6, possible_duplicate = possible_duplicate OR $7
         WHERE ${OWNED}`,
        `$4, 'queued', $8, $9, NULL, $5, $6`,
        [id, owner, change.nextAttemptAt, at, change.code, change.text, change.maybeSent, attempt, route],
      );
    case 'final':
      return changedWithEvent(
        db,
        `UPDATE outbox SET state = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL, error_code = $5,
           error_text = $6 WHERE ${OWNED}`,
        `$4, $3, $7, $8, NULL, $5, $6`,
        [id, owner, change.state, at, change.code, change.text, attempt, route],
      );
    case 'released':
      return changedWithEvent(
        db,
        `UPDATE outbox SET state = 'queued', attempts = attempts - 1, updated_at = $3, lease_owner = NULL,
           lease_until = NULL WHERE ${OWNED}`,
        `$3, 'queued', $4, $5, NULL, NULL, 'returned to the queue unsent at shutdown'`,
        [id, owner, at, attempt - 1, route],
      );
  }
}

/**
 * A receipt settles its part; the message takes the part's state when that is a failure, and
 * `delivered` once every part of the same attempt is delivered. Only an `accepted` message
 * changes (a late receipt for an attempt that was since retried updates its part only).
 *
 * Three round trips: the peer-id lock; finding the part while locking its message row (so
 * receipts for other parts of the message wait here); then, in one statement with a snapshot
 * taken after that lock, the part's state, the count of the attempt's other parts not yet
 * delivered, the message's state and its event.
 */
async function receipt(db: Queryable, change: Extract<DeliveryChange, { kind: 'receipt' }>): Promise<boolean> {
  const { route, at, receipt } = change;
  await lockPeerIds(db, route, [receipt.peerId]);
  const part = await db.query<{ message_id: string }>(
    `SELECT p.message_id FROM outbox_parts p JOIN outbox o ON o.id = p.message_id
     WHERE p.route = $1 AND p.peer_id = $2 FOR UPDATE OF o`,
    [route, receipt.peerId],
  );
  if (part.rows[0] === undefined) {
    await db.query(
      `INSERT INTO outbox_early_receipts (route, peer_id, state, code, text, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (route, peer_id) DO UPDATE SET state = EXCLUDED.state, code = EXCLUDED.code, text = EXCLUDED.text,
         at = EXCLUDED.at`,
      [route, receipt.peerId, receipt.state, receipt.code, receipt.text, at],
    );
    return false;
  }
  const failed = receipt.state !== 'delivered';
  await db.query(
    `WITH part AS (
       UPDATE outbox_parts SET state = $3 WHERE route = $1 AND peer_id = $2 RETURNING message_id, attempt),
     undelivered AS (
       SELECT count(*) AS n FROM outbox_parts p, part
       WHERE p.message_id = part.message_id AND p.attempt = part.attempt AND NOT (p.route = $1 AND p.peer_id = $2)
         AND (p.state IS NULL OR p.state <> 'delivered')),
     settled AS (
       UPDATE outbox o SET state = $3, updated_at = $4, error_code = $5, error_text = $6
       FROM part, undelivered
       WHERE o.id = part.message_id AND o.state = 'accepted' AND ($3 <> 'delivered' OR undelivered.n = 0)
       RETURNING o.id, part.attempt)
     INSERT INTO outbox_events (${EVENT_COLUMNS})
     SELECT id, $4, $3, attempt, $1, $2, $7, $8 FROM settled`,
    [
      route,
      receipt.peerId,
      receipt.state,
      at,
      failed ? receipt.code : null,
      failed ? receipt.text : null,
      receipt.code,
      receipt.text,
    ],
  );
  return true;
}

/** Serialises a receipt with the `accepted` that records its part (see the header); sorted, so two batches cannot deadlock on them. */
async function lockPeerIds(db: Queryable, route: string, peerIds: readonly string[]): Promise<void> {
  await db.query(
    `SELECT pg_advisory_xact_lock(hashtextextended($1 || ' ' || peer_id, 0))
     FROM (SELECT DISTINCT unnest($2::text[]) AS peer_id ORDER BY 1) AS ids`,
    [route, peerIds],
  );
}

interface EarlyReceipt {
  peer_id: string;
  state: Receipt['state'];
  code: string;
  text: string;
  at: number;
}

/** Receipts that came before this `accepted` was recorded, applied now that the parts exist. */
async function applyEarlyReceipts(db: Queryable, route: string, peerIds: readonly string[]): Promise<void> {
  await lockPeerIds(db, route, peerIds);
  const early = await db.query<EarlyReceipt>(
    `DELETE FROM outbox_early_receipts WHERE route = $1 AND peer_id = ANY($2::text[])
     RETURNING peer_id, state, code, text, at`,
    [route, peerIds],
  );
  const byPart = [...early.rows].sort((a, b) => peerIds.indexOf(a.peer_id) - peerIds.indexOf(b.peer_id));
  for (const row of byPart)
    await receipt(db, {
      kind: 'receipt',
      route,
      at: row.at,
      receipt: { peerId: row.peer_id, state: row.state, code: row.code, text: row.text },
    });
}

/** Early receipts no `accepted` claimed within an hour (their submitter died before recording it). */
export const EARLY_RECEIPT_KEEP_MS = 60 * 60_000;

export async function purgeEarlyReceipts(db: Queryable, now: number): Promise<void> {
  await db.query('DELETE FROM outbox_early_receipts WHERE at < $1', [now - EARLY_RECEIPT_KEEP_MS]);
}
