/** Writing and reading the outbox on PostgreSQL (the same meaning as ../sqlite/outbox.ts). */
import type { Encoding } from '../../segments.js';
import type { HistoryEvent, MessageState, NewMessage, StoredMessage } from '../records.js';
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
    `INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message,
       state, updated_at)
     SELECT id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message, state, created_at
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
       $8::integer[], $9::integer[], $10::text[], $11::text[])
       AS t(id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message, state)`,
    [
      column((r) => r.id),
      column((r) => r.createdAt),
      column((r) => r.message.account),
      column((r) => r.message.keyword),
      column((r) => r.message.recipient),
      column((r) => r.message.carrier),
      column((r) => r.message.encoding),
      column((r) => r.message.segments),
      column((r) => r.message.port),
      column((r) => r.message.text),
      column((r) => r.state),
    ],
  );
}

interface OutboxRecord {
  id: string;
  created_at: number;
  account: string;
  keyword: string;
  recipient: string;
  carrier: string;
  encoding: Encoding;
  segments: number;
  port: number | null;
  message: string;
  state: MessageState;
  updated_at: number;
  attempts: number;
  route: string | null;
  smsc_id: string | null;
  error_code: string | null;
  error_text: string | null;
  possible_duplicate: boolean;
}

function toMessage(r: OutboxRecord): StoredMessage {
  return {
    id: r.id,
    createdAt: r.created_at,
    account: r.account,
    keyword: r.keyword,
    recipient: r.recipient,
    carrier: r.carrier,
    encoding: r.encoding,
    segments: r.segments,
    port: r.port,
    text: r.message,
    state: r.state,
    updatedAt: r.updated_at,
    attempts: r.attempts,
    route: r.route,
    smscId: r.smsc_id,
    errorCode: r.error_code,
    errorText: r.error_text,
    possibleDuplicate: r.possible_duplicate,
  };
}

interface EventRecord {
  at: number;
  state: MessageState;
  attempt: number;
  route: string | null;
  smsc_id: string | null;
  code: string | null;
  text: string | null;
}

const COLUMNS = `id, created_at, account, keyword, recipient, carrier, encoding, segments, port, message, state,
  updated_at, attempts, route, smsc_id, error_code, error_text, possible_duplicate`;

export function postgresOutbox(db: Queryable) {
  async function getMessage(id: string): Promise<StoredMessage | undefined> {
    const { rows } = await db.query<OutboxRecord>(`SELECT ${COLUMNS} FROM outbox WHERE id = $1`, [id]);
    return rows[0] === undefined ? undefined : toMessage(rows[0]);
  }
  return {
    async listOutbox(page: OutboxPage = {}): Promise<StoredMessage[]> {
      const { rows } = await db.query<OutboxRecord>(
        `SELECT ${COLUMNS} FROM outbox WHERE id > $1 ORDER BY id LIMIT $2`,
        [page.afterId ?? '', page.limit === undefined || page.limit < 0 ? null : page.limit],
      );
      return rows.map(toMessage);
    },
    async countOutbox(): Promise<number> {
      const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM outbox');
      return rows[0]?.n ?? 0;
    },
    getMessage,
    async history(id: string): Promise<HistoryEvent[]> {
      const message = await getMessage(id);
      if (message === undefined) return [];
      const { rows } = await db.query<EventRecord>(
        'SELECT at, state, attempt, route, smsc_id, code, text FROM outbox_events WHERE message_id = $1 ORDER BY seq',
        [id],
      );
      const accepted: HistoryEvent = {
        at: message.createdAt,
        state: message.state === 'test' ? 'test' : 'queued',
        attempt: 0,
        route: null,
        smscId: null,
        code: null,
        text: 'accepted from the client',
      };
      return [
        accepted,
        ...rows.map((e) => ({
          at: e.at,
          state: e.state,
          attempt: e.attempt,
          route: e.route,
          smscId: e.smsc_id,
          code: e.code,
          text: e.text,
        })),
      ];
    },
    async countByState(): Promise<Partial<Record<MessageState, number>>> {
      const { rows } = await db.query<{ state: MessageState; n: number }>(
        'SELECT state, count(*) AS n FROM outbox GROUP BY state',
      );
      return Object.fromEntries(rows.map((row) => [row.state, row.n]));
    },
  };
}
