/**
 * Callback events straight from the history, on SQLite: the sender reads each state change from
 * `outbox_events` after a cursor rather than from a queue row written with the change (that row,
 * with its three indexes, written and deleted again for every change, cost delivery a sixth of
 * its rate). A row in `callback_queue` is written only for an event that must wait: a retry, one
 * held behind an earlier event of its message still in flight, or a dead one. ./callbacks.ts
 * hands out those rows as before and this module the rest.
 *
 * The cursor (table `callback_cursor`, migration 8): every event up to `scanned` was handed out,
 * queued as a row or not wanted (its account had no receiver then); every event up to `settled`
 * was sent or queued as a row. Between the two are the events handed out and not settled, and
 * later events of their messages waiting for them: only this process knows them (./callback-memory.ts;
 * SQLite runs one `serve`), so a receiver that keeps up costs no row at all. A process that starts
 * again sends from `settled` on: at least once, the same webhook-id. SQLite gives a later commit
 * a higher seq (one writer at a time, and AUTOINCREMENT never reuses one), so nothing lands behind
 * the cursor. Every sender call bumps `turn` in its transaction, which tells the memory which
 * calls committed.
 */
import type Database from 'better-sqlite3';
import { CALLBACK_EVENT_COLUMNS, type CallbackEventColumns, callbackEventFromRow } from '../callback-rows.js';
import type { CallbackClaim, CallbackEvent, CallbackOutcome } from '../callbacks.js';
import { type Handed, type HeldEvents, NOTHING_HELD, type Waiting } from './callback-memory.js';

/** The account (`a`) has its receiver on. */
const RECEIVER_ON = 'a.callback_url IS NOT NULL AND a.callbacks_disabled_at IS NULL';
/** The change (`e`) is one the account's receiver is told of: made while the receiver was on, and it still is. */
const TOLD = `${RECEIVER_ON} AND e.seq > a.callbacks_since`;

/**
 * The events read from the history and not yet known sent (`FROM` this, as `e`, `o` and `a`):
 * after `settled`, of an account whose receiver was on at the change and still is, without a
 * queue row. Those handed out and sent since the oldest one in flight are among them until it
 * settles. CROSS JOIN keeps the history the outer loop: a range of its key, then probes.
 */
export const UNSENT_EVENTS = `outbox_events AS e CROSS JOIN outbox AS o CROSS JOIN accounts AS a
  WHERE e.seq > (SELECT settled FROM callback_cursor WHERE id = 1) AND o.id = e.message_id AND a.email = o.account
    AND ${TOLD}
    AND NOT EXISTS (SELECT 1 FROM callback_queue AS q WHERE q.seq = e.seq)`;

/** History rows a claim reads at most when looking for new events (most may be other accounts'). */
const MOST_READ = 10_000;
/**
 * Events held waiting in memory at most; beyond it a waiting event is written as a queue row. The
 * sender holds at most 2 × its concurrency events, each message has a few states: far below this.
 */
const MOST_WAITING = 10_000;
const SWITCHED_OFF = "the account's callbacks were switched off";

interface ScannedRow {
  seq: number;
  message_id: string;
  at: number;
  account: string | null;
  /** 1: its account has a receiver (switched on before this change) and no row holds the event. */
  wanted: number;
  /** 1: an earlier event of its message is pending in the queue. */
  behind: number;
}

export interface HistoryCallbacks {
  /** Starts a sender call (a claim, a settlement, a switch-off), inside its transaction. */
  begin(): void;
  /** Hands out events whose turn came or whose lease ran out (their sender died), then new ones, up to `limit` in all. */
  claim(claim: CallbackClaim, limit: number): CallbackEvent[];
  /** Settles the outcomes of events handed out here; returns the others (queue rows) and the messages that may go on. */
  settle(owner: string, outcomes: readonly CallbackOutcome[]): { rows: CallbackOutcome[]; finished: Set<string> };
  /** Extends `owner`'s leases; returns the seqs that are not this module's. */
  renew(owner: string, seqs: readonly number[], leaseUntil: number): number[];
  /** The account's receiver is gone: its events not read yet, and those waiting here, become dead rows, with `reason`. */
  dieUnread(account: string, reason: string): void;
}

export function historyCallbacks(db: Database.Database, memory: HeldEvents): HistoryCallbacks {
  return new HistoryReader(db, memory);
}

class HistoryReader implements HistoryCallbacks {
  private readonly cursor;
  private readonly setTurn;
  private readonly setScanned;
  private readonly setSettled;
  private readonly queueRow;
  private readonly unreadDie;
  private readonly scan;
  private readonly readEvents;

  constructor(
    db: Database.Database,
    private readonly memory: HeldEvents,
  ) {
    this.cursor = db.prepare<[], { scanned: number; settled: number; turn: number }>(
      'SELECT scanned, settled, turn FROM callback_cursor WHERE id = 1',
    );
    this.setTurn = db.prepare<[number]>('UPDATE callback_cursor SET turn = ? WHERE id = 1');
    this.setScanned = db.prepare<[{ scanned: number; low: number }]>(
      'UPDATE callback_cursor SET scanned = @scanned, settled = min(@scanned, @low) WHERE id = 1',
    );
    this.setSettled = db.prepare<[number]>('UPDATE callback_cursor SET settled = min(scanned, ?) WHERE id = 1');
    this.queueRow = queueRowStatement(db);
    this.unreadDie = unreadDieStatement(db);
    this.scan = scanStatement(db);
    this.readEvents = readStatement(db);
  }

  begin(): void {
    const row = this.cursor.get();
    if (row === undefined) throw new Error('callback_cursor has no row: the schema is not migrated');
    this.memory.beginTurn(row.turn);
    this.setTurn.run(row.turn + 1);
    if (!this.memory.resumed) {
      this.memory.resumed = true;
      // A previous process may have had events in flight past `settled`: send them again.
      this.setScanned.run({ scanned: row.settled, low: NOTHING_HELD });
    }
  }

  claim(claim: CallbackClaim, limit: number): CallbackEvent[] {
    const events = this.rehand(claim, limit);
    if (events.length < limit) events.push(...this.handOutNew(claim, limit - events.length));
    return events;
  }

  settle(owner: string, outcomes: readonly CallbackOutcome[]): { rows: CallbackOutcome[]; finished: Set<string> } {
    const rows: CallbackOutcome[] = [];
    const finished = new Set<string>();
    for (const outcome of outcomes) {
      const event = this.memory.handed.get(outcome.seq);
      if (event === undefined) rows.push(outcome);
      else if (event.owner === owner) this.settleHeld(outcome, event, finished);
    }
    this.setSettled.run(this.memory.lowest());
    return { rows, finished };
  }

  renew(owner: string, seqs: readonly number[], leaseUntil: number): number[] {
    const others: number[] = [];
    for (const seq of seqs) {
      const event = this.memory.handed.get(seq);
      if (event === undefined) others.push(seq);
      else if (event.owner === owner) this.memory.handed.set(seq, { ...event, leaseUntil });
    }
    return others;
  }

  dieUnread(account: string, reason: string): void {
    this.unreadDie.run({ account, reason });
    for (const event of this.memory.takeWaitingOf(account))
      this.queueRow.run({ ...waitingRow(event), state: 'dead', last_error: reason });
  }

  private settleHeld(outcome: CallbackOutcome, event: Handed, finished: Set<string>): void {
    this.memory.handed.delete(outcome.seq);
    if (outcome.kind === 'retry') {
      // Its message's later events wait behind the retry's row, as rows.
      this.queueRow.run(rowOf(outcome, event));
      for (const later of this.memory.takeWaiting(event.messageId)) this.queueRow.run(waitingRow(later));
      return;
    }
    if (outcome.kind === 'dead') this.queueRow.run(rowOf(outcome, event));
    finished.add(event.messageId);
    this.memory.next(event.messageId);
  }

  /** Events whose turn came, or whose sender did not settle them in time, to `claim.owner`, one try more. */
  private rehand(claim: CallbackClaim, limit: number): CallbackEvent[] {
    const due = this.memory.due(claim.now, limit).map(([seq, event]): [number, Handed] => {
      const handed = { ...event, owner: claim.owner, leaseUntil: claim.leaseUntil, tries: event.tries + 1 };
      this.memory.handed.set(seq, handed);
      return [seq, handed];
    });
    if (due.length === 0) return [];
    const events = this.readEvents(due);
    // Not read back: its account's receiver was switched off meanwhile. It dies as the rest did.
    const found = new Set(events.map((e) => e.seq));
    for (const [seq, event] of due) {
      if (found.has(seq)) continue;
      this.memory.handed.delete(seq);
      this.queueRow.run(rowOf({ seq, kind: 'dead', error: SWITCHED_OFF }, event));
      this.memory.next(event.messageId);
    }
    return events;
  }

  /**
   * Reads on from `scanned`: wanted events go out, or wait behind their message's earlier one.
   * Rows are stepped one at a time and the read stops at the first event there is no room for: a
   * window read whole and cut short was read again by the next claim (five times over). The
   * connection is busy while stepping, so rows to write wait until the read is done, and the
   * messages they belong to count as behind a row from then on.
   */
  private handOutNew(claim: CallbackClaim, limit: number): CallbackEvent[] {
    const held = this.memory.messagesHeld();
    const taken: [number, Handed][] = [];
    const rowsToWrite: Waiting[] = [];
    const behindRow = new Set<string>();
    let scanned = this.cursor.get()!.scanned;
    let read = 0;
    for (const row of this.scan.iterate(scanned, MOST_READ)) {
      const behind = row.behind === 1 || behindRow.has(row.message_id);
      const free = row.wanted === 1 && !behind && !held.has(row.message_id);
      if (free && taken.length >= limit) break;
      scanned = row.seq;
      read++;
      if (row.wanted !== 1 || row.account === null) continue;
      const event = { seq: row.seq, messageId: row.message_id, account: row.account, at: row.at };
      if (free) {
        const handed: Handed = { ...event, owner: claim.owner, leaseUntil: claim.leaseUntil, tries: 1 };
        this.memory.handed.set(row.seq, handed);
        held.add(row.message_id);
        taken.push([row.seq, handed]);
      } else if (behind || this.memory.waitingSize >= MOST_WAITING) {
        rowsToWrite.push(event);
        behindRow.add(row.message_id);
      } else this.memory.wait(event);
    }
    for (const event of rowsToWrite) this.queueRow.run(waitingRow(event));
    if (read > 0) this.setScanned.run({ scanned, low: this.memory.lowest() });
    return taken.length === 0 ? [] : this.readEvents(taken);
  }
}

function unreadDieStatement(db: Database.Database) {
  // The switch-off trigger does the same with its own words; this runs first, so the reason stays.
  return db.prepare<[{ account: string; reason: string }]>(
    `INSERT INTO callback_queue (seq, message_id, account, queued_at, state, last_error)
     SELECT e.seq, e.message_id, o.account, e.at, 'dead', @reason
     FROM outbox_events AS e CROSS JOIN outbox AS o CROSS JOIN accounts AS a
     WHERE e.seq > (SELECT scanned FROM callback_cursor WHERE id = 1) AND o.id = e.message_id
       AND o.account = @account AND a.email = o.account AND e.seq > a.callbacks_since
     ON CONFLICT (seq) DO NOTHING`,
  );
}

/** A queue row for an event handed out from the history that must wait (a retry) or died. */
function rowOf(outcome: Exclude<CallbackOutcome, { kind: 'sent' }>, event: Handed): QueueRow {
  return {
    seq: outcome.seq,
    message_id: event.messageId,
    queued_at: event.at,
    due_at: outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
    tries: event.tries,
    state: outcome.kind === 'retry' ? 'pending' : 'dead',
    last_error: outcome.error,
  };
}

/** A queue row for an event that waits behind an earlier one of its message (due once that one is done). */
function waitingRow(event: Waiting): QueueRow {
  return {
    seq: event.seq,
    message_id: event.messageId,
    queued_at: event.at,
    due_at: null,
    tries: 0,
    state: 'pending',
    last_error: null,
  };
}

interface QueueRow {
  seq: number;
  message_id: string;
  queued_at: number;
  due_at: number | null;
  tries: number;
  state: 'pending' | 'dead';
  last_error: string | null;
}

function queueRowStatement(db: Database.Database) {
  // The account from the message: a row written here is always for a message the outbox holds.
  // An event whose account's receiver was switched off while it was in flight dies, as the
  // account's other pending events did then.
  return db.prepare<[QueueRow]>(
    `INSERT INTO callback_queue (seq, message_id, account, queued_at, due_at, tries, state, last_error)
     SELECT @seq, @message_id, o.account, @queued_at, CASE WHEN receiver_on THEN @due_at END, @tries,
            CASE WHEN receiver_on THEN @state ELSE 'dead' END,
            CASE WHEN receiver_on OR @state = 'dead' THEN @last_error
                 ELSE 'the account''s callbacks were switched off' END
     FROM (SELECT o.account, (${RECEIVER_ON}) AS receiver_on
           FROM outbox AS o JOIN accounts AS a ON a.email = o.account WHERE o.id = @message_id) AS o
     WHERE true
     ON CONFLICT (seq) DO NOTHING`,
  );
}

function scanStatement(db: Database.Database) {
  // A range of the history by its key; each row then one probe of the outbox, the account and,
  // for a wanted one, the queue by key and by message. Unwanted rows (accounts without a
  // receiver) are read and passed over: the cursor moves on through them.
  return db.prepare<[number, number], ScannedRow>(
    `SELECT e.seq, e.message_id, e.at, o.account,
            CASE WHEN ${TOLD}
                      AND NOT EXISTS (SELECT 1 FROM callback_queue AS q WHERE q.seq = e.seq)
                 THEN 1 ELSE 0 END AS wanted,
            CASE WHEN ${TOLD}
                      AND EXISTS (SELECT 1 FROM callback_queue AS p INDEXED BY callback_queue_message
                                  WHERE p.message_id = e.message_id AND p.state = 'pending')
                 THEN 1 ELSE 0 END AS behind
     FROM outbox_events AS e LEFT JOIN outbox AS o ON o.id = e.message_id LEFT JOIN accounts AS a ON a.email = o.account
     WHERE e.seq > ? ORDER BY e.seq LIMIT ?`,
  );
}

function readStatement(db: Database.Database): (events: readonly [number, Handed][]) => CallbackEvent[] {
  const read = db.prepare<[string], CallbackEventColumns>(
    `SELECT ${CALLBACK_EVENT_COLUMNS}
     FROM (SELECT value ->> 0 AS seq, value ->> 1 AS message_id, value ->> 2 AS tries, value ->> 3 AS queued_at
           FROM json_each(?)) AS claimed
       JOIN outbox_events AS e ON e.seq = claimed.seq JOIN outbox AS o ON o.id = claimed.message_id
       JOIN accounts AS a ON a.email = o.account
     WHERE ${RECEIVER_ON}`,
  );
  return (events) => {
    const list = events.map(([seq, event]) => [seq, event.messageId, event.tries, event.at]);
    return read.all(JSON.stringify(list)).map(callbackEventFromRow);
  };
}
