/**
 * The receipt timeout on SQLite: messages a route's peer accepted and never receipted within the
 * route's `receiptTimeout` become `unknown` (final), with a history event saying why. A receipt
 * that comes later still settles them (../sqlite/delivery.ts accepts `unknown` as well as
 * `accepted`), so the history keeps both. Found through the partial index on accepted messages
 * (route, updated_at), never by reading the rest of the outbox; at most `limit` per call.
 */
import type Database from 'better-sqlite3';
import type { ReceiptTimeout } from '../delivery.js';

export function timeOutReceiptsOnSqlite(db: Database.Database, request: ReceiptTimeout): number {
  const overdue = db
    .prepare<[string, number, number], { id: string; attempts: number; smsc_id: string | null }>(
      `SELECT id, attempts, smsc_id FROM outbox INDEXED BY outbox_accepted
       WHERE state = 'accepted' AND route = ? AND updated_at < ? ORDER BY updated_at LIMIT ?`,
    )
    .all(request.route, request.acceptedBefore, request.limit);
  const settle = db.prepare(
    `UPDATE outbox SET state = 'unknown', updated_at = ?, error_code = 'RECEIPT_TIMEOUT', error_text = ?
     WHERE id = ? AND state = 'accepted'`,
  );
  const event = db.prepare(
    `INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
     VALUES (?, ?, 'unknown', ?, ?, ?, 'RECEIPT_TIMEOUT', ?)`,
  );
  let changed = 0;
  for (const row of overdue) {
    if (settle.run(request.now, request.text, row.id).changes === 0) continue;
    event.run(row.id, request.now, row.attempts, request.route, row.smsc_id, request.text);
    changed++;
  }
  return changed;
}
