/**
 * The callback sender in its own thread, as `serve` runs it: the store stays on this side (the
 * in-memory queue here, its calls answered over the thread's port), the callbacks arrive signed
 * and in order, the stats come back, a failing store call is logged, close settles what it held,
 * the thread starts only once an event is queued, and on Linux it runs at nice 19 while the rest
 * of the process keeps its priority; it holds new claims back while the load it reads is busy.
 * With a store that says how (SQLite's writer thread, a PostgreSQL pool), the thread makes its
 * store calls itself, and on SQLite a sender whose writer went away starts again.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { CallbackSender } from '../../../service/callbacks/sender.js';
import { startCallbackSenderThread } from '../../../service/callbacks/thread.js';
import { newLoadBuffer, writeLoadSample } from '../../../service/threads/load-gauge.js';
import { openSqliteStore, type SqliteStore, type Store } from '../../../service/store/index.js';
import { openPostgresStore } from '../../../service/store/postgres/store.js';
import { requirePeer } from '../../helpers/peers.js';
import type { PostgresCluster } from '../../helpers/postgres-cluster.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { message } from '../store/callbacks-contract.js';
import { type CallbackReceiver, startCallbackReceiver } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { FAST, newSecret, seen } from './fixtures.js';
import { memoryCallbackStore } from './memory-store.js';

/** Each test starts a thread that loads the sender's TypeScript through tsx: seconds on a loaded machine. */
const THREAD_TEST_MS = 120_000;

let sender: CallbackSender | undefined;
let receiver: CallbackReceiver | undefined;
afterEach(async () => {
  await sender?.close(100);
  await receiver?.close();
  sender = undefined;
  receiver = undefined;
});

const dir = mkdtempSync(join(tmpdir(), 'smskit-callback-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const noPostgres = requirePeer('postgres', 'service/callbacks/thread on PostgreSQL').reason;
let cluster: Promise<PostgresCluster> | undefined;
afterAll(async () => (await cluster)?.stop());

/** A SQLite store with its writer thread, and `count` events of an account whose receiver is `url`. */
async function sqliteWithEvents(url: string, secret: string, count: number): Promise<SqliteStore> {
  const store = openSqliteStore({ path: join(dir, `thread-${files++}.db`), writerThread: true });
  return withEvents(store, url, secret, count);
}

/** One account whose receiver is `url`, and `count` messages claimed for delivery (a `sending` event each). */
async function withEvents<S extends Store>(store: S, url: string, secret: string, count: number): Promise<S> {
  const email = 'alice@example.com';
  await store.insertAccount({
    email,
    passwordHash: 'x',
    keywords: ['ACME'],
    disabled: false,
    createdAt: Date.now(),
    callbackUrl: url,
    callbackSecret: secret,
  });
  for (let i = 0; i < count; i++) await store.enqueue(message(email));
  const now = Date.now();
  await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: count,
    owner: 'w',
    now,
    leaseUntil: now + 60_000,
  });
  return store;
}

/** The nice value of each of this process's threads (field 19 of /proc/self/task/ID/stat). */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').map((task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/**
 * One event queued; the store's first claim answers with `bad()` (a throw, or what a sender cannot
 * read), the later ones as the store would. Resolves with the thread's log once the event arrived.
 */
async function sendOneAfterABadClaim(bad: () => never): Promise<string[]> {
  const secret = newSecret();
  receiver = await startCallbackReceiver(secret);
  const store = memoryCallbackStore();
  const claim = store.claimCallbacks.bind(store);
  let first = true;
  store.claimCallbacks = async (request) => {
    if (!first) return claim(request);
    first = false;
    return bad();
  };
  store.add({ messageId: 'SMS-1', state: 'sending', url: receiver.url, secret });
  const log: string[] = [];
  sender = startCallbackSenderThread({ store, settings: FAST, log: (line) => log.push(line) });
  sender.start();
  await waitFor('the event sent', () => receiver!.received.length === 1, { timeoutMs: 60_000 });
  return log;
}

/**
 * Runs the sender's thread on `store` until its 20 events are sent and settled: the receiver got
 * them all, and the store's claim, settle and renew calls on this side were never made.
 */
async function sendsWithoutTheEventLoop(store: Store): Promise<void> {
  try {
    const relayed = ['claimCallbacks', 'settleCallbacks', 'renewCallbackLeases'] as const;
    const spies = relayed.map((name) => vi.spyOn(store.callbacks, name));
    sender = startCallbackSenderThread({ store: store.callbacks, settings: FAST });
    sender.start();
    await waitFor('20 callbacks', () => receiver!.received.length >= 20, { timeoutMs: 60_000 });
    await waitFor('all settled', async () => (await store.callbacks.callbackStats()).pending === 0);
    await sender.close(1_000);
    expect(receiver!.received.every((r) => r.verified)).toBe(true);
    expect(receiver!.received.map(seen).every((r) => r.state === 'sending')).toBe(true);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    for (const spy of spies) spy.mockRestore();
    // Settled in the store: a new claim finds nothing to send again.
    const now = Date.now();
    expect(await store.callbacks.claimCallbacks({ owner: 'x', now, leaseUntil: now + 1, limit: 100 })).toEqual([]);
  } finally {
    await sender?.close(100);
    await store.close();
  }
}

describe('the callback sender thread', () => {
  it(
    'sends every event signed and in order, reports its stats, and settles all it held on close',
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = memoryCallbackStore();
      for (const state of ['sending', 'accepted', 'delivered'] as const)
        for (let i = 0; i < 20; i++) store.add({ messageId: `SMS-${i}`, state, url: receiver.url, secret });
      sender = startCallbackSenderThread({ store, settings: FAST });
      expect(sender.stats().running).toBe(false);
      sender.start();
      await waitFor('60 callbacks', () => receiver!.received.length >= 60, { timeoutMs: 60_000 });
      await waitFor('the stats', () => sender!.stats().outcomes.sent === 60);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      const states = new Map<string, string[]>();
      for (const s of receiver.received.map(seen))
        states.set(s.messageId, [...(states.get(s.messageId) ?? []), s.state]);
      for (const list of states.values()) expect(list).toEqual(['sending', 'accepted', 'delivered']);
      await sender.close(1_000);
      expect((await store.callbackStats()).pending).toBe(0);
      expect([...store.rows.values()].every((r) => r.leaseOwner === null)).toBe(true);
    },
    THREAD_TEST_MS,
  );

  it(
    "logs a failing store call with the store's message, and goes on",
    async () => {
      const log = await sendOneAfterABadClaim(() => {
        throw new Error('cannot claim callbacks to send: disk I/O error');
      });
      expect(log).toContain(
        'callbacks: claiming callback events failed: cannot claim callbacks to send: disk I/O error',
      );
    },
    THREAD_TEST_MS,
  );

  it(
    'a thread that dies is logged and started again, and sends what is due',
    async () => {
      // An answer the sender cannot read: its loop throws, and the thread ends on the unhandled error.
      const log = await sendOneAfterABadClaim(() => ({ notAList: true }) as never);
      expect(log).toContain('callbacks: the sender thread stopped (exit code 1); starting it again in 1 s');
    },
    THREAD_TEST_MS,
  );

  it(
    'starts no thread while the store needs no sender, and starts it when it does (here the first event)',
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = memoryCallbackStore();
      const looks = vi.spyOn(store, 'callbackSenderNeeded');
      // A running sender claims at every idle poll: no claim means no sender.
      const claims = vi.spyOn(store, 'claimCallbacks');
      sender = startCallbackSenderThread({ store, settings: FAST });
      sender.start();
      await waitFor('three looks at the queue', () => looks.mock.calls.length >= 3);
      expect(claims).not.toHaveBeenCalled();
      expect(sender.stats().running).toBe(false);
      store.add({ messageId: 'SMS-1', state: 'sending', url: receiver.url, secret });
      await waitFor('the event sent', () => receiver!.received.length === 1, { timeoutMs: 60_000 });
      await waitFor('the thread running', () => sender!.stats().running);
      const looked = looks.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 3 * (FAST.idlePollMs ?? 10)));
      expect(looks).toHaveBeenCalledTimes(looked);
    },
    THREAD_TEST_MS,
  );

  it(
    'logs a failing look for queued events once, and keeps looking',
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = memoryCallbackStore();
      const locked = new Error('cannot look for queued callbacks: database is locked');
      vi.spyOn(store, 'callbackSenderNeeded')
        .mockRejectedValueOnce(locked)
        .mockRejectedValueOnce(locked)
        .mockRejectedValueOnce(locked);
      store.add({ messageId: 'SMS-1', state: 'sending', url: receiver.url, secret });
      const log: string[] = [];
      sender = startCallbackSenderThread({ store, settings: FAST, log: (line) => log.push(line) });
      sender.start();
      await waitFor('the event sent', () => receiver!.received.length === 1, { timeoutMs: 60_000 });
      expect(log).toEqual([
        'callbacks: looking for queued events failed: cannot look for queued callbacks: database is locked',
      ]);
    },
    THREAD_TEST_MS,
  );

  it.skipIf(process.platform !== 'linux')(
    'runs at nice 19, the rest of the process as it was',
    async () => {
      const before = niceValues();
      expect(before).not.toContain(19);
      const store = memoryCallbackStore();
      store.add({ messageId: 'SMS-1', state: 'sending', url: 'http://127.0.0.1:9/callbacks', secret: newSecret() });
      sender = startCallbackSenderThread({ store, settings: FAST });
      sender.start();
      await waitFor('a thread at nice 19', () => niceValues().includes(19), { timeoutMs: 60_000 });
      expect(
        niceValues()
          .filter((nice) => nice !== 19)
          .every((nice) => nice === before[0]),
      ).toBe(true);
    },
    THREAD_TEST_MS,
  );

  it(
    'holds new claims back while the load it reads says busy, and sends them once it does not',
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = memoryCallbackStore();
      store.add({ messageId: 'SMS-1', state: 'sending', url: receiver.url, secret });
      const loadBuffer = newLoadBuffer();
      sender = startCallbackSenderThread({ store, settings: { ...FAST, busyDeferMs: 60_000 }, loadBuffer });
      sender.start();
      await waitFor('the first event sent', () => receiver!.received.length === 1, { timeoutMs: 60_000 });
      writeLoadSample(loadBuffer, { loop: 0.95, idleCores: 0.1 });
      await waitFor('the thread holding back', () => sender!.stats().deferring, { timeoutMs: 30_000 });
      store.add({ messageId: 'SMS-2', state: 'sending', url: receiver.url, secret });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(1);
      writeLoadSample(loadBuffer, { loop: 0.1, idleCores: 1.6 });
      await waitFor('the held event sent', () => receiver!.received.length === 2, { timeoutMs: 30_000 });
      await waitFor('no longer holding back', () => !sender!.stats().deferring);
    },
    THREAD_TEST_MS,
  );

  it(
    "on SQLite with a writer thread, makes its store calls straight to it, never through the event loop's store",
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      await sendsWithoutTheEventLoop(await sqliteWithEvents(receiver.url, secret, 20));
    },
    THREAD_TEST_MS,
  );

  it.skipIf(noPostgres !== undefined)(
    "on PostgreSQL, makes its store calls on a pool of its own, never through the event loop's store",
    async () => {
      cluster ??= startTestCluster({ settings: { fsync: 'off' } });
      const c = await cluster;
      await c.createDatabase('thread');
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = await openPostgresStore({ url: c.socketUrl('thread') });
      await sendsWithoutTheEventLoop(await withEvents(store, receiver.url, secret, 20));
    },
    THREAD_TEST_MS,
  );

  it(
    'on SQLite, a sender whose writer thread went away ends and is started again',
    async () => {
      const secret = newSecret();
      receiver = await startCallbackReceiver(secret);
      const store = await sqliteWithEvents(receiver.url, secret, 1);
      const log: string[] = [];
      sender = startCallbackSenderThread({ store: store.callbacks, settings: FAST, log: (line) => log.push(line) });
      sender.start();
      await waitFor('the event sent', () => receiver!.received.length === 1, { timeoutMs: 60_000 });
      // The store closing ends its writer thread under the running sender.
      await store.close();
      await waitFor('the restart logged', () => log.some((line) => line.includes('starting it again')), {
        timeoutMs: 30_000,
      });
      expect(log).toContain('callbacks: the store writer thread went away; the sender thread starts again');
      expect(log).toContain('callbacks: the sender thread stopped (exit code 1); starting it again in 1 s');
    },
    THREAD_TEST_MS,
  );
});
