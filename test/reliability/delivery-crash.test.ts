/**
 * The delivery guarantee across crashes, through the shipped CLI: `smskit serve --routes`
 * delivers while clients send; after a seeded 10-60 acknowledgements it is SIGKILLed the moment
 * the SMSC logs its next submit_sm, before answering it, so every kill lands with at least that
 * message in flight (submitted, its answer not recorded). It is restarted on the same database
 * each time and finally left to finish. 20 kills against the project's simulator and 10 against
 * Net::SMPP (the Perl SMSC, which shares no code with the route). Then, for each SMSC:
 *   - every acknowledged message is stored and reached `delivered`, and the SMSC received it;
 *   - a message the SMSC received more than once is flagged `possibleDuplicate` (the documented
 *     at-least-once window), and no delivery state is left `sending` or `queued`;
 *   - the kills did land in flight: some messages were left `sending` by a kill after the SMSC
 *     had received them, and every one of those was received twice and flagged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmsc } from '../../service/delivery/simulator/index.js';
import { openSqliteStore, type SqliteStore, type StoredMessage } from '../../service/store/index.js';
import { addAccount, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { seededFloat } from '../helpers/seeded.js';
import { requirePeer } from '../helpers/peers.js';
import { type CrashSmsc, startNetSmppSmsc, startSimulatorSmsc } from './crash-smsc.js';

const RUNS = Number(process.env.DELIVERY_CRASH_RUNS ?? 20);
const PERL_RUNS = Number(process.env.DELIVERY_CRASH_PERL_RUNS ?? 10);
const SEED = Number(process.env.DELIVERY_CRASH_SEED ?? 4242);
const PASSWORD = 'crash-test-password';
const netSmpp = requirePeer('net-smpp', 'reliability/delivery-crash: the Net::SMPP kills');
const dir = tempDir('delivery-crash');

afterAll(() => dir.remove());

async function send(server: ServeProcess, text: string): Promise<string | undefined> {
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

function writeRoutes(smsc: CrashSmsc): string {
  const file = join(dir.path, `routes-${smsc.kind}.yaml`);
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
async function killAndFinish(smsc: CrashSmsc, runs: number, seed: number) {
  const routes = writeRoutes(smsc);
  const db = join(dir.path, `delivery-${smsc.kind}.db`);
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

async function checkCrashes(smsc: CrashSmsc, runs: number, seed: number): Promise<void> {
  const { acknowledged, messages, inFlight, killsInFlight } = await killAndFinish(smsc, runs, seed);
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

describe('SIGKILL during delivery', () => {
  it(`${RUNS} kills against the simulator, each on a submit: every acknowledged message delivered, duplicates only when flagged`, async () => {
    const smsc = await startSimulatorSmsc('crash');
    try {
      await checkCrashes(smsc, RUNS, SEED);
    } finally {
      await smsc.close();
    }
  }, 600_000);

  it.skipIf(netSmpp.skip)(
    `${PERL_RUNS} kills against Net::SMPP, each on a submit: every acknowledged message delivered, duplicates only when flagged`,
    async () => {
      const smsc = await startNetSmppSmsc();
      try {
        await checkCrashes(smsc, PERL_RUNS, SEED + 1);
      } finally {
        await smsc.close();
      }
    },
    600_000,
  );
});

describe('SIGTERM during delivery', () => {
  it('exits 0 with in-flight submits answered and unsent claims back in the queue; a restart delivers the rest', async () => {
    const smsc = await startSmsc({ systemId: 'crash', password: 'crash123', receiptDelayMs: 20 });
    process.env.CRASH_SMPP_PASSWORD = 'crash123';
    const db = join(dir.path, 'term.db');
    await addAccount(db, { email: 'crash@example.com', keywords: ['CRASH'], password: PASSWORD });
    // A cap well below the arrival rate keeps claimed messages waiting in the route when the signal comes.
    const routes = join(dir.path, 'slow-routes.yaml');
    writeFileSync(
      routes,
      [
        'routes:',
        '  sim:',
        '    type: smpp',
        '    host: 127.0.0.1',
        `    port: ${smsc.port}`,
        '    systemId: crash',
        '    passwordEnv: CRASH_SMPP_PASSWORD',
        '    throughput: 50',
        'default: sim',
        '',
      ].join('\n'),
    );
    const server = await startServe({ db, args: ['--routes', routes] });
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        for (let i = 0; i < 25; i++) {
          const id = await send(server, `term ${client}-${i}`);
          if (id !== undefined) ids.push(id);
        }
      }),
    );
    const store = openSqliteStore({ path: db, busyTimeoutMs: 2_000 });
    await waitFor('some sent', async () => {
      const counts = await store.countByState();
      return (counts.accepted ?? 0) + (counts.delivered ?? 0) >= 10;
    });
    const exit = await server.stop('SIGTERM', 30_000);
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain('finishing in-flight requests and deliveries');
    const afterStop = await store.listOutbox();
    expect(afterStop).toHaveLength(ids.length);
    expect(afterStop.filter((m) => m.state === 'sending')).toEqual([]);
    const queued = afterStop.filter((m) => m.state === 'queued');
    expect(queued.length).toBeGreaterThan(0); // the signal came with work left: the check below had work to check
    expect(queued.filter((m) => m.possibleDuplicate)).toEqual([]);

    const again = await startServe({ db, args: ['--routes', routes] });
    try {
      await waitFor(
        'the rest delivered after the restart',
        async () => (await store.listOutbox()).every((m) => m.state === 'delivered'),
        { timeoutMs: 60_000 },
      );
    } finally {
      await again.stop();
      await store.close();
      await smsc.close();
    }
  }, 120_000);
});
