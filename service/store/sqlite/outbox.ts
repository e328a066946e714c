/** Reading the outbox on SQLite: pages of messages, one message, its history. */
import type Database from 'better-sqlite3';
import type { HistoryEvent, MessageState, NewMessage, StoredMessage } from '../records.js';
import { type EventColumns, HISTORY_COLUMNS, historyOf, messageFromRow, type OutboxColumns } from '../rows.js';

export interface OutboxPage {
  readonly limit?: number;
  /** Messages after this id (in acceptance order). */
  readonly afterId?: string;
}

export interface SqliteOutbox {
  listOutbox(page?: OutboxPage): StoredMessage[];
  countOutbox(): number;
  getMessage(id: string): StoredMessage | undefined;
  history(id: string): HistoryEvent[];
  countByState(): Partial<Record<MessageState, number>>;
}

/** The outbox columns, in the order INSERT names them. */
export const OUTBOX_INSERT = `INSERT INTO outbox (id, created_at, account, keyword, smsto, carrier_code, encoding,
    segments, port, smsmsg, state, updated_at)
  VALUES (@id, @created_at, @account, @keyword, @smsto, @carrier_code, @encoding, @segments, @port, @smsmsg,
    @state, @created_at)`;

export function toInsertRow(id: string, createdAt: number, message: NewMessage, state: MessageState) {
  return {
    id,
    created_at: createdAt,
    account: message.account,
    keyword: message.keyword,
    smsto: message.smsto,
    carrier_code: message.carrierCode,
    encoding: message.encoding,
    segments: message.segments,
    port: message.port,
    smsmsg: message.smsmsg,
    state,
  };
}

export function sqliteOutbox(db: Database.Database): SqliteOutbox {
  const page = db.prepare<[string, number], OutboxColumns>('SELECT * FROM outbox WHERE id > ? ORDER BY id LIMIT ?');
  const one = db.prepare<[string], OutboxColumns>('SELECT * FROM outbox WHERE id = ?');
  // The counts the triggers of ./migrations.ts keep, not a scan of the outbox.
  const count = db.prepare<[], { n: number }>('SELECT coalesce(sum(n), 0) AS n FROM outbox_counts');
  const byState = db.prepare<[], { state: MessageState; n: number }>(
    'SELECT state, n FROM outbox_counts WHERE n > 0 ORDER BY state',
  );
  const events = db.prepare<[string], EventColumns>(
    `SELECT ${HISTORY_COLUMNS} FROM outbox_events WHERE message_id = ? ORDER BY seq`,
  );
  return {
    listOutbox: (options = {}) => page.all(options.afterId ?? '', options.limit ?? -1).map(messageFromRow),
    countOutbox: () => count.get()?.n ?? 0,
    getMessage: (id) => {
      const record = one.get(id);
      return record === undefined ? undefined : messageFromRow(record);
    },
    history: (id) => {
      const record = one.get(id);
      return record === undefined ? [] : historyOf(messageFromRow(record), events.all(id));
    },
    countByState: () => Object.fromEntries(byState.all().map((row) => [row.state, row.n])),
  };
}
