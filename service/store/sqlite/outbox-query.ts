/**
 * Operating on the outbox on SQLite: filtered listings (newest first), the history as a stream
 * (a cursor on outbox_events.seq, for `smskit outbox --follow`), and retention (pruning old
 * messages, or only their text).
 *
 * Time filters are bounds on the primary key: ids start with their creation time (../ids.ts), so
 * `--since` and `prune --before` need no index of their own.
 */
import type Database from 'better-sqlite3';
import { firstIdAt } from '../ids.js';
import type { HistoryChange, MessageState, StoredMessage } from '../records.js';
import { type ChangeColumns, changeFromRow, messageFromRow, type OutboxColumns } from '../rows.js';

export interface OutboxQuery {
  /** Any of these states (all when absent or empty). */
  readonly states?: readonly MessageState[];
  /** E.164, as stored. */
  readonly smsto?: string;
  readonly account?: string;
  /** Created at or after (ms since the epoch). */
  readonly since?: number;
  /** Newest first (default) or oldest first. */
  readonly order?: 'newest' | 'oldest';
  readonly limit?: number;
}

export type { HistoryChange } from '../records.js';

/** What retention removes: whole messages (with their history), or only their text. */
export type PruneMode = 'messages' | 'text';

/** States a message can be pruned in: it will not be sent again (an accepted one only awaits a receipt). */
export const PRUNABLE_STATES: readonly MessageState[] = [
  'accepted',
  'delivered',
  'undeliverable',
  'expired',
  'rejected',
  'failed',
  'unknown',
  'test',
];

export interface SqliteOutboxQueries {
  findOutbox(query: OutboxQuery): StoredMessage[];
  historyAfter(seq: number, limit: number): HistoryChange[];
  lastHistorySeq(): number;
  /** Prunes messages created before `before` (ms) in a prunable state; returns how many. */
  pruneOutbox(before: number, mode: PruneMode): number;
}

function whereOf(query: OutboxQuery): { sql: string; values: Array<string | number> } {
  const clauses: string[] = [];
  const values: Array<string | number> = [];
  if (query.states !== undefined && query.states.length > 0) {
    clauses.push(`state IN (${query.states.map(() => '?').join(', ')})`);
    values.push(...query.states);
  }
  if (query.smsto !== undefined) {
    clauses.push('smsto = ?');
    values.push(query.smsto);
  }
  if (query.account !== undefined) {
    clauses.push('account = ?');
    values.push(query.account);
  }
  if (query.since !== undefined) {
    clauses.push('id >= ? AND created_at >= ?');
    values.push(firstIdAt(query.since), query.since);
  }
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, values };
}

export function sqliteOutboxQueries(db: Database.Database): SqliteOutboxQueries {
  const changes = db.prepare<[number, number], ChangeColumns>(
    'SELECT * FROM outbox_events WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const lastSeq = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM outbox_events');
  const states = PRUNABLE_STATES.map((s) => `'${s}'`).join(', ');
  const prunable = `id < ? AND created_at < ? AND state IN (${states})`;
  const deleteEvents = db.prepare(
    `DELETE FROM outbox_events WHERE message_id IN (SELECT id FROM outbox WHERE ${prunable})`,
  );
  const deleteParts = db.prepare(
    `DELETE FROM outbox_parts WHERE message_id IN (SELECT id FROM outbox WHERE ${prunable})`,
  );
  const deleteCallbacks = db.prepare(
    `DELETE FROM callback_queue WHERE message_id IN (SELECT id FROM outbox WHERE ${prunable})`,
  );
  const deleteMessages = db.prepare(`DELETE FROM outbox WHERE ${prunable}`);
  // '' is never a stored text otherwise: the service refuses empty messages (EmptyMessage).
  const redact = db.prepare(`UPDATE outbox SET smsmsg = '' WHERE ${prunable} AND smsmsg <> ''`);
  const prune = db.transaction((before: number, mode: PruneMode): number => {
    const bound = [firstIdAt(before), before] as const;
    if (mode === 'text') return redact.run(...bound).changes;
    deleteEvents.run(...bound);
    deleteParts.run(...bound);
    deleteCallbacks.run(...bound);
    return deleteMessages.run(...bound).changes;
  });
  return {
    findOutbox(query) {
      const { sql, values } = whereOf(query);
      const order = query.order === 'oldest' ? 'ASC' : 'DESC';
      return db
        .prepare<unknown[], OutboxColumns>(`SELECT * FROM outbox ${sql} ORDER BY id ${order} LIMIT ?`)
        .all(...values, query.limit ?? -1)
        .map(messageFromRow);
    },
    historyAfter: (seq, limit) => changes.all(seq, limit).map(changeFromRow),
    lastHistorySeq: () => lastSeq.get()?.seq ?? 0,
    pruneOutbox: (before, mode) => prune.immediate(before, mode),
  };
}
