/**
 * A backlog of queued messages written straight into a SQLite store, as the backlog section needs
 * it: the store creates its own schema (openStore, every migration), then one transaction inserts
 * the rows with the store's own INSERT and row shape (service/store/sqlite/outbox.ts), ids from
 * its own generator, so the rows are what acceptance would have written, only faster.
 */
import Database from 'better-sqlite3';
import { openStore } from '../../service/store/index.js';
import { createIdGenerator } from '../../service/store/ids.js';
import type { NewMessage } from '../../service/store/records.js';
import { OUTBOX_INSERT, toInsertRow } from '../../service/store/sqlite/outbox.js';
import { ACCOUNT_INPUT } from './serve.js';

/** The message every backlog row holds: what ACCOUNT_INPUT's SMSSend is stored as. */
const BACKLOG_MESSAGE: NewMessage = {
  account: ACCOUNT_INPUT.emailAddress,
  keyword: ACCOUNT_INPUT.keyword,
  smsto: ACCOUNT_INPUT.smsto,
  carrierCode: ACCOUNT_INPUT.carrierCode.toLowerCase(),
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg: ACCOUNT_INPUT.smsmsg,
};

/** Creates the store at `db` (if new) and queues `count` messages in it; returns the seconds it took. */
export async function fillBacklog(db: string, count: number): Promise<number> {
  const started = performance.now();
  const store = await openStore({ db });
  await store.close();
  const handle = new Database(db);
  try {
    // This connection only: a large page cache, so the indexes are built in memory first.
    handle.pragma('cache_size = -262144');
    const insert = handle.prepare(OUTBOX_INSERT);
    const nextId = createIdGenerator();
    // Accepted over the last minute, oldest first: ids and created_at rise together, as served.
    const from = Date.now() - 60_000;
    handle.transaction(() => {
      for (let i = 0; i < count; i++) {
        const createdAt = from + Math.floor((i * 60_000) / count);
        insert.run(toInsertRow(nextId(createdAt), createdAt, BACKLOG_MESSAGE, 'queued'));
      }
    })();
  } finally {
    handle.close();
  }
  return (performance.now() - started) / 1000;
}
