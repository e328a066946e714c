/**
 * The callback queue's statements on SQLite (see ../callbacks.ts for what each call means, and
 * the seventh migration in ./migrations.ts for the table and the trigger that fills it).
 * Synchronous: the writes run inside a transaction their caller opens (the writer thread's batch,
 * or an immediate transaction of their own), the reads on the event loop's connection.
 *
 * A claim is two statements however many it takes (the UPDATE that leases them, one SELECT that
 * reads them from a JSON list of their seqs); a settlement is three (the sent deleted, the rest
 * updated from a JSON list, the next event of each finished message released).
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
  anyPending(): boolean;
}

export function sqliteCallbacks(db: Database.Database): SqliteCallbacks {
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
  const settle = settleStatements(db);
  const deadForAccount = db.prepare<[string, string]>(
    `UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL, last_error = ?
     WHERE account = ? AND state = 'pending'`,
  );
  const switchOff = db.prepare<[number, string]>(
    'UPDATE accounts SET callbacks_disabled_at = ? WHERE email = ? AND callbacks_disabled_at IS NULL',
  );
  const stats = db.prepare<[], { pending: number; dead: number; oldest: number | null }>(
    `SELECT (SELECT count(*) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending') AS pending,
            (SELECT count(*) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'dead') AS dead,
            (SELECT min(queued_at) FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending') AS oldest`,
  );
  return {
    claim(claim) {
      const limit = Math.max(0, Math.floor(claim.limit));
      const seqs = lease.all({ owner: claim.owner, until: claim.leaseUntil, now: claim.now, limit });
      if (seqs.length === 0) return [];
      // RETURNING gives no order, and the list is short: sorted here rather than by a temporary B-tree.
      const rows = read.all(JSON.stringify(seqs.map((row) => row.seq)));
      return rows.sort((a, b) => a.seq - b.seq).map(callbackEventFromRow);
    },
    settle,
    renew: renewStatement(db),
    disable(account, at, reason) {
      deadForAccount.run(reason, account);
      switchOff.run(at, account);
    },
    hasten: hastenStatement(db),
    retry: (filter, now) => retryDead(db, filter, now),
    list: (query) => listQueued(db, query),
    stats() {
      const row = stats.get() ?? { pending: 0, dead: 0, oldest: null };
      return { pending: row.pending, dead: row.dead, oldestPendingAt: row.oldest };
    },
    anyPending: anyPendingStatement(db),
  };
}

function anyPendingStatement(db: Database.Database): SqliteCallbacks['anyPending'] {
  const anyPending = db.prepare<[], { found: number }>(
    `SELECT EXISTS (SELECT 1 FROM callback_queue INDEXED BY callback_queue_state WHERE state = 'pending') AS found`,
  );
  return () => anyPending.get()?.found === 1;
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

function settleStatements(db: Database.Database): SqliteCallbacks['settle'] {
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
  return (owner, outcomes) => {
    if (outcomes.length === 0) return;
    const done = outcomes.filter((o) => o.kind === 'sent').map((o) => o.seq);
    const changed = outcomes
      .filter((o) => o.kind !== 'sent')
      .map((o) => [o.seq, o.kind, o.kind === 'retry' ? o.nextAttemptAt : null, o.error]);
    const finished = new Set<string>();
    if (done.length > 0) for (const row of sent.all(owner, JSON.stringify(done))) finished.add(row.message_id);
    if (changed.length > 0) {
      for (const row of others.all({ owner, list: JSON.stringify(changed) }))
        if (row.state === 'dead') finished.add(row.message_id);
    }
    if (finished.size > 0) release.run(JSON.stringify([...finished]));
  };
}

function whereOf(query: CallbackRetryFilter & Pick<CallbackQuery, 'eventState' | 'afterSeq'>) {
  const clauses: string[] = [];
  const values: Array<string | number> = [];
  if (query.eventState !== undefined) {
    clauses.push('q.state = ?');
    values.push(query.eventState);
  }
  if (query.account !== undefined) {
    clauses.push('q.account = ?');
    values.push(query.account);
  }
  if (query.messageId !== undefined) {
    clauses.push('q.message_id = ?');
    values.push(query.messageId);
  }
  if (query.afterSeq !== undefined) {
    clauses.push('q.seq > ?');
    values.push(query.afterSeq);
  }
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, values };
}

function listQueued(db: Database.Database, query: CallbackQuery): QueuedCallback[] {
  const { sql, values } = whereOf(query);
  return db
    .prepare<unknown[], QueuedCallbackColumns>(
      `SELECT ${QUEUED_CALLBACK_COLUMNS} FROM callback_queue AS q JOIN outbox_events AS e ON e.seq = q.seq
       ${sql} ORDER BY q.seq LIMIT ?`,
    )
    .all(...values, Math.max(0, Math.floor(query.limit)))
    .map(queuedCallbackFromRow);
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
