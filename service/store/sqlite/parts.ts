/**
 * Each part's peer id and receipt state for a few messages (the latest attempt of each), for
 * `smskit outbox`: one indexed query (outbox_parts_message) per call, however many parts.
 */
import type Database from 'better-sqlite3';
import type { MessagePart, ReceiptState } from '../records.js';

interface PartRow {
  message_id: string;
  part: number;
  attempt: number;
  route: string;
  peer_id: string;
  state: ReceiptState | null;
}

/** At most this many messages per query (SQLite's bound parameters). */
const CHUNK = 500;

export function sqliteMessageParts(db: Database.Database, ids: readonly string[]): MessagePart[] {
  const rows: PartRow[] = [];
  for (let at = 0; at < ids.length; at += CHUNK) {
    const chunk = ids.slice(at, at + CHUNK);
    const marks = chunk.map(() => '?').join(', ');
    rows.push(
      ...db
        .prepare<string[], PartRow>(
          `SELECT message_id, part, attempt, route, peer_id, state FROM outbox_parts
           WHERE message_id IN (${marks}) ORDER BY message_id, attempt, part`,
        )
        .all(...chunk),
    );
  }
  return latestAttempts(rows.map(toPart));
}

export function toPart(row: PartRow): MessagePart {
  return {
    messageId: row.message_id,
    part: row.part,
    attempt: row.attempt,
    route: row.route,
    smscId: row.peer_id,
    state: row.state,
  };
}

/** Only each message's latest attempt (an earlier attempt's parts are history). */
export function latestAttempts(parts: readonly MessagePart[]): MessagePart[] {
  const latest = new Map<string, number>();
  for (const part of parts) latest.set(part.messageId, Math.max(latest.get(part.messageId) ?? 0, part.attempt));
  return parts
    .filter((part) => part.attempt === latest.get(part.messageId))
    .sort((a, b) => (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : a.part - b.part));
}
