/** Each part's peer id and receipt state for a few messages, as ../sqlite/parts.ts reads them: one query. */
import type { MessagePart, ReceiptState } from '../records.js';
import { latestAttempts, toPart } from '../sqlite/parts.js';
import type { Queryable } from './connect.js';

export async function postgresMessageParts(db: Queryable, ids: readonly string[]): Promise<MessagePart[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{
    message_id: string;
    part: number;
    attempt: number;
    route: string;
    peer_id: string;
    state: ReceiptState | null;
  }>(
    `SELECT message_id, part, attempt, route, peer_id, state FROM outbox_parts
     WHERE message_id = ANY($1::text[]) ORDER BY message_id, attempt, part`,
    [ids],
  );
  return latestAttempts(rows.map(toPart));
}
