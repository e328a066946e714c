/** Writing and reading the outbox on PostgreSQL (the same meaning as ../sqlite/outbox.ts). */
import type { HistoryEvent, MessageState, NewMessage, StoredMessage } from '../records.js';
import { type EventColumns, HISTORY_COLUMNS, historyOf, messageFromRow, type OutboxColumns } from '../rows.js';
import type { OutboxPage } from '../sqlite/outbox.js';
import type { Queryable } from './connect.js';

export interface InsertRow {
  readonly id: string;
  readonly createdAt: number;
  readonly message: NewMessage;
  readonly state: MessageState;
}

/**
 * One statement inserting the whole batch (so one transaction, one COMMIT, one round trip):
 * column arrays unnested into rows.
 */
export async function insertBatch(db: Queryable, rows: readonly InsertRow[]): Promise<void> {
  const column = <T>(pick: (row: InsertRow) => T): T[] => rows.map(pick);
  await db.query(
    `INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg,
       state, updated_at)
     SELECT id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg, state, created_at
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::integer[], $9::integer[], $10::text[], $11::text[])
       AS t(id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg, state)`,
    [
      column((r) => r.id),
      column((r) => r.createdAt),
      column((r) => r.message.account),
      column((r) => r.message.keyword),
      column((r) => r.message.smsto),
      column((r) => r.message.carrierCode),
      column((r) => r.message.encoding),
      column((r) => r.message.segments),
      column((r) => r.message.port),
      column((r) => r.message.smsmsg),
      column((r) => r.state),
    ],
  );
}

export const COLUMNS = `id, created_at, account, keyword, smsto, carrier_code, encoding, segments, port, smsmsg, state,
  updated_at, attempts, route, smsc_id, error_code, error_text, possible_duplicate`;

export function postgresOutbox(db: Queryable) {
  async function getMessage(id: string): Promise<StoredMessage | undefined> {
    const { rows } = await db.query<OutboxColumns>(`SELECT ${COLUMNS} FROM outbox WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : messageFromRow(rows[0]);
  }
  return {
    async listOutbox(page: OutboxPage = {}): Promise<StoredMessage[]> {
      const { rows } = await db.query<OutboxColumns>(
        `SELECT ${COLUMNS} FROM outbox WHERE id > $1 ORDER BY id LIMIT $2`,
        [page.afterId ?? '', page.limit === undefined || page.limit < 0 ? null : page.limit],
      );
      return rows.map(messageFromRow);
    },
    async countOutbox(): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM outbox');
      return rows[0]?.n ?? 0;
    },
    getMessage,
    async history(id: string): Promise<HistoryEvent[]> {
      const message = await getMessage(id);
      if (message === undefined) return [];
      const { rows } = await db.query<EventColumns>(
        `SELECT ${HISTORY_COLUMNS} FROM outbox_events WHERE message_id = $1 ORDER BY seq`,
        [id],
      );
      return historyOf(message, rows);
    },
    async countByState(): Promise<Partial<Record<MessageState, number>>> {
      const { rows } = await db.query<{ state: MessageState; n: number }>(
        'SELECT state, count(*) AS n FROM outbox GROUP BY state',
      );
      return Object.fromEntries(rows.map((row) => [row.state, row.n]));
    },
  };
}
