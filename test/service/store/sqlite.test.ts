/** The store contract (contract.ts) on SQLite: a fresh file per test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../../service/store/index.js';
import { UNSENT_EVENTS } from '../../../service/store/sqlite/callback-cursor.js';
import { describeStore } from './contract.js';

/** Events read from the history and not sent, with the queue rows of those that wait. */
const PENDING_CALLBACKS = `SELECT (SELECT count(*) FROM ${UNSENT_EVENTS})
  + (SELECT count(*) FROM callback_queue WHERE state = 'pending') AS n`;

const dir = mkdtempSync(join(tmpdir(), 'smskit-store-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

describeStore('sqlite', {
  async fresh(options = {}) {
    const path = join(dir, `contract-${counter++}.db`);
    const store = openSqliteStore({ ...options, path });
    return {
      store,
      another: async (more = {}) => openSqliteStore({ ...more, path }),
      dispose: () => store.close(),
      rolledBack: async (statements, count) => rolledBack(store, statements, count),
      pendingCallbacksSql: PENDING_CALLBACKS,
    };
  },
});

// The same contract with the hot-path writes on the writer thread, as `smskit serve` runs them.
describeStore('sqlite, writer thread', {
  async fresh(options = {}) {
    const path = join(dir, `contract-${counter++}.db`);
    const store = openSqliteStore({ ...options, path, writerThread: true });
    return {
      store,
      another: async (more = {}) => openSqliteStore({ ...more, path, writerThread: true }),
      dispose: () => store.close(),
      rolledBack: async (statements, count) => rolledBack(store, statements, count),
      pendingCallbacksSql: PENDING_CALLBACKS,
    };
  },
});

function rolledBack(store: SqliteStore, statements: string, count: string): number {
  const db = store.database;
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(statements);
    return (db.prepare(count).get() as { n: number }).n;
  } finally {
    db.exec('ROLLBACK');
  }
}
