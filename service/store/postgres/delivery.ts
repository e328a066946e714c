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
import type { Receipt } from '../../delivery/route.js';
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

async function event(
  db: Queryable,
  values: [
    id: string,
    at: number,
    state: string,
    attempt: number,
    route: string | null,
    smscId: string | null,
    code: string | null,
    text: string | null,
  ],
): Promise<void> {
  await db.query(`INSERT INTO outbox_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, values);
}

async function changed(db: Queryable, sql: string, values: readonly unknown[]): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `WITH changed AS (${sql} RETURNING 1) SELECT count(*) AS n FROM changed`,
    values,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/** accepted / requeue / final / released: applied only while the change's owner still holds the message. */
async function owned(db: Queryable, change: OwnedChange): Promise<boolean> {
  const { id, owner, at, attempt, route } = change;
  switch (change.kind) {
    case 'accepted': {
      const smscId = change.peerIds[0] ?? null;
      const ok = await changed(
        db,
        `UPDATE outbox SET state = 'accepted', smsc_id = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL,
           error_code = NULL, error_text = NULL WHERE ${OWNED}`,
        [id, owner, smscId, at],
      );
      if (!ok) return false;
      await insertParts(db, route, id, attempt, change.peerIds);
      await event(db, [id, at, 'accepted', attempt, route, smscId, null, null]);
      await applyEarlyReceipts(db, route, change.peerIds);
      return true;
    }
    case 'requeue': {
      const ok = await changed(
        db,
        `UPDATE outbox SET state = 'queued', next_attempt_at = $3, updated_at = $4, lease_owner = NULL,
           lease_until = NULL, error_code = $5, error_text = $6, possible_duplicate = possible_duplicate OR $7
         WHERE ${OWNED}`,
        [id, owner, change.nextAttemptAt, at, change.code, change.text, change.maybeSent],
      );
      if (ok) await event(db, [id, at, 'queued', attempt, route, null, change.code, change.text]);
      return ok;
    }
    case 'final': {
      const ok = await changed(
        db,
        `UPDATE outbox SET state = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL, error_code = $5,
           error_text = $6 WHERE ${OWNED}`,
        [id, owner, change.state, at, change.code, change.text],
      );
      if (ok) await event(db, [id, at, change.state, attempt, route, null, change.code, change.text]);
      return ok;
    }
    case 'released': {
      const ok = await changed(
        db,
        `UPDATE outbox SET state = 'queued', attempts = attempts - 1, updated_at = $3, lease_owner = NULL,
           lease_until = NULL WHERE ${OWNED}`,
        [id, owner, at],
      );
      if (ok)
        await event(db, [id, at, 'queued', attempt - 1, route, null, null, 'returned to the queue unsent at shutdown']);
      return ok;
    }
  }
}

/** One row per part; a peer id seen again replaces the older row (SQLite's INSERT OR REPLACE). */
async function insertParts(
  db: Queryable,
  route: string,
  id: string,
  attempt: number,
  peerIds: readonly string[],
): Promise<void> {
  if (peerIds.length === 0) return;
  const lastPart = new Map<string, number>();
  for (const [index, peerId] of peerIds.entries()) lastPart.set(peerId, index + 1);
  await db.query(
    `INSERT INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
     SELECT $1, peer_id, $2, part, $3, NULL FROM unnest($4::text[], $5::integer[]) AS t(peer_id, part)
     ON CONFLICT (route, peer_id) DO UPDATE SET message_id = EXCLUDED.message_id, part = EXCLUDED.part,
       attempt = EXCLUDED.attempt, state = NULL`,
    [route, id, attempt, [...lastPart.keys()], [...lastPart.values()]],
  );
}

/**
 * A receipt settles its part; the message takes the part's state when that is a failure, and
 * `delivered` once every part of the same attempt is delivered. Only an `accepted` message
 * changes (a late receipt for an attempt that was since retried updates its part only).
 */
async function receipt(db: Queryable, change: Extract<DeliveryChange, { kind: 'receipt' }>): Promise<boolean> {
  const { route, at, receipt } = change;
  await lockPeerIds(db, route, [receipt.peerId]);
  const part = await db.query<{ message_id: string; attempt: number }>(
    'SELECT message_id, attempt FROM outbox_parts WHERE route = $1 AND peer_id = $2',
    [route, receipt.peerId],
  );
  const found = part.rows[0];
  if (found === undefined) {
    await db.query(
      `INSERT INTO outbox_early_receipts (route, peer_id, state, code, text, at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (route, peer_id) DO UPDATE SET state = EXCLUDED.state, code = EXCLUDED.code, text = EXCLUDED.text,
         at = EXCLUDED.at`,
      [route, receipt.peerId, receipt.state, receipt.code, receipt.text, at],
    );
    return false;
  }
  await db.query('SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE', [found.message_id]);
  await db.query('UPDATE outbox_parts SET state = $1 WHERE route = $2 AND peer_id = $3', [
    receipt.state,
    route,
    receipt.peerId,
  ]);
  if (receipt.state === 'delivered') {
    const open = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM outbox_parts WHERE message_id = $1 AND attempt = $2
         AND (state IS NULL OR state <> 'delivered')`,
      [found.message_id, found.attempt],
    );
    if ((open.rows[0]?.n ?? 0) > 0) return true;
  }
  const failed = receipt.state !== 'delivered';
  const settled = await changed(
    db,
    `UPDATE outbox SET state = $2, updated_at = $3, error_code = $4, error_text = $5 WHERE id = $1 AND state = 'accepted'`,
    [found.message_id, receipt.state, at, failed ? receipt.code : null, failed ? receipt.text : null],
  );
  if (settled)
    await event(db, [
      found.message_id,
      at,
      receipt.state,
      found.attempt,
      route,
      receipt.peerId,
      receipt.code,
      receipt.text,
    ]);
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
