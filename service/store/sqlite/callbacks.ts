/**
 * The callback queue's statements on SQLite (see ../callbacks.ts for what each call means, and
 * migrations 7 and 8 in ./migrations.ts for the tables). Events come from two places: the history
 * itself, read from a cursor (./callback-cursor.ts: most events, which never get a row), and the
 * `callback_queue` rows written for the events that must wait (retries, an event behind an earlier
 * one of its message, events re-queued by an operator) or died. A claim hands out due rows first,
 * then new events. Synchronous: the writes run inside a transaction their caller opens (the writer
 * thread's batch, or an immediate transaction of their own), the reads on the event loop's
 * connection.
 *
 * A claim of rows is two statements however many it takes (the UPDATE that leases them, one SELECT
 * that reads them from a JSON list of their seqs); settling rows is three (the sent deleted, the
 * rest updated from a JSON list, the next event of each finished message released).
 */
import type Database from 'better-sqlite3';
import {
  CALLBACK_EVENT_COLUMNS,
  type CallbackEventColumns,
  callbackEventFromRow,
  QUEUED_CALLBACK_COLUMNS,
  type QueuedCallbackColumns,
  queuedCallbackFromRow,
} from '../callback-rows.js';
import type {
  CallbackClaim,
  CallbackEvent,
  CallbackOutcome,
  CallbackQuery,
  CallbackStats,
  QueuedCallback,
} from '../callbacks.js';
import { historyCallbacks, UNSENT_EVENTS } from './callback-cursor.js';
import type { HeldEvents } from './callback-memory.js';

export type CallbackRetryFilter = Omit<CallbackQuery, 'eventState' | 'afterSeq' | 'limit'>;

export interface SqliteCallbacks {
  claim(claim: CallbackClaim): CallbackEvent[];
  settle(owner: string, outcomes: readonly CallbackOutcome[]): void;
  renew(owner: string, seqs: readonly number[], leaseUntil: number): void;
  disable(account: string, at: number, reason: string): void;
  hasten(account: string, now: number): number;
  retry(filter: CallbackRetryFilter, now: number): number;
  list(query: CallbackQuery): QueuedCallback[];
  stats(): CallbackStats;
  senderNeeded(): boolean;
}

export function sqliteCallbacks(db: Database.Database, memory: HeldEvents): SqliteCallbacks {
  const history = historyCallbacks(db, memory);
  // Most services have no queue row at all (a receiver that keeps up needs none): the row
  // statements are skipped then. One probe of an index, where the row claim alone cost ~40 µs on
  // an empty queue, at every claim.
  const anyPendingRow = db.prepare<[], number>(`SELECT ${ANY_PENDING_ROW}`).pluck();
  const claimRows = rowClaimStatements(db);
  const settle = settleStatements(db, () => anyPendingRow.get() === 1);
  const renew = renewStatement(db);
  const deadForAccount = db.prepare<[string, string]>(
    `UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL, last_error = ?
     WHERE account = ? AND state = 'pending'`,
  );
  const switchOff = db.prepare<[number, string]>(
    'UPDATE accounts SET callbacks_disabled_at = ? WHERE email = ? AND callbacks_disabled_at IS NULL',
  );
  return {
    claim(claim) {
      history.begin();
      const limit = Math.max(0, Math.floor(claim.limit));
      const rows = anyPendingRow.get() === 1 ? claimRows(claim, limit) : [];
      const events = rows.length < limit ? [...rows, ...history.claim(claim, limit - rows.length)] : rows;
      // RETURNING gives no order, and the list is short: sorted here rather than by a temporary B-tree.
      return events.sort((a, b) => a.seq - b.seq);
    },
    settle(owner, outcomes) {
      if (outcomes.length === 0) return;
      history.begin();
      const { rows, finished } = history.settle(owner, outcomes);
      settle(owner, rows, finished);
    },
    renew(owner, seqs, leaseUntil) {
      const rows = history.renew(owner, seqs, leaseUntil);
      if (rows.length > 0) renew(owner, rows, leaseUntil);
    },
    disable(account, at, reason) {
      history.begin();
      deadForAccount.run(reason, account);
      history.dieUnread(account, reason);
      switchOff.run(at, account);
    },
    hasten: hastenStatement(db),
    retry: (filter, now) => retryDead(db, filter, now),
    list: (query) => listQueued(db, query),
    stats: statsStatement(db),
    senderNeeded: senderNeededStatement(db),
  };
}

/** Leases due queue rows (each message's earliest pending one) and reads their events. */
function rowClaimStatements(db: Database.Database): (claim: CallbackClaim, limit: number) => CallbackEvent[] {
  type Lease = { owner: string; until: number; now: number; limit: number };
  const lease = db.prepare<[Lease], { seq: number }>(
    // Walks the due index in order and stops at the LIMIT: only due events are in it (a message's
    // later events wait with due_at NULL), so a backlog behind a failing receiver is never read.
    // A handed-out event is due again when its lease ends: its sender died if it was not settled.
    `UPDATE callback_queue SET tries = tries + 1, lease_owner = @owner, lease_until = @until, due_at = @until
     WHERE seq IN (SELECT seq FROM callback_queue AS q INDEXED BY callback_queue_due
                   WHERE state = 'pending' AND due_at <= @now
                     AND NOT EXISTS (SELECT 1 FROM callback_queue AS p INDEXED BY callback_queue_message
                                     WHERE p.message_id = q.message_id AND p.seq < q.seq AND p.state = 'pending')
                   ORDER BY due_at, seq LIMIT @limit)
     RETURNING seq`,
  );
  const read = db.prepare<[string], CallbackEventColumns>(
    `SELECT ${CALLBACK_EVENT_COLUMNS}
     FROM json_each(?) AS j JOIN callback_queue AS claimed ON claimed.seq = j.value
       JOIN outbox_events AS e ON e.seq = claimed.seq JOIN outbox AS o ON o.id = claimed.message_id
       JOIN accounts AS a ON a.email = o.account
     WHERE a.callback_url IS NOT NULL`,
  );
  return (claim, limit) => {
    const seqs = lease.all({ owner: claim.owner, until: claim.leaseUntil, now: claim.now, limit });
    return seqs.length === 0 ? [] : read.all(JSON.stringify(seqs.map((row) => row.seq))).map(callbackEventFromRow);
  };
}

/** A queue row pending (handed out or not): one probe of an index. */
const ANY_PENDING_ROW = `EXISTS (SELECT 1 FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending')`;
/** An account with its receiver on: one probe of a partial index (empty for most services). */
const ANY_RECEIVER = `EXISTS (SELECT 1 FROM accounts INDEXED BY accounts_callbacks
                              WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL)`;
/**
 * Events not sent yet are counted up to this many: /metrics and /healthz count at every scrape, on
 * the event loop, and a backlog behind a slow receiver is read from the history row by row (a few
 * µs each). A deeper backlog counts as this many plus its queue rows (docs/status.md).
 */
export const UNSENT_COUNTED = 10_000;

function statsStatement(db: Database.Database): SqliteCallbacks['stats'] {
  const rows = db.prepare<[], { pending: number; dead: number; oldest: number | null }>(
    `SELECT (SELECT count(*) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending') AS pending,
            (SELECT count(*) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'dead') AS dead,
            (SELECT min(queued_at) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending') AS oldest`,
  );
  const unsent = db.prepare<[], { pending: number; oldest: number | null }>(
    `SELECT count(*) AS pending, min(at) AS oldest
     FROM (SELECT e.at FROM ${UNSENT_EVENTS} AND ${ANY_RECEIVER} ORDER BY e.seq LIMIT ${UNSENT_COUNTED})`,
  );
  return () => {
    const queued = rows.get() ?? { pending: 0, dead: 0, oldest: null };
    const history = unsent.get() ?? { pending: 0, oldest: null };
    const oldest = [queued.oldest, history.oldest].filter((at): at is number => at !== null);
    return {
      pending: queued.pending + history.pending,
      dead: queued.dead,
      oldestPendingAt: oldest.length === 0 ? null : Math.min(...oldest),
    };
  };
}

/** A pending row, or an account with its receiver on (its events come from the history). */
function senderNeededStatement(db: Database.Database): SqliteCallbacks['senderNeeded'] {
  const needed = db.prepare<[], { found: number }>(`SELECT ${ANY_PENDING_ROW} OR ${ANY_RECEIVER} AS found`);
  return () => needed.get()?.found === 1;
}

function renewStatement(db: Database.Database): SqliteCallbacks['renew'] {
  // Still due at the lease's end, as a claim leaves it: a sender that dies leaves them due then.
  const renew = db.prepare<[{ owner: string; until: number; list: string }]>(
    `UPDATE callback_queue SET lease_until = @until, due_at = @until
     WHERE seq IN (SELECT value FROM json_each(@list)) AND lease_owner = @owner AND state = 'pending'`,
  );
  return (owner, seqs, leaseUntil) => {
    renew.run({ owner, until: leaseUntil, list: JSON.stringify(seqs) });
  };
}

function hastenStatement(db: Database.Database): SqliteCallbacks['hasten'] {
  // Through the due index from `now` on: only events waiting for a try are read, never the whole queue.
  const hasten = db.prepare<[{ account: string; now: number }]>(
    `UPDATE callback_queue SET due_at = @now
     WHERE seq IN (SELECT seq FROM callback_queue INDEXED BY callback_queue_due
                   WHERE state = 'pending' AND due_at > @now AND lease_owner IS NULL AND account = @account)`,
  );
  return (account, now) => hasten.run({ account, now }).changes;
}

/**
 * Settles queue rows; `finished` holds the messages already known to go on (events settled from
 * the history). `anyPendingRow` says whether a message may have an event waiting as a row.
 */
function settleStatements(
  db: Database.Database,
  anyPendingRow: () => boolean,
): (owner: string, outcomes: readonly CallbackOutcome[], finished: Set<string>) => void {
  const sent = db.prepare<[string, string], { message_id: string }>(
    `DELETE FROM callback_queue WHERE lease_owner = ? AND seq IN (SELECT value FROM json_each(?))
     RETURNING message_id`,
  );
  const others = db.prepare<[{ owner: string; list: string }], { message_id: string; state: string }>(
    `UPDATE callback_queue AS q
     SET state = t.kind, due_at = t.next, lease_owner = NULL, lease_until = NULL, last_error = t.error
     FROM (SELECT value ->> 0 AS seq, CASE value ->> 1 WHEN 'dead' THEN 'dead' ELSE 'pending' END AS kind,
                  value ->> 2 AS next, value ->> 3 AS error FROM json_each(@list)) AS t
     WHERE q.seq = t.seq AND q.lease_owner = @owner AND q.state = 'pending'
     RETURNING message_id, state`,
  );
  // The earliest pending event of each message whose line moved on becomes due, since it was queued.
  const release = db.prepare<[string]>(
    `UPDATE callback_queue SET due_at = queued_at
     WHERE seq IN (SELECT (SELECT min(p.seq) FROM callback_queue AS p INDEXED BY callback_queue_message
                           WHERE p.message_id = j.value AND p.state = 'pending')
                   FROM json_each(?) AS j)
       AND due_at IS NULL`,
  );
  return (owner, outcomes, finished) => {
    const done = outcomes.filter((o) => o.kind === 'sent').map((o) => o.seq);
    const changed = outcomes
      .filter((o) => o.kind !== 'sent')
      .map((o) => [o.seq, o.kind, o.kind === 'retry' ? o.nextAttemptAt : null, o.error]);
    if (done.length > 0) for (const row of sent.all(owner, JSON.stringify(done))) finished.add(row.message_id);
    if (changed.length > 0) {
      for (const row of others.all({ owner, list: JSON.stringify(changed) }))
        if (row.state === 'dead') finished.add(row.message_id);
    }
    if (finished.size > 0 && anyPendingRow()) release.run(JSON.stringify([...finished]));
  };
}

type Filter = CallbackRetryFilter & Pick<CallbackQuery, 'eventState' | 'afterSeq'>;
/** Where each filter is, in the statement it is added to. */
type FilterColumns = Readonly<Record<'account' | 'messageId' | 'seq', string>> & { readonly eventState?: string };
const QUEUE_COLUMNS: FilterColumns = {
  eventState: 'q.state',
  account: 'q.account',
  messageId: 'q.message_id',
  seq: 'q.seq',
};
/** In UNSENT_EVENTS every event is pending, so the event state is no column there. */
const UNSENT_COLUMNS: FilterColumns = { account: 'o.account', messageId: 'e.message_id', seq: 'e.seq' };

/** The filters as conditions on `columns`, joined by AND, with their values in order. */
function conditionsOf(query: Filter, columns: FilterColumns): { clauses: string[]; values: Array<string | number> } {
  const clauses: string[] = [];
  const values: Array<string | number> = [];
  const add = (column: string | undefined, operator: string, value: string | number | undefined) => {
    if (column === undefined || value === undefined) return;
    clauses.push(`${column} ${operator} ?`);
    values.push(value);
  };
  add(columns.eventState, '=', query.eventState);
  add(columns.account, '=', query.account);
  add(columns.messageId, '=', query.messageId);
  add(columns.seq, '>', query.afterSeq);
  return { clauses, values };
}

function whereOf(query: Filter) {
  const { clauses, values } = conditionsOf(query, QUEUE_COLUMNS);
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, values };
}

/**
 * The queue rows and the events not sent yet from the history (pending, no try yet), oldest first.
 * Two reads, each in seq order up to the limit, merged here: a UNION ALL under one ORDER BY was
 * sorted whole, every row of both read for the first few.
 */
function listQueued(db: Database.Database, query: CallbackQuery): QueuedCallback[] {
  const limit = Math.max(0, Math.floor(query.limit));
  const queued = whereOf(query);
  const rows = db
    .prepare<unknown[], QueuedCallbackColumns>(
      `SELECT ${QUEUED_CALLBACK_COLUMNS} FROM callback_queue AS q JOIN outbox_events AS e ON e.seq = q.seq
       ${queued.sql} ORDER BY q.seq LIMIT ?`,
    )
    .all(...queued.values, limit);
  if (query.eventState === 'dead') return rows.map(queuedCallbackFromRow);
  const unsent = unsentFilter(query);
  const fromHistory = db
    .prepare<unknown[], QueuedCallbackColumns>(
      `SELECT e.seq, e.message_id, o.account, e.state, 'pending' AS event_state, e.at AS queued_at, 0 AS tries,
              CASE WHEN EXISTS (SELECT 1 FROM callback_queue AS p INDEXED BY callback_queue_message
                                WHERE p.message_id = e.message_id AND p.state = 'pending')
                   THEN NULL ELSE e.at END AS due_at,
              NULL AS last_error
       FROM ${UNSENT_EVENTS} ${unsent.sql} ORDER BY e.seq LIMIT ?`,
    )
    .all(...unsent.values, limit);
  return [...rows, ...fromHistory]
    .sort((a, b) => a.seq - b.seq)
    .slice(0, limit)
    .map(queuedCallbackFromRow);
}

/** The filters as more conditions on UNSENT_EVENTS (`e`, `o`). */
function unsentFilter(query: CallbackQuery): { sql: string; values: Array<string | number> } {
  const { clauses, values } = conditionsOf(query, UNSENT_COLUMNS);
  return { sql: clauses.map((clause) => `AND ${clause}`).join(' '), values };
}

/**
 * Dead events become pending again with a fresh budget (tries 0, queued now). Each message's
 * earliest pending event is then the only due one: a re-queued event goes before the later
 * events of its message that were not handed out yet.
 */
function retryDead(db: Database.Database, filter: CallbackRetryFilter, now: number): number {
  const { sql, values } = whereOf({ ...filter, eventState: 'dead' });
  const requeued = db
    .prepare<unknown[], { message_id: string }>(
      `UPDATE callback_queue AS q SET state = 'pending', tries = 0, queued_at = ?, due_at = NULL, last_error = NULL
       ${sql} RETURNING message_id`,
    )
    .all(now, ...values);
  if (requeued.length === 0) return 0;
  const messages = JSON.stringify([...new Set(requeued.map((row) => row.message_id))]);
  db.prepare<[number, string]>(
    `UPDATE callback_queue AS q INDEXED BY callback_queue_message
     SET due_at = CASE WHEN q.seq = (SELECT min(p.seq) FROM callback_queue AS p INDEXED BY callback_queue_message
                                     WHERE p.message_id = q.message_id AND p.state = 'pending')
                       THEN coalesce(q.due_at, ?) ELSE NULL END
     WHERE q.message_id IN (SELECT value FROM json_each(?)) AND q.state = 'pending' AND q.lease_owner IS NULL`,
  ).run(now, messages);
  return requeued.length;
}
