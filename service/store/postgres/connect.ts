/**
 * The connection pool to PostgreSQL, with node-postgres (`pg`) loaded only when a PostgreSQL
 * store is opened: SQLite users need not have it installed, and the CLI starts without it.
 *
 * The password never travels in the connection string the user types: node-postgres takes it
 * from PGPASSWORD or the password file (~/.pgpass, PGPASSFILE) like libpq does.
 *
 * Bounded times: connecting gives up after `connectTimeoutMs`, a statement after
 * `statementTimeoutMs`, so a database that hangs gives the client ServiceUnavailable rather than
 * an open request. An idle connection that breaks (the server restarted) is dropped by the pool,
 * which opens a fresh one for the next call: the store recovers without a restart.
 */
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { StorageError } from '../../errors.js';
import { redactUrl } from './errors.js';

/** A statement prepared under `name` on each connection the first time it runs there. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What the statements need of a client or a pool. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: readonly unknown[]): Promise<{ rows: R[] }>;
  query<R extends QueryResultRow = QueryResultRow>(statement: NamedStatement): Promise<{ rows: R[] }>;
}

export interface PoolOptions {
  readonly url: string;
  /** Most connections this process opens (default 10). */
  readonly poolSize?: number;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  /** Told of errors on idle connections (the server went away), for the log. */
  readonly onIdleError?: (error: unknown) => void;
  /** Server settings every connection of the pool starts with, e.g. `{ synchronous_commit: 'off' }`. */
  readonly settings?: Readonly<Record<string, string>>;
  /** Names the pool in pg_stat_activity (default `smskit`). */
  readonly applicationName?: string;
}

const INT8_OID = 20;

/** Loads node-postgres, or says in one line how to get it. */
async function loadPg(): Promise<typeof import('pg')> {
  try {
    const loaded = (await import('pg')) as typeof import('pg') & { default?: typeof import('pg') };
    return loaded.default ?? loaded;
  } catch {
    throw new StorageError(
      'StorageError',
      'a postgres:// database needs the pg package: npm install pg (SQLite needs nothing more)',
    );
  }
}

export async function createPool(options: PoolOptions): Promise<Pool> {
  const pg = await loadPg();
  const statementTimeout = Math.max(1000, Math.floor(options.statementTimeoutMs ?? 15_000));
  const pool = new pg.Pool({
    connectionString: options.url,
    max: Math.max(1, Math.floor(options.poolSize ?? 10)),
    connectionTimeoutMillis: Math.max(100, Math.floor(options.connectTimeoutMs ?? 5000)),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 1000,
    idle_in_transaction_session_timeout: statementTimeout * 2,
    application_name: options.applicationName ?? 'smskit',
    ...(options.settings === undefined
      ? {}
      : {
          options: Object.entries(options.settings)
            .map(([name, value]) => `-c ${name}=${value}`)
            .join(' '),
        }),
    // Times are ms since the epoch in bigint columns and counts are bigint: both fit a double.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}

/**
 * Runs `work` in one transaction on one pooled connection; rolls back on failure. `begin` may
 * add settings to the BEGIN (one round trip: a parameterless query may hold several statements).
 */
export async function inTransaction<R>(
  pool: Pool,
  work: (client: PoolClient) => Promise<R>,
  begin = 'BEGIN',
): Promise<R> {
  const client = await pool.connect();
  let broken = false;
  // A checked-out client has no listener of the pool's: a server that goes away between two
  // statements would emit 'error' unhandled and end the process. The statement fails instead.
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection itself failed: do not hand it back to the pool
    }
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** One checked-out connection for `work` (migrations), guarded like inTransaction's. */
export async function withClient<R>(pool: Pool, work: (client: PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken = false;
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

export { redactUrl };
