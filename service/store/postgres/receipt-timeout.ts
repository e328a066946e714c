/**
 * The receipt timeout on PostgreSQL, with the meaning of ../sqlite/receipt-timeout.ts: accepted
 * messages of a route with no receipt since before the cut-off become `unknown`, one statement
 * for the rows, their state and their history events. SKIP LOCKED: a receipt being applied to
 * one of them by another instance wins, and the next sweep looks again.
 */
import type { ReceiptTimeout } from '../delivery.js';
import type { Queryable } from './connect.js';

export async function timeOutReceiptsOnPostgres(db: Queryable, request: ReceiptTimeout): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH overdue AS (
       SELECT id FROM outbox WHERE state = 'accepted' AND route = $1 AND updated_at < $2
       ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED),
     settled AS (
       UPDATE outbox o SET state = 'unknown', updated_at = $4, error_code = 'RECEIPT_TIMEOUT', error_text = $5
       FROM overdue WHERE o.id = overdue.id AND o.state = 'accepted'
       RETURNING o.id, o.attempts, o.smsc_id),
     logged AS (
       INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
       SELECT id, $4, 'unknown', attempts, $1, smsc_id, 'RECEIPT_TIMEOUT', $5 FROM settled ORDER BY id)
     SELECT count(*)::integer AS n FROM settled`,
    [request.route, request.acceptedBefore, request.limit, request.now, request.text],
  );
  return Number(rows[0]?.n ?? 0);
}
