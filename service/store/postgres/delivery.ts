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
import type { Encoding } from '../../sms/segments.js';
import type { Queryable } from './connect.js';

interface ClaimedRecord {
  id: string;
  created_at: number;
  smsto: string;
  carrier_code: string;
  smsmsg: string;
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
  const filter = only ? 'carrier_code = ANY($2::text[])' : 'carrier_code <> ALL($2::text[])';
  const { rows } = await db.query<ClaimedRecord>(
    `WITH picked AS (
       SELECT id FROM outbox WHERE state = 'queued' AND next_attempt_at <= $1 AND ${filter}
       ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE outbox o SET state = 'sending', attempts = o.attempts + 1, route = $4, lease_owner = $5,
         lease_until = $6, updated_at = $1
       FROM picked WHERE o.id = picked.id AND o.state = 'queued'
       RETURNING o.id, o.created_at, o.smsto, o.carrier_code, o.smsmsg, o.encoding, o.segments, o.port, o.attempts,
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
    smsto: row.smsto,
    carrierCode: row.carrier_code,
    smsmsg: row.smsmsg,
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

/** One statement of a change, with its parameters. */
interface Step {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** A change as statements, and how their results say whether it applied. */
interface ChangeStatements {
  readonly steps: readonly Step[];
  readonly applied: (results: ReadonlyArray<{ rows: Array<Record<string, unknown>> }>) => boolean;
  /** accepted: the parts whose early receipts (if any) are applied after the batch. */
  readonly early?: { readonly route: string; readonly peerIds: readonly string[] };
}

/** What a batch needs of its connection: queries, and quoting for the statements it inlines. */
export interface BatchClient extends Queryable {
  escapeLiteral(text: string): string;
}

/**
 * Applies the batch in order on `db` (one connection inside a transaction) in one round trip:
 * every change's statements, parameters inlined as quoted literals (by the driver's own
 * escapeLiteral), sent as one multi-statement query. Each statement still takes its own snapshot
 * (READ COMMITTED), so the locks and the order mean what they mean one by one; the engine's
 * batches no longer cost a round trip per statement, which bounded delivery on a busy machine.
 */
export async function applyChanges(db: BatchClient, changes: readonly DeliveryChange[]): Promise<boolean[]> {
  const batches = changes.map((change) =>
    change.kind === 'receipt' ? receiptStatements(change) : ownedStatements(change),
  );
  const text = batches.flatMap((statements) => statements.steps.map((step) => inline(step, db))).join(';\n');
  const answer = (await db.query(text)) as unknown;
  const results = (Array.isArray(answer) ? answer : [answer]) as Array<{ rows: Array<Record<string, unknown>> }>;
  const applied: boolean[] = [];
  const early: Array<{ route: string; peerIds: readonly string[] }> = [];
  let at = 0;
  for (const statements of batches) {
    const mine = results.slice(at, at + statements.steps.length);
    at += statements.steps.length;
    const ok = statements.applied(mine);
    applied.push(ok);
    if (ok && statements.early !== undefined && (mine.at(-1)?.rows.length ?? 0) > 0) early.push(statements.early);
  }
  if (early.length > 0) await applyEarlyReceipts(db, early);
  return applied;
}

/** `$n` replaced by the quoted value: strings by the driver's escapeLiteral, numbers checked finite. */
function inline(step: Step, db: BatchClient): string {
  const literal = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
      return String(value);
    }
    if (typeof value === 'string') return db.escapeLiteral(value);
    if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
    throw new Error(`cannot inline a ${typeof value}`);
  };
  return step.sql.replace(/\$(\d+)/g, (_, n: string) => literal(step.values[Number(n) - 1]));
}

type OwnedChange = Exclude<DeliveryChange, { kind: 'receipt' }>;

const OWNED = `id = $1 AND state = 'sending' AND lease_owner = $2`;

const countOf = (result: { rows: Array<Record<string, unknown>> } | undefined): number =>
  Number(result?.rows[0]?.n ?? 0);

/**
 * The owner-guarded UPDATE and its history event in one statement (the event is written only if
 * the UPDATE changed the row). `event` lists the event's columns after message_id as SQL over
 * the statement's parameters.
 */
function changedWithEvent(update: string, event: string, values: readonly unknown[]): ChangeStatements {
  return {
    steps: [
      {
        sql: `WITH changed AS (${update} RETURNING id),
              logged AS (INSERT INTO outbox_events (${EVENT_COLUMNS}) SELECT id, ${event} FROM changed)
              SELECT count(*) AS n FROM changed`,
        values,
      },
    ],
    applied: ([result]) => countOf(result) > 0,
  };
}

/** accepted / requeue / final / released: applied only while the change's owner still holds the message. */
function ownedStatements(change: OwnedChange): ChangeStatements {
  const { id, owner, at, attempt, route } = change;
  switch (change.kind) {
    case 'accepted': {
      const lastPart = new Map<string, number>();
      for (const [index, peerId] of change.peerIds.entries()) lastPart.set(peerId, index + 1);
      const peerIds = [...lastPart.keys()];
      return {
        steps: [
          {
            // Parts (what receipts look for), the message and its event in one statement.
            sql: `WITH changed AS (
                    UPDATE outbox SET state = 'accepted', smsc_id = $3, updated_at = $4, lease_owner = NULL,
                      lease_until = NULL, error_code = NULL, error_text = NULL WHERE ${OWNED} RETURNING id),
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
            values: [id, owner, change.peerIds[0] ?? null, at, route, attempt, peerIds, [...lastPart.values()]],
          },
          lockStep(route, peerIds),
          {
            sql: 'SELECT peer_id FROM outbox_early_receipts WHERE route = $1 AND peer_id = ANY($2::text[])',
            values: [route, peerIds],
          },
        ],
        applied: ([result]) => countOf(result) > 0,
        early: { route, peerIds },
      };
    }
    case 'requeue':
      return changedWithEvent(
        `UPDATE outbox SET state = 'queued', next_attempt_at = $3, updated_at = $4, lease_owner = NULL,
           lease_until = NULL, error_code = $5, error_text = $6, possible_duplicate = possible_duplicate OR $7
         WHERE ${OWNED}`,
        `$4, 'queued', $8, $9, NULL, $5, $6`,
        [id, owner, change.nextAttemptAt, at, change.code, change.text, change.maybeSent, attempt, route],
      );
    case 'final':
      return changedWithEvent(
        `UPDATE outbox SET state = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL, error_code = $5,
           error_text = $6 WHERE ${OWNED}`,
        `$4, $3, $7, $8, NULL, $5, $6`,
        [id, owner, change.state, at, change.code, change.text, attempt, route],
      );
    case 'released':
      return changedWithEvent(
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
 * The peer-id lock first; then the part, locking its message row (receipts for the message's
 * other parts wait here); a receipt without a part yet is kept as an early receipt (the lock
 * keeps the part from appearing in between); then, with a snapshot taken after those locks, the
 * part's state, the count of the attempt's other parts not delivered, the message and its event.
 */
function receiptStatements(change: Extract<DeliveryChange, { kind: 'receipt' }>): ChangeStatements {
  const { route, at, receipt } = change;
  const failed = receipt.state !== 'delivered';
  return {
    steps: [
      lockStep(route, [receipt.peerId]),
      {
        sql: `SELECT p.message_id FROM outbox_parts p JOIN outbox o ON o.id = p.message_id
              WHERE p.route = $1 AND p.peer_id = $2 FOR UPDATE OF o`,
        values: [route, receipt.peerId],
      },
      {
        sql: `INSERT INTO outbox_early_receipts (route, peer_id, state, code, text, at)
              SELECT $1, $2, $3, $4, $5, $6
              WHERE NOT EXISTS (SELECT 1 FROM outbox_parts WHERE route = $1 AND peer_id = $2)
              ON CONFLICT (route, peer_id) DO UPDATE SET state = EXCLUDED.state, code = EXCLUDED.code,
                text = EXCLUDED.text, at = EXCLUDED.at`,
        values: [route, receipt.peerId, receipt.state, receipt.code, receipt.text, at],
      },
      {
        sql: `WITH part AS (
                UPDATE outbox_parts SET state = $3 WHERE route = $1 AND peer_id = $2 RETURNING message_id, attempt),
              undelivered AS (
                SELECT count(*) AS n FROM outbox_parts p, part
                WHERE p.message_id = part.message_id AND p.attempt = part.attempt
                  AND NOT (p.route = $1 AND p.peer_id = $2) AND (p.state IS NULL OR p.state <> 'delivered')),
              settled AS (
                UPDATE outbox o SET state = $3, updated_at = $4, error_code = $5, error_text = $6
                FROM part, undelivered
                WHERE o.id = part.message_id AND o.state IN ('accepted', 'unknown') AND ($3 <> 'delivered' OR undelivered.n = 0)
                RETURNING o.id, part.attempt)
              INSERT INTO outbox_events (${EVENT_COLUMNS})
              SELECT id, $4, $3, attempt, $1, $2, $7, $8 FROM settled`,
        values: [
          route,
          receipt.peerId,
          receipt.state,
          at,
          failed ? receipt.code : null,
          failed ? receipt.text : null,
          receipt.code,
          receipt.text,
        ],
      },
    ],
    applied: ([, part]) => (part?.rows.length ?? 0) > 0,
  };
}

/** Serialises a receipt with the `accepted` that records its part (see the header); sorted, so two batches cannot deadlock on them. */
function lockStep(route: string, peerIds: readonly string[]): Step {
  return {
    sql: `SELECT pg_advisory_xact_lock(hashtextextended($1 || ' ' || peer_id, 0))
          FROM (SELECT DISTINCT unnest($2::text[]) AS peer_id ORDER BY 1) AS ids`,
    values: [route, peerIds],
  };
}

interface EarlyReceipt {
  peer_id: string;
  state: Receipt['state'];
  code: string;
  text: string;
  at: number;
}

/**
 * Receipts that came before their `accepted` was recorded, applied now that the parts exist
 * (the batch holds their peer-id locks): taken out in one statement, applied in one more, in
 * part order per message.
 */
async function applyEarlyReceipts(
  db: BatchClient,
  accepted: ReadonlyArray<{ route: string; peerIds: readonly string[] }>,
): Promise<void> {
  const taken = await db.query<EarlyReceipt & { route: string }>(
    `DELETE FROM outbox_early_receipts e USING unnest($1::text[], $2::text[]) AS t(route, peer_id)
     WHERE e.route = t.route AND e.peer_id = t.peer_id
     RETURNING e.route, e.peer_id, e.state, e.code, e.text, e.at`,
    [accepted.flatMap((a) => a.peerIds.map(() => a.route)), accepted.flatMap((a) => a.peerIds)],
  );
  const order = new Map(accepted.flatMap((a) => a.peerIds.map((peerId, index) => [`${a.route} ${peerId}`, index])));
  const rows = [...taken.rows].sort(
    (a, b) => (order.get(`${a.route} ${a.peer_id}`) ?? 0) - (order.get(`${b.route} ${b.peer_id}`) ?? 0),
  );
  if (rows.length === 0) return;
  const steps = rows.flatMap(
    (row) =>
      receiptStatements({
        kind: 'receipt',
        route: row.route,
        at: row.at,
        receipt: { peerId: row.peer_id, state: row.state, code: row.code, text: row.text },
      }).steps,
  );
  await db.query(steps.map((step) => inline(step, db)).join(';\n'));
}

/** Early receipts no `accepted` claimed within an hour (their submitter died before recording it). */
export const EARLY_RECEIPT_KEEP_MS = 60 * 60_000;

export async function purgeEarlyReceipts(db: Queryable, now: number): Promise<void> {
  await db.query('DELETE FROM outbox_early_receipts WHERE at < $1', [now - EARLY_RECEIPT_KEEP_MS]);
}
