/** Operating on the outbox on PostgreSQL (the same meaning as ../sqlite/outbox-query.ts). */
import type { Pool } from 'pg';
import { firstIdAt } from '../ids.js';
import type { StoredMessage } from '../records.js';
import { type HistoryChange, type OutboxQuery, PRUNABLE_STATES, type PruneMode } from '../sqlite/outbox-query.js';
import { inTransaction, type Queryable } from './connect.js';
import { COLUMNS } from './outbox.js';
import { type ChangeColumns, changeFromRow, messageFromRow, type OutboxColumns } from '../rows.js';

function whereOf(query: OutboxQuery): { sql: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown): void => {
    values.push(value);
    clauses.push(clause(values.length));
  };
  if (query.states !== undefined && query.states.length > 0) add((n) => `state = ANY($${n}::text[])`, query.states);
  if (query.smsto !== undefined) add((n) => `smsto = $${n}`, query.smsto);
  if (query.account !== undefined) add((n) => `account = $${n}`, query.account);
  if (query.since !== undefined) {
    add((n) => `id >= $${n}`, firstIdAt(query.since));
    add((n) => `created_at >= $${n}`, query.since);
  }
  return { sql: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, values };
}

const PRUNABLE = `id < $1 AND created_at < $2 AND state = ANY($3::text[])`;

export function postgresOutboxQueries(pool: Pool, db: Queryable = pool) {
  return {
    async findOutbox(query: OutboxQuery): Promise<StoredMessage[]> {
      const { sql, values } = whereOf(query);
      const order = query.order === 'oldest' ? 'ASC' : 'DESC';
      const limit = query.limit === undefined || query.limit < 0 ? null : query.limit;
      const { rows } = await db.query<OutboxColumns>(
        `SELECT ${COLUMNS} FROM outbox ${sql} ORDER BY id ${order} LIMIT $${values.length + 1}`,
        [...values, limit],
      );
      return rows.map(messageFromRow);
    },
    async historyAfter(seq: number, limit: number): Promise<HistoryChange[]> {
      const { rows } = await db.query<ChangeColumns>(
        'SELECT seq, message_id, at, state, attempt, route, smsc_id, code, text FROM outbox_events WHERE seq > $1 ORDER BY seq LIMIT $2',
        [seq, limit],
      );
      return rows.map(changeFromRow);
    },
    async lastHistorySeq(): Promise<number> {
      const { rows } = await db.query<{ seq: number | null }>('SELECT max(seq) AS seq FROM outbox_events');
      return rows[0]?.seq ?? 0;
    },
    /** One transaction: the history and parts of the pruned messages go with them. */
    pruneOutbox(before: number, mode: PruneMode): Promise<number> {
      const bound = [firstIdAt(before), before, PRUNABLE_STATES];
      return inTransaction(pool, async (client) => {
        if (mode === 'text') {
          // '' is never a stored text otherwise: the service refuses empty messages.
          const { rowCount } = await client.query(
            `UPDATE outbox SET smsmsg = '' WHERE ${PRUNABLE} AND smsmsg <> ''`,
            bound,
          );
          return rowCount ?? 0;
        }
        const pruned = `SELECT id FROM outbox WHERE ${PRUNABLE}`;
        await client.query(`DELETE FROM outbox_events WHERE message_id IN (${pruned})`, bound);
        await client.query(`DELETE FROM outbox_parts WHERE message_id IN (${pruned})`, bound);
        await client.query(`DELETE FROM callback_queue WHERE message_id IN (${pruned})`, bound);
        const { rowCount } = await client.query(`DELETE FROM outbox WHERE ${PRUNABLE}`, bound);
        return rowCount ?? 0;
      });
    },
  };
}
