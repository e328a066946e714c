/**
 * The kill-on-submit check the delivery crash tests share (delivery-crash.test.ts against the
 * simulator, delivery-crash-net-smpp.test.ts against Net::SMPP, files of their own so that the
 * workers run them side by side): `smskit serve --routes` delivers while clients send; after a
 * seeded 10-60 acknowledgements it is SIGKILLed the moment the SMSC logs its next submit_sm,
 * before answering it; restarted on the same database each time and finally left to finish.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openSqliteStore, type SqliteStore, type StoredMessage } from '../../service/store/index.js';
import { addAccount, startServe, type ServeProcess } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { seededFloat } from '../helpers/seeded.js';
import type { CrashSmsc } from './crash-smsc.js';

export const PASSWORD = 'crash-test-password';

export async function send(server: ServeProcess, text: string): Promise<string | undefined> {
  const form = new URLSearchParams({
    keyword: 'CRASH',
    emailAddress: 'crash@example.com',
    password: PASSWORD,
    smsto: '+14155550123',
    carrierCode: 'att',
    smsmsg: text,
  });
  try {
    const response = await fetch(`${server.url}/SMSSend`, { method: 'POST', body: form });
    const body = await response.text();
    return response.status === 200 ? /(SMS-[0-9A-Z]{26})</.exec(body)?.[1] : undefined;
  } catch {
    return undefined; // the server died mid-request: not acknowledged
  }
}

function writeRoutes(dir: string, smsc: CrashSmsc): string {
  const file = join(dir, `routes-${smsc.kind}.yaml`);
  const lines = [
    'routes:',
    '  sim:',
    ...smsc.routeLines,
    '    throughput: 400',
    'default: sim',
    'delivery:',
    '  lease: 1s',
    '',
  ];
  writeFileSync(file, lines.join('\n'));
  process.env[smsc.passwordEnv[0]] = smsc.passwordEnv[1];
  return file;
}

interface Run {
  readonly acknowledged: Map<string, string>;
  /** Texts the kill left `sending` that the SMSC had already received: the in-flight window. */
  readonly inFlight: string[];
}

/** Sends until killed on the SMSC's next submit once `killAfter` are acknowledged. */
async function crashRun(
  db: string,
  store: SqliteStore,
  smsc: CrashSmsc,
  routes: string,
  run: number,
  killAfter: number,
): Promise<Run> {
  const server = await startServe({ db, args: ['--routes', routes] });
  const acknowledged = new Map<string, string>();
  let killed = false;
  let n = 0;
  const client = async (): Promise<void> => {
    while (!killed) {
      const text = `run ${run} message ${n++}`;
      const id = await send(server, text);
      if (id !== undefined) acknowledged.set(id, text);
    }
  };
  const clients = Array.from({ length: 8 }, client);
  await waitFor(`${killAfter} acknowledged in run ${run}`, () => acknowledged.size >= killAfter);
  await smsc.killOnNextSubmit(server.pid);
  await server.kill();
  killed = true;
  await Promise.all(clients);
  const received = new Set(smsc.receivedTexts());
  const sending = (await store.listOutbox()).filter((m) => m.state === 'sending');
  return { acknowledged, inFlight: sending.map((m) => m.smsmsg).filter((text) => received.has(text)) };
}

/** Kills `runs` times against `smsc`, then lets one last server deliver everything. */
async function killAndFinish(dir: string, smsc: CrashSmsc, runs: number, seed: number) {
  const routes = writeRoutes(dir, smsc);
  const db = join(dir, `delivery-${smsc.kind}.db`);
  await addAccount(db, { email: 'crash@example.com', keywords: ['CRASH'], password: PASSWORD });
  const store = openSqliteStore({ path: db, busyTimeoutMs: 2_000 });
  const random = seededFloat(seed);
  const acknowledged = new Map<string, string>();
  const inFlight = new Set<string>();
  let killsInFlight = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const result = await crashRun(db, store, smsc, routes, run, 10 + Math.floor(random() * 51));
      for (const [id, text] of result.acknowledged) acknowledged.set(id, text);
      for (const text of result.inFlight) inFlight.add(text);
      if (result.inFlight.length > 0) killsInFlight++;
    }
    const last = await startServe({ db, args: ['--routes', routes] });
    let messages: StoredMessage[] = [];
    try {
      await waitFor(
        'every acknowledged message delivered',
        async () => {
          messages = await store.listOutbox();
          return messages.length >= acknowledged.size && messages.every((m) => m.state === 'delivered');
        },
        { timeoutMs: 120_000, state: () => JSON.stringify(countStates(messages)) },
      );
    } finally {
      await last.stop();
    }
    return { acknowledged, messages, inFlight, killsInFlight };
  } finally {
    await store.close();
  }
}

function countStates(messages: readonly StoredMessage[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of messages) counts[m.state] = (counts[m.state] ?? 0) + 1;
  return counts;
}

/** `runs` kills against `smsc` (databases in `dir`), then the checks, and one line of figures. */
export async function checkCrashes(dir: string, smsc: CrashSmsc, runs: number, seed: number): Promise<void> {
  const { acknowledged, messages, inFlight, killsInFlight } = await killAndFinish(dir, smsc, runs, seed);
  const byId = new Map(messages.map((m) => [m.id, m]));
  expect([...acknowledged.keys()].filter((id) => byId.get(id)?.state !== 'delivered')).toEqual([]);
  const receivedCount = new Map<string, number>();
  for (const text of smsc.receivedTexts()) receivedCount.set(text, (receivedCount.get(text) ?? 0) + 1);
  expect([...acknowledged.values()].filter((text) => (receivedCount.get(text) ?? 0) === 0)).toEqual([]);
  const twice = messages.filter((m) => (receivedCount.get(m.smsmsg) ?? 0) > 1);
  expect(twice.filter((m) => !m.possibleDuplicate).map((m) => m.id)).toEqual([]);
  const flagged = messages.filter((m) => m.possibleDuplicate);
  // The kills landed in flight: without this, "no unflagged duplicate" would pass on kills that
  // only ever came between batches.
  expect(killsInFlight).toBeGreaterThanOrEqual(runs / 2);
  expect(flagged.length).toBeGreaterThan(0);
  expect(twice.length).toBeGreaterThan(0);
  const byText = new Map(messages.map((m) => [m.smsmsg, m]));
  expect(
    [...inFlight].filter((text) => (receivedCount.get(text) ?? 0) < 2 || !byText.get(text)?.possibleDuplicate),
  ).toEqual([]);
  console.log(
    `delivery crash vs ${smsc.kind}: ${runs} kills (${killsInFlight} with a received submit unrecorded, ` +
      `${inFlight.size} such messages), ${acknowledged.size} acknowledged, ${messages.length} stored, ` +
      `all delivered; ${twice.length} received twice (all flagged), ${flagged.length} flagged in all`,
  );
  expect(acknowledged.size).toBeGreaterThanOrEqual(runs * 10);
}
