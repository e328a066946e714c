/**
 * The delivery engine in its own thread, as `serve` runs it (SQLite with the writer thread): the
 * messages go out to the SMSC simulator and come back delivered with their history, the event
 * loop's store never makes a delivery call (the thread makes them on the writer thread itself),
 * the counters and route reports reach /metrics, the thread runs at nice 19 on Linux while the
 * rest of the process keeps its priority, stop() leaves nothing claimed, and a thread whose
 * writer went away is started again under a new owner name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningSmsc, startSmsc } from '../../../service/delivery/simulator/index.js';
import { startDeliveryThread } from '../../../service/delivery/thread.js';
import type { DeliveryEngine } from '../../../service/delivery/engine.js';
import { FINAL_STATES, openSqliteStore, type SqliteStore } from '../../../service/store/index.js';
import { message } from '../store/contract.js';
import { niceValues, threadSchedules } from '../../helpers/thread-schedules.js';
import { waitFor } from '../../helpers/wait-for.js';

/** Each test starts a thread that loads the engine's TypeScript through tsx: seconds on a loaded machine. */
const THREAD_TEST_MS = 120_000;
const SMPP_PASSWORD = 'thread12';

const dir = mkdtempSync(join(tmpdir(), 'smskit-delivery-thread-'));
let smsc: RunningSmsc;
let routesFile: string;
let files = 0;
let engine: DeliveryEngine | undefined;
let store: SqliteStore | undefined;

beforeAll(async () => {
  smsc = await startSmsc({ systemId: 'smskit', password: SMPP_PASSWORD });
  routesFile = join(dir, 'routes.yaml');
  writeFileSync(
    routesFile,
    [
      'routes:',
      '  local:',
      '    type: smpp',
      '    host: 127.0.0.1',
      `    port: ${smsc.port}`,
      '    systemId: smskit',
      '    passwordEnv: THREAD_TEST_SMPP_PASSWORD',
      'default: local',
      '',
    ].join('\n'),
  );
  // A worker thread's environment is a copy of the process's at its start.
  process.env.THREAD_TEST_SMPP_PASSWORD = SMPP_PASSWORD;
});

afterEach(async () => {
  await engine?.stop(1_000);
  await store?.close();
  engine = undefined;
  store = undefined;
});

afterAll(async () => {
  await smsc?.close();
  delete process.env.THREAD_TEST_SMPP_PASSWORD;
  rmSync(dir, { recursive: true, force: true });
});

function openStore(): SqliteStore {
  store = openSqliteStore({ path: join(dir, `thread-${files++}.db`), writerThread: true });
  return store;
}

function startThread(on: SqliteStore, log: (line: string) => void = () => undefined): DeliveryEngine {
  const threadConnection = on.delivery.threadConnection;
  if (threadConnection === undefined) throw new Error('a SQLite store with a writer thread hands out a connection');
  engine = startDeliveryThread({
    store: { threadConnection },
    onCommitted: (wake) => on.onCommitted(wake),
    routesFile,
    timing: { pollMs: 50 },
    log,
  });
  return engine;
}

async function allFinal(on: SqliteStore, ids: readonly string[]): Promise<void> {
  await waitFor(`${ids.length} messages final`, async () => {
    const messages = await Promise.all(ids.map((id) => on.getMessage(id)));
    return messages.every((m) => m !== undefined && FINAL_STATES.has(m.state));
  });
}

describe('the delivery engine in its own thread', () => {
  it(
    "delivers over SMPP with its store calls made by the thread, never by the event loop's store",
    async () => {
      const on = openStore();
      const spies = (['claim', 'apply', 'renewLeases', 'recoverExpiredLeases'] as const).map((name) =>
        vi.spyOn(on.delivery, name),
      );
      const submits = smsc.stats.submits;
      const thread = startThread(on);
      thread.start();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await on.enqueue(message())).id);
      await allFinal(on, ids);
      for (const id of ids) {
        expect(await on.getMessage(id)).toMatchObject({ state: 'delivered', route: 'local', attempts: 1 });
        expect((await on.history(id)).map((event) => event.state)).toEqual([
          'queued',
          'sending',
          'accepted',
          'delivered',
        ]);
      }
      expect(smsc.stats.submits - submits).toBe(20);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
      // What /metrics and /healthz read: posted by the thread as they change.
      await waitFor('the counters posted', () => thread.counters.snapshot().local?.receipt_delivered === 20);
      expect(thread.counters.snapshot().local).toMatchObject({ submitted: 20, accepted: 20 });
      expect(thread.routes()).toMatchObject([{ name: 'local', kind: 'smpp', up: true, buffered: 0 }]);
    },
    THREAD_TEST_MS,
  );

  it.runIf(process.platform === 'linux')(
    'runs at nice 19 while the rest of the process keeps its priority',
    async () => {
      const before = niceValues();
      expect(before).not.toContain(19);
      const thread = startThread(openStore());
      thread.start();
      await waitFor('the route bound', () => thread.routes()[0]?.up === true);
      const during = threadSchedules();
      // Nice 19 in the normal class: the callback sender's thread alone is below it (idle class).
      expect(during.filter((thread) => thread.nice === 19)).toEqual([{ nice: 19, policy: 0 }]);
      expect(during.filter((thread) => thread.nice !== 19).every((thread) => thread.nice === before[0])).toBe(true);
    },
    THREAD_TEST_MS,
  );

  it(
    'stop() finishes what it sent and leaves nothing claimed',
    async () => {
      const on = openStore();
      const thread = startThread(on);
      thread.start();
      const ids: string[] = [];
      for (let i = 0; i < 200; i++) ids.push((await on.enqueue(message())).id);
      await waitFor('the first accepted', async () => ((await on.countByState()).accepted ?? 0) > 0);
      await thread.stop(5_000);
      engine = undefined;
      const states = await on.countByState();
      expect(states.sending ?? 0).toBe(0);
      expect(Object.values(states).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(200);
    },
    THREAD_TEST_MS,
  );

  it(
    'a thread whose writer thread went away ends and is started again under a new owner name',
    async () => {
      const on = openStore();
      const log: string[] = [];
      const thread = startThread(on, (line) => log.push(line));
      thread.start();
      const owner = thread.owner;
      await waitFor('the route bound', () => thread.routes()[0]?.up === true);
      // The store closing ends its writer thread under the running engine.
      await on.close();
      store = undefined;
      await waitFor('the restart logged', () => log.some((line) => line.includes('starting it again')), {
        timeoutMs: 30_000,
      });
      expect(log).toContain('delivery: the store writer thread went away; the delivery thread starts again');
      expect(log).toContain('delivery: the delivery thread stopped (exit code 1); starting it again in 1 s');
      await waitFor('a new owner', () => thread.owner !== owner, { timeoutMs: 10_000 });
    },
    THREAD_TEST_MS,
  );
});
