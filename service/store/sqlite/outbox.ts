/** Reading the outbox on SQLite: pages of messages, one message, its history. */
import type Database from 'better-sqlite3';
import type { HistoryEvent, MessageState, NewMessage, StoredMessage } from '../records.js';
import type { Encoding } from '../../segments.js';

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
export const OUTBOX_INSERT = `INSERT INTO outbox (id, created_at, account, keyword, recipient, carrier, encoding,
    segments, port, message, state, updated_at)
  VALUES (@id, @created_at, @account, @keyword, @recipient, @carrier, @encoding, @segments, @port, @message,
    @state, @created_at)`;

export function toInsertRow(id: string, createdAt: number, message: NewMessage, state: MessageState) {
  return {
    id,
    created_at: createdAt,
    account: message.account,
    keyword: message.keyword,
    recipient: message.recipient,
    carrier: message.carrier,
    encoding: message.encoding,
    segments: message.segments,
    port: message.port,
    message: message.text,
    state,
  };
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
  possible_duplicate: number;
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
    possibleDuplicate: r.possible_duplicate === 1,
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

export function sqliteOutbox(db: Database.Database): SqliteOutbox {
  const page = db.prepare<[string, number], OutboxRecord>('SELECT * FROM outbox WHERE id > ? ORDER BY id LIMIT ?');
  const one = db.prepare<[string], OutboxRecord>('SELECT * FROM outbox WHERE id = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM outbox');
  const byState = db.prepare<[], { state: MessageState; n: number }>(
    'SELECT state, count(*) AS n FROM outbox GROUP BY state',
  );
  const events = db.prepare<[string], EventRecord>(
    'SELECT at, state, attempt, route, smsc_id, code, text FROM outbox_events WHERE message_id = ? ORDER BY seq',
  );
  return {
    listOutbox: (options = {}) => page.all(options.afterId ?? '', options.limit ?? -1).map(toMessage),
    countOutbox: () => count.get()?.n ?? 0,
    getMessage: (id) => {
      const record = one.get(id);
      return record === undefined ? undefined : toMessage(record);
    },
    history: (id) => {
      const message = one.get(id);
      if (message === undefined) return [];
      const accepted: HistoryEvent = {
        at: message.created_at,
        state: message.state === 'test' ? 'test' : 'queued',
        attempt: 0,
        route: null,
        smscId: null,
        code: null,
        text: 'accepted from the client',
      };
      return [
        accepted,
        ...events.all(id).map((e) => ({
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
    countByState: () => Object.fromEntries(byState.all().map((row) => [row.state, row.n])),
  };
}
