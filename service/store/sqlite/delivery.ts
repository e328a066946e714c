/**
 * The delivery engine's statements on SQLite (see ../delivery.ts for what each method means).
 * Synchronous: the caller wraps each call in one transaction and maps failures.
 */
import type Database from 'better-sqlite3';
import type { ClaimedMessage, ClaimRequest, CarrierSelection, DeliveryChange } from '../delivery.js';
import { firstIdAt } from '../ids.js';
import { type ClaimedColumns, claimedFromRow } from '../rows.js';

export interface SqliteDelivery {
  claim(request: ClaimRequest): ClaimedMessage[];
  apply(changes: readonly DeliveryChange[]): boolean[];
  renewLeases(owner: string, leaseUntil: number): void;
  recoverExpiredLeases(now: number): number;
  expireOverdue(createdBefore: number, now: number): number;
}

type QueuedRecord = ClaimedColumns;

/**
 * A history row: message id, at, state, attempt, route, SMSC id, code, text. Positional, as all
 * the statements per message are: binding by name needs an object built per statement (it was,
 * with spreads) and a property read per parameter.
 */
type EventRow = [string, number, string, number, string | null, string | null, string | null, string | null];

const CLAIM_COLUMNS =
  'id, created_at, smsto, carrier_code, smsmsg, encoding, segments, port, attempts, possible_duplicate';

export function sqliteDelivery(db: Database.Database): SqliteDelivery {
  return new SqliteDeliveryStatements(db);
}

type LeaseRow = { id: string; attempts: number; route: string | null };

class SqliteDeliveryStatements implements SqliteDelivery {
  private readonly claimStatements = new Map<string, Database.Statement<unknown[], QueuedRecord>>();
  private readonly event: EventStatement;
  private readonly claimEvents: Database.Statement<[number, string, string]>;
  private readonly renew: Database.Statement;
  private readonly changes: (change: OwnedChange) => boolean;
  private readonly receipt: (change: ReceiptChange) => boolean;

  constructor(private readonly db: Database.Database) {
    this.event = db.prepare<EventRow>(
      `INSERT INTO outbox_events (message_id, at, state, attempt, route, smsc_id, code, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.claimEvents = db.prepare(
      `INSERT INTO outbox_events (message_id, at, state, attempt, route)
       SELECT value ->> 0, ?, 'sending', value ->> 1, ? FROM json_each(?)`,
    );
    this.renew = db.prepare(`UPDATE outbox SET lease_until = ? WHERE state = 'sending' AND lease_owner = ?`);
    this.changes = ownedChanges(db, this.event);
    this.receipt = receiptChange(db, this.event);
  }

  /**
   * Two statements however many are claimed: the UPDATE takes the due rows (RETURNING them), and
   * one INSERT writes their `sending` events from a JSON list.
   */
  claim(request: ClaimRequest): ClaimedMessage[] {
    const list = 'only' in request.carriers ? request.carriers.only : request.carriers.except;
    if ('only' in request.carriers && list.length === 0) return [];
    const { route, owner, leaseUntil, now, limit } = request;
    const rows = this.claimStatement(request.carriers).all(route, owner, leaseUntil, now, now, ...list, limit);
    if (rows.length === 0) return [];
    // RETURNING gives no order: acceptance order is the id's.
    rows.sort((a, b) => (a.id < b.id ? -1 : 1));
    this.claimEvents.run(now, route, JSON.stringify(rows.map((row) => [row.id, row.attempts])));
    return rows.map(claimedFromRow);
  }

  apply(batch: readonly DeliveryChange[]): boolean[] {
    return batch.map((change) => (change.kind === 'receipt' ? this.receipt(change) : this.changes(change)));
  }

  renewLeases(owner: string, leaseUntil: number): void {
    this.renew.run(leaseUntil, owner);
  }

  recoverExpiredLeases(now: number): number {
    const stale = this.db
      .prepare<[number], LeaseRow>(`SELECT id, attempts, route FROM outbox WHERE state = 'sending' AND lease_until < ?`)
      .all(now);
    const requeue = this.db.prepare(
      `UPDATE outbox SET state = 'queued', possible_duplicate = 1, lease_owner = NULL, lease_until = NULL,
         next_attempt_at = ?, updated_at = ?, error_code = 'LEASE_EXPIRED',
         error_text = 'its delivery worker stopped while sending it' WHERE id = ? AND state = 'sending'`,
    );
    for (const row of stale) {
      requeue.run(now, now, row.id);
      this.event.run(
        row.id,
        now,
        'queued',
        row.attempts,
        row.route,
        null,
        'LEASE_EXPIRED',
        'taken back after its delivery worker stopped while sending it; a resend may be a duplicate',
      );
    }
    return stale.length;
  }

  expireOverdue(createdBefore: number, now: number): number {
    const overdue = this.db
      .prepare<[string, number], LeaseRow>(
        // An id starts with its creation time: the bound on it makes this a search of the overdue
        // alone, where created_at alone would read every queued message.
        `SELECT id, attempts, route FROM outbox INDEXED BY outbox_queued
         WHERE state = 'queued' AND id < ? AND created_at < ?`,
      )
      .all(firstIdAt(createdBefore), createdBefore);
    const expire = this.db.prepare(
      `UPDATE outbox SET state = 'expired', updated_at = ?, error_code = 'VALIDITY',
         error_text = 'not sent within its validity period' WHERE id = ? AND state = 'queued'`,
    );
    for (const row of overdue) {
      expire.run(now, row.id);
      this.event.run(
        row.id,
        now,
        'expired',
        row.attempts,
        row.route,
        null,
        'VALIDITY',
        'not sent within its validity period',
      );
    }
    return overdue.length;
  }

  /** One prepared claim per carrier selection (a route's selection never changes). */
  private claimStatement(selection: CarrierSelection): Database.Statement<unknown[], QueuedRecord> {
    const list = 'only' in selection ? selection.only : selection.except;
    const key = `${'only' in selection ? 'only' : 'except'}:${list.join(',')}`;
    let statement = this.claimStatements.get(key);
    if (statement === undefined) {
      const marks = list.map(() => '?').join(', ');
      const filter =
        'only' in selection ? `carrier_code IN (${marks})` : list.length === 0 ? '1' : `carrier_code NOT IN (${marks})`;
      statement = this.db.prepare<unknown[], QueuedRecord>(
        `UPDATE outbox SET state = 'sending', attempts = attempts + 1, route = ?, lease_owner = ?, lease_until = ?,
           updated_at = ?
         WHERE id IN (SELECT id FROM outbox INDEXED BY outbox_queued
                      WHERE state = 'queued' AND next_attempt_at <= ? AND ${filter} ORDER BY id LIMIT ?)
         RETURNING ${CLAIM_COLUMNS}`,
      );
      this.claimStatements.set(key, statement);
    }
    return statement;
  }
}

type EventStatement = Database.Statement<EventRow>;
type OwnedChange = Exclude<DeliveryChange, { kind: 'receipt' }>;
type ReceiptChange = Extract<DeliveryChange, { kind: 'receipt' }>;

/** accepted / requeue / final / released: applied only while the change's owner still holds the message. */
function ownedChanges(db: Database.Database, event: EventStatement): (change: OwnedChange) => boolean {
  // Every statement ends with the id and the owner, so the caller appends them.
  const owned = `WHERE id = ? AND state = 'sending' AND lease_owner = ?`;
  const accepted = db.prepare<[string | null, number, string, string]>(
    `UPDATE outbox SET state = 'accepted', smsc_id = ?, updated_at = ?, lease_owner = NULL,
       lease_until = NULL, error_code = NULL, error_text = NULL ${owned}`,
  );
  const part = db.prepare<[string, string, string, number, number]>(
    `INSERT OR REPLACE INTO outbox_parts (route, peer_id, message_id, part, attempt, state)
     VALUES (?, ?, ?, ?, ?, NULL)`,
  );
  const requeue = db.prepare<[number, number, string, string, number, string, string]>(
    `UPDATE outbox SET state = 'queued', next_attempt_at = ?, updated_at = ?, lease_owner = NULL,
       lease_until = NULL, error_code = ?, error_text = ?,
       possible_duplicate = max(possible_duplicate, ?) ${owned}`,
  );
  const final = db.prepare<[string, number, string, string, string, string]>(
    `UPDATE outbox SET state = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL,
       error_code = ?, error_text = ? ${owned}`,
  );
  const released = db.prepare<[number, string, string]>(
    `UPDATE outbox SET state = 'queued', attempts = attempts - 1, updated_at = ?, lease_owner = NULL,
       lease_until = NULL ${owned}`,
  );
  return (change) => {
    const { id, owner, at, attempt, route } = change;
    switch (change.kind) {
      case 'accepted': {
        const smscId = change.peerIds[0] ?? null;
        if (accepted.run(smscId, at, id, owner).changes === 0) return false;
        change.peerIds.forEach((peerId, index) => {
          part.run(route, peerId, id, index + 1, attempt);
        });
        event.run(id, at, 'accepted', attempt, route, smscId, null, null);
        return true;
      }
      case 'requeue': {
        const { code, text } = change;
        if (requeue.run(change.nextAttemptAt, at, code, text, change.maybeSent ? 1 : 0, id, owner).changes === 0)
          return false;
        event.run(id, at, 'queued', attempt, route, null, code, text);
        return true;
      }
      case 'final': {
        const { state, code, text } = change;
        if (final.run(state, at, code, text, id, owner).changes === 0) return false;
        event.run(id, at, state, attempt, route, null, code, text);
        return true;
      }
      case 'released': {
        if (released.run(at, id, owner).changes === 0) return false;
        event.run(id, at, 'queued', attempt - 1, route, null, null, 'returned to the queue unsent at shutdown');
        return true;
      }
    }
  };
}

/**
 * A receipt settles its part; the message takes the part's state when that is a failure, and
 * `delivered` once every part of the same attempt is delivered. Only an `accepted` message
 * changes, or an `unknown` one (its receipt came after the route's receipt timeout); a late
 * receipt for an attempt that was since retried updates its part only. Three statements: the
 * part (RETURNING whose it is; each form of the id tried in turn), the message (its WHERE checks
 * the other parts), and the event when the message changed.
 */
function receiptChange(db: Database.Database, event: EventStatement): (change: ReceiptChange) => boolean {
  const settlePart = db.prepare<[string, string, string], { message_id: string; attempt: number }>(
    'UPDATE outbox_parts SET state = ? WHERE route = ? AND peer_id = ? RETURNING message_id, attempt',
  );
  // The state and the id twice: the message takes the state, and `delivered` waits for the other parts.
  const settleMessage = db.prepare<[string, number, string | null, string | null, string, string, string, number]>(
    `UPDATE outbox SET state = ?, updated_at = ?, error_code = ?, error_text = ?
     WHERE id = ? AND state IN ('accepted', 'unknown')
       AND (? != 'delivered' OR NOT EXISTS (
         SELECT 1 FROM outbox_parts INDEXED BY outbox_parts_message
         WHERE message_id = ? AND attempt = ? AND (state IS NULL OR state != 'delivered')))`,
  );
  return ({ route, at, receipt }) => {
    let peerId = receipt.peerId;
    let found = settlePart.get(receipt.state, route, peerId);
    for (const other of receipt.alsoTry ?? []) {
      if (found !== undefined) break;
      peerId = other;
      found = settlePart.get(receipt.state, route, peerId);
    }
    if (found === undefined) return false;
    const { message_id: id, attempt } = found;
    const failed = receipt.state !== 'delivered';
    const code = failed ? receipt.code : null;
    const text = failed ? receipt.text : null;
    if (settleMessage.run(receipt.state, at, code, text, id, receipt.state, id, attempt).changes === 1) {
      event.run(id, at, receipt.state, attempt, route, peerId, receipt.code, receipt.text);
    }
    return true;
  };
}
