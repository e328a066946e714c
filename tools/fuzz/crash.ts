/**
 * Crash rounds through the real CLI (`smskit serve`), shared by test/reliability/crash.test.ts
 * and scripts/crash-loop.ts: start the server on a database, drive load over all bindings,
 * SIGKILL it once a seeded number of messages has been acknowledged (a point in the work, not
 * in time, so a slow machine kills at the same place), repeat on the same file; then compare
 * what clients saw with the outbox (`smskit outbox --json`, and the texts read with
 * better-sqlite3, read-only).
 */
import Database from 'better-sqlite3';
import { addAccount, readOutbox, startServe } from '../serve-process.js';
import { count, startLoad, type Outcome } from './load.js';
import { Rng } from './mutate.js';

export const CRASH_ACCOUNT = {
  email: 'crash@example.com',
  keywords: ['CRASH'],
  password: 'Kestrel-Orbit-5531-pw',
} as const;

export interface CrashReport {
  readonly rounds: number;
  readonly acknowledged: number;
  readonly refused: number;
  /** Calls that got no answer (in flight at the kill, or refused connections). */
  readonly unanswered: number;
  readonly stored: number;
  /** Stored messages whose answer was lost in the crash (committed, never acknowledged). */
  readonly storedUnacknowledged: number;
  readonly problems: string[];
  readonly integrity: string;
}

export async function prepareDb(db: string): Promise<void> {
  await addAccount(db, CRASH_ACCOUNT);
}

export interface CrashRoundOptions {
  /** The kill comes once between `minAcks` and `maxAcks` messages (seeded) are acknowledged. */
  readonly minAcks: number;
  readonly maxAcks: number;
  readonly concurrency: number;
}

/**
 * One round: serve, load, SIGKILL once the seeded number of messages is acknowledged (and at
 * least one request refused, so "refused is never stored" is always exercised); returns every
 * outcome.
 */
export async function crashRound(
  db: string,
  seed: number,
  round: number,
  options: CrashRoundOptions,
): Promise<Outcome[]> {
  const serve = await startServe({ db });
  const rng = new Rng(seed, round + 1000);
  const killAt = options.minAcks + rng.int(options.maxAcks - options.minAcks + 1);
  const load = startLoad({
    url: serve.url,
    email: CRASH_ACCOUNT.email,
    password: CRASH_ACCOUNT.password,
    keyword: 'CRASH',
    concurrency: options.concurrency,
    tag: `r${round}`,
    seed: seed + round,
    timeoutMs: 30_000,
  });
  try {
    await load.until(
      `${killAt} acknowledged and 1 refused`,
      (outcomes) => count(outcomes, 'ack') >= killAt && count(outcomes, 'fault') >= 1,
    );
    await serve.kill();
  } finally {
    await load.stop();
    await serve.kill().catch(() => undefined);
  }
  return load.outcomes;
}

export async function compareWithOutbox(
  db: string,
  outcomes: readonly Outcome[],
  rounds: number,
): Promise<CrashReport> {
  const problems: string[] = [];
  const { entries } = await readOutbox(db);
  const database = new Database(db, { readonly: true, fileMustExist: true });
  let integrity: string;
  let rows: Array<{ id: string; message: string }>;
  try {
    integrity = String(database.pragma('integrity_check', { simple: true }));
    rows = database.prepare<[], { id: string; message: string }>('SELECT id, smsmsg AS message FROM outbox').all();
  } finally {
    database.close();
  }
  if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
  const reported = new Map<string, number>();
  for (const entry of entries) reported.set(entry.id, (reported.get(entry.id) ?? 0) + 1);
  const byText = new Map<string, string[]>();
  for (const row of rows) byText.set(row.message, [...(byText.get(row.message) ?? []), row.id]);
  let storedUnacknowledged = 0;
  for (const outcome of outcomes) {
    const ids = byText.get(outcome.text) ?? [];
    if (outcome.kind === 'ack') {
      if (reported.get(outcome.value) !== 1)
        problems.push(
          `acknowledged ${outcome.value} (${outcome.text}) reported ${reported.get(outcome.value) ?? 0} times by smskit outbox`,
        );
      if (ids.length !== 1 || ids[0] !== outcome.value)
        problems.push(`acknowledged ${outcome.value} (${outcome.text}) stored as ${JSON.stringify(ids)}`);
    } else if (outcome.kind === 'fault') {
      if (ids.length > 0) problems.push(`refused (${outcome.value}) "${outcome.text}" is stored as ${ids.join(', ')}`);
    } else {
      if (ids.length > 1) problems.push(`unanswered "${outcome.text}" stored ${ids.length} times`);
      storedUnacknowledged += ids.length;
    }
    if (outcome.refusal && outcome.kind === 'ack') problems.push(`"${outcome.text}" should have been refused`);
  }
  if (rows.length !== entries.length)
    problems.push(`smskit outbox lists ${entries.length} messages, the table holds ${rows.length}`);
  const acknowledged = outcomes.filter((o) => o.kind === 'ack').length;
  if (rows.length !== acknowledged + storedUnacknowledged)
    problems.push(
      `${rows.length} stored, but ${acknowledged} acknowledged + ${storedUnacknowledged} unanswered-but-stored`,
    );
  return {
    rounds,
    acknowledged,
    refused: outcomes.filter((o) => o.kind === 'fault').length,
    unanswered: outcomes.filter((o) => o.kind !== 'ack' && o.kind !== 'fault').length,
    stored: rows.length,
    storedUnacknowledged,
    problems,
    integrity,
  };
}

export function formatCrashReport(r: CrashReport): string {
  return `crash: ${r.rounds} SIGKILL rounds, ${r.acknowledged} acknowledged, ${r.stored} stored (${r.storedUnacknowledged} committed but unanswered at the kill), ${r.refused} refused (none stored), ${r.unanswered} unanswered, integrity ${r.integrity}, ${r.problems.length} problems`;
}
