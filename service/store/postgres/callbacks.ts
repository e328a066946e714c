/**
 * The callback queue on PostgreSQL (the meaning of ../sqlite/callbacks.ts; the schema, trigger
 * and settle function in ./callback-schema.ts), shared by every instance on the database:
 *
 * - a claim is one statement: it locks due events `FOR UPDATE SKIP LOCKED` (two instances
 *   claiming at once take disjoint events and neither waits), leases them and reads them with
 *   their history row, message and account;
 * - a settlement is one call of smskit_settle_callbacks with the outcomes as column arrays.
 */
import type { Pool } from 'pg';
import {
  CALLBACK_EVENT_COLUMNS,
  type CallbackEventColumns,
  callbackEventFromRow,
  QUEUED_CALLBACK_COLUMNS,
  type QueuedCallbackColumns,
  queuedCallbackFromRow,
} from '../callback-rows.js';
import type { CallbackQuery, CallbackStore } from '../callbacks.js';
import type { CallbackRetryFilter } from '../sqlite/callbacks.js';
import { inTransaction, type Queryable } from './connect.js';

export const CLAIM = `WITH picked AS (
    SELECT q.seq FROM callback_queue q
    WHERE q.state = 'pending' AND q.due_at <= $1
      AND NOT EXISTS (SELECT 1 FROM callback_queue p
                      WHERE p.message_id = q.message_id AND p.seq < q.seq AND p.state = 'pending')
    ORDER BY q.due_at, q.seq LIMIT $2 FOR UPDATE OF q SKIP LOCKED),
  claimed AS (
    UPDATE callback_queue q SET tries = q.tries + 1, lease_owner = $3, lease_until = $4, due_at = $4
    FROM picked WHERE q.seq = picked.seq
    RETURNING q.seq, q.message_id, q.tries, q.queued_at)
  SELECT ${CALLBACK_EVENT_COLUMNS}
  FROM claimed JOIN outbox_events e ON e.seq = claimed.seq JOIN outbox o ON o.id = claimed.message_id
    JOIN accounts a ON a.email = o.account
  WHERE a.callback_url IS NOT NULL ORDER BY claimed.seq`;

// Still due at the lease's end, as a claim leaves it: an instance that dies leaves them due then.
const RENEW = `UPDATE callback_queue SET lease_until = $3, due_at = $3
  WHERE seq = ANY($2::bigint[]) AND lease_owner = $1 AND state = 'pending'`;
// Only events waiting for a later try; a handed-out one (leased) is its sender's.
const HASTEN = `UPDATE callback_queue SET due_at = $2
  WHERE account = $1 AND state = 'pending' AND due_at > $2 AND lease_owner IS NULL`;
const SETTLE = 'SELECT smskit_settle_callbacks($1, $2::bigint[], $3::text[], $4::bigint[], $5::text[])';

/** A pending event, or an account with its receiver on (see CallbackStore.callbackSenderNeeded). */
const SENDER_NEEDED = `SELECT EXISTS (SELECT 1 FROM callback_queue WHERE state = 'pending')
  OR EXISTS (SELECT 1 FROM accounts WHERE callback_url IS NOT NULL AND callbacks_disabled_at IS NULL) AS found`;

export const STATS = `SELECT (SELECT count(*) FROM callback_queue WHERE state = 'pending') AS pending,
  (SELECT count(*) FROM callback_queue WHERE state = 'dead') AS dead,
  (SELECT min(queued_at) FROM callback_queue WHERE state = 'pending') AS oldest`;

/** `pool` claims and settles (the sender's); `reads` lists and counts (the operator's, /metrics). */
export function postgresCallbacks(pool: Pool, reads: Queryable): CallbackStore {
  return {
    async claimCallbacks(claim) {
      const limit = Math.max(0, Math.floor(claim.limit));
      const { rows } = await pool.query<CallbackEventColumns>({
        name: 'smskit_claim_callbacks',
        text: CLAIM,
        values: [claim.now, limit, claim.owner, claim.leaseUntil],
      });
      return rows.map(callbackEventFromRow);
    },
    async settleCallbacks(owner, outcomes) {
      if (outcomes.length === 0) return;
      await pool.query({
        name: 'smskit_settle_callbacks',
        text: SETTLE,
        values: [
          owner,
          outcomes.map((o) => o.seq),
          outcomes.map((o) => o.kind),
          outcomes.map((o) => (o.kind === 'retry' ? o.nextAttemptAt : null)),
          outcomes.map((o) => (o.kind === 'sent' ? null : o.error)),
        ],
      });
    },
    renewCallbackLeases: (owner, seqs, leaseUntil) => renewLeases(pool, owner, seqs, leaseUntil),
    disableCallbacks: (account, at, reason) =>
      inTransaction(pool, async (db) => {
        await db.query(
          `UPDATE callback_queue SET state = 'dead', due_at = NULL, lease_owner = NULL, lease_until = NULL,
             last_error = $2 WHERE account = $1 AND state = 'pending'`,
          [account, reason],
        );
        await db.query(
          'UPDATE accounts SET callbacks_disabled_at = $2 WHERE email = $1 AND callbacks_disabled_at IS NULL',
          [account, at],
        );
      }),
    async hastenCallbacks(account, now) {
      const result = await pool.query({ name: 'smskit_hasten_callbacks', text: HASTEN, values: [account, now] });
      return result.rowCount ?? 0;
    },
    retryCallbacks: (filter, now) => inTransaction(pool, (db) => retryDead(db, filter, now)),
    async listCallbacks(query) {
      const { sql, values } = whereOf(query);
      const { rows } = await reads.query<QueuedCallbackColumns>(
        `SELECT ${QUEUED_CALLBACK_COLUMNS} FROM callback_queue q JOIN outbox_events e ON e.seq = q.seq
         ${sql} ORDER BY q.seq LIMIT $${values.length + 1}`,
        [...values, Math.max(0, Math.floor(query.limit))],
      );
      return rows.map(queuedCallbackFromRow);
    },
    async callbackStats() {
      const { rows } = await reads.query<{ pending: number; dead: number; oldest: number | null }>(STATS);
      const row = rows[0] ?? { pending: 0, dead: 0, oldest: null };
      return { pending: row.pending, dead: row.dead, oldestPendingAt: row.oldest };
    },
    callbackSenderNeeded: () => senderNeeded(reads),
  };
}

async function senderNeeded(reads: Queryable): Promise<boolean> {
  const { rows } = await reads.query<{ found: boolean }>(SENDER_NEEDED);
  return rows[0]?.found === true;
}

function whereOf(query: CallbackRetryFilter & Pick<CallbackQuery, 'eventState' | 'afterSeq'>) {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown): void => {
    values.push(value);
    clauses.push(clause(values.length));
  };
  if (query.eventState !== undefined) add((n) => `q.state = $${n}`, query.eventState);
  if (query.account !== undefined) add((n) => `q.account = $${n}`, query.account);
  if (query.messageId !== undefined) add((n) => `q.message_id = $${n}`, query.messageId);
  if (query.afterSeq !== undefined) add((n) => `q.seq > $${n}`, query.afterSeq);
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, values };
}

/**
 * Dead events become pending with a fresh budget (as ../sqlite/callbacks.ts): their messages'
 * outbox rows are locked first, as a settlement locks them, so a state change of one of them
 * queued meanwhile is seen; then each message's earliest pending event is its only due one.
 */
async function retryDead(db: Queryable, filter: CallbackRetryFilter, now: number): Promise<number> {
  const { sql, values } = whereOf({ ...filter, eventState: 'dead' });
  await db.query(
    `SELECT id FROM outbox WHERE id IN (SELECT q.message_id FROM callback_queue q ${sql}) ORDER BY id FOR SHARE`,
    values,
  );
  const { rows } = await db.query<{ message_id: string }>(
    `UPDATE callback_queue q SET state = 'pending', tries = 0, queued_at = $${values.length + 1}, due_at = NULL,
       last_error = NULL ${sql} RETURNING q.message_id`,
    [...values, now],
  );
  if (rows.length === 0) return 0;
  await db.query(
    `UPDATE callback_queue q
     SET due_at = CASE WHEN q.seq = (SELECT min(p.seq) FROM callback_queue p
                                     WHERE p.message_id = q.message_id AND p.state = 'pending')
                       THEN coalesce(q.due_at, $1) ELSE NULL END
     WHERE q.message_id = ANY($2::text[]) AND q.state = 'pending' AND q.lease_owner IS NULL`,
    [now, [...new Set(rows.map((row) => row.message_id))]],
  );
  return rows.length;
}

async function renewLeases(pool: Pool, owner: string, seqs: readonly number[], leaseUntil: number): Promise<void> {
  if (seqs.length === 0) return;
  await pool.query({ name: 'smskit_renew_callback_leases', text: RENEW, values: [owner, seqs, leaseUntil] });
}
