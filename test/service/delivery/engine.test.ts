/**
 * The engine's decisions on a real SQLite store, with a scripted route (the route contract of
 * service/delivery/route.ts, answering as the test says): acceptance order, retries with backoff
 * and their budget, validity, permanent refusals, receipts (also overtaking their submit and for
 * unknown ids), the window, leases taken back after a crash (flagged), and a drain on stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDeliveryEngine, type DeliveryEngine } from '../../../service/delivery/engine.js';
import type { RetryPolicy } from '../../../service/delivery/policy.js';
import type { OutgoingMessage, Receipt, Route, RouteEvents, SubmitResult } from '../../../service/delivery/route.js';
import { FINAL_STATES, openSqliteStore, type NewMessage, type SqliteStore } from '../../../service/store/index.js';
import { waitFor } from '../../helpers/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

const message = (smsmsg: string, carrierCode = 'att'): NewMessage => ({
  account: 'a@example.com',
  keyword: 'ACME',
  smsto: '+14155550123',
  carrierCode,
  encoding: 'gsm7',
  segments: 1,
  port: null,
  smsmsg,
});

type Answer = (message: OutgoingMessage, attempt: number) => SubmitResult | Promise<SubmitResult>;

/** A route that answers each submit as `answer` says and records what it was given. */
class ScriptedRoute implements Route {
  readonly kind = 'smpp' as const;
  readonly submitted: OutgoingMessage[] = [];
  readonly attempts = new Map<string, number>();
  events: RouteEvents | undefined;
  inFlight = 0;
  maxInFlight = 0;
  up = true;
  closed = false;
  constructor(
    readonly name: string,
    private readonly answer: Answer,
    private readonly window = 4,
  ) {}
  start(events: RouteEvents): void {
    this.events = events;
  }
  async submit(message: OutgoingMessage): Promise<SubmitResult> {
    this.submitted.push(message);
    const attempt = (this.attempts.get(message.id) ?? 0) + 1;
    this.attempts.set(message.id, attempt);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await this.answer(message, attempt);
    } finally {
      this.inFlight--;
    }
  }
  status() {
    return { up: this.up, inFlight: this.inFlight, window: this.window, detail: 'scripted' };
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  receipt(receipt: Receipt): Promise<boolean> {
    if (this.events === undefined) throw new Error('not started');
    return this.events.receipt(receipt);
  }
}

const FAST: RetryPolicy = { maxAttempts: 3, initialBackoffMs: 10, maxBackoffMs: 40, jitter: 0, validityMs: 60_000 };

function setup(route: ScriptedRoute, options: { policy?: RetryPolicy; owner?: string; store?: SqliteStore } = {}) {
  const store = options.store ?? openSqliteStore({ path: join(dir, `engine-${counter++}.db`) });
  const logged: string[] = [];
  const engine = createDeliveryEngine({
    store: store.delivery,
    onCommitted: (wake) => store.onCommitted(wake),
    routes: [{ route, carriers: { except: [] } }],
    policy: options.policy ?? FAST,
    timing: { pollMs: 10, leaseMs: 2_000 },
    log: (line) => logged.push(line),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  });
  return { store, engine, logged };
}

async function settled(store: SqliteStore, ids: readonly string[]): Promise<void> {
  await waitFor(`${ids.length} message(s) final`, async () => {
    for (const id of ids) {
      const m = await store.getMessage(id);
      if (m === undefined || !FINAL_STATES.has(m.state)) return false;
    }
    return true;
  });
}

async function stopAll(engine: DeliveryEngine, store: SqliteStore): Promise<void> {
  await engine.stop(1_000);
  await store.close();
}

describe('sending', () => {
  it('sends in acceptance order, within the window, and records accepted with the peer id', async () => {
    let next = 0;
    // Each submit is held until the window is full (or the last message is in): the engine must
    // put more than one in flight without waiting for answers, whatever the machine's speed.
    const held: Array<() => void> = [];
    const route: ScriptedRoute = new ScriptedRoute('r', async () => {
      await new Promise<void>((resolve) => {
        held.push(resolve);
        if (route.inFlight >= 4 || route.submitted.length === 40) for (const release of held.splice(0)) release();
      });
      return { outcome: 'accepted', peerIds: [`peer-${next++}`] };
    });
    const { store, engine } = setup(route);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await store.enqueue(message(`m${i}`))).id);
    engine.start();
    await waitFor('all accepted', async () => (await store.countByState()).accepted === 40);
    expect(route.submitted.map((m) => m.smsmsg)).toEqual(ids.map((_, i) => `m${i}`));
    expect(route.maxInFlight).toBe(4);
    const first = await store.getMessage(ids[0] ?? '');
    expect(first).toMatchObject({ state: 'accepted', smscId: 'peer-0', attempts: 1, route: 'r' });
    await stopAll(engine, store);
  });

  it('wakes for a message accepted while idle', async () => {
    const route = new ScriptedRoute('r', () => ({ outcome: 'accepted', peerIds: ['p'] }));
    const { store, engine } = setup(route);
    engine.start();
    const { id } = await store.enqueue(message('late'));
    await waitFor('accepted', async () => (await store.getMessage(id))?.state === 'accepted');
    await stopAll(engine, store);
  });

  it('does not send while the route is down, and sends once it is up', async () => {
    const route = new ScriptedRoute('r', () => ({ outcome: 'accepted', peerIds: ['p'] }));
    route.up = false;
    const { store, engine } = setup(route);
    const { id } = await store.enqueue(message('waits'));
    engine.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(route.submitted).toEqual([]);
    route.up = true;
    await waitFor('accepted', async () => (await store.getMessage(id))?.state === 'accepted');
    await stopAll(engine, store);
  });
});

describe('answers', () => {
  it('retries a transient failure with backoff, then succeeds; the history shows each attempt', async () => {
    const route = new ScriptedRoute('r', (_m, attempt) =>
      attempt < 3
        ? { outcome: 'retry', code: 'ESME_RSYSERR', text: 'system error', maybeSent: false }
        : { outcome: 'accepted', peerIds: ['ok'] },
    );
    const { store, engine } = setup(route);
    const { id } = await store.enqueue(message('flaky'));
    engine.start();
    await waitFor('accepted', async () => (await store.getMessage(id))?.state === 'accepted');
    expect(await store.getMessage(id)).toMatchObject({ attempts: 3, possibleDuplicate: false });
    const history = await store.history(id);
    expect(history.map((e) => [e.state, e.attempt, e.code])).toEqual([
      ['queued', 0, null],
      ['sending', 1, null],
      ['queued', 1, 'ESME_RSYSERR'],
      ['sending', 2, null],
      ['queued', 2, 'ESME_RSYSERR'],
      ['sending', 3, null],
      ['accepted', 3, null],
    ]);
    const [, sent1, retry1, sent2] = history;
    expect((sent2?.at ?? 0) - (retry1?.at ?? 0)).toBeGreaterThanOrEqual(9);
    expect((retry1?.at ?? 0) - (sent1?.at ?? 0)).toBeGreaterThanOrEqual(0);
    await stopAll(engine, store);
  });

  it('fails after the retry budget, keeping the last error', async () => {
    const route = new ScriptedRoute('r', () => ({
      outcome: 'retry',
      code: 'TIMEOUT',
      text: 'no answer',
      maybeSent: true,
    }));
    const { store, engine } = setup(route);
    const { id } = await store.enqueue(message('never'));
    engine.start();
    await settled(store, [id]);
    expect(await store.getMessage(id)).toMatchObject({
      state: 'failed',
      attempts: 3,
      errorCode: 'TIMEOUT',
      possibleDuplicate: true,
    });
    expect((await store.getMessage(id))?.errorText).toContain('gave up after 3 attempts');
    await stopAll(engine, store);
  });

  it('expires instead of retrying past the validity period', async () => {
    const route = new ScriptedRoute('r', () => ({ outcome: 'retry', code: 'BUSY', text: 'busy', maybeSent: false }));
    const policy = { ...FAST, maxAttempts: 100, initialBackoffMs: 500, maxBackoffMs: 500, validityMs: 1_000 };
    const { store, engine } = setup(route, { policy });
    const { id } = await store.enqueue(message('short-lived'));
    engine.start();
    await settled(store, [id]);
    // Expired by the retry decision (BUSY: the next attempt would fall past validity) or, on a
    // machine slow enough to reach the second attempt late, when it came to be sent (VALIDITY).
    const expired = await store.getMessage(id);
    expect(expired).toMatchObject({ state: 'expired', attempts: 2 });
    expect(expired?.errorCode).toMatch(/^(BUSY|VALIDITY)$/);
    await stopAll(engine, store);
  });

  it('records a permanent refusal as rejected with its code, never retried', async () => {
    const route = new ScriptedRoute('r', () => ({ outcome: 'rejected', code: 'ESME_RINVDSTADR', text: 'bad number' }));
    const { store, engine } = setup(route);
    const { id } = await store.enqueue(message('nope'));
    engine.start();
    await settled(store, [id]);
    expect(await store.getMessage(id)).toMatchObject({ state: 'rejected', errorCode: 'ESME_RINVDSTADR', attempts: 1 });
    expect(route.submitted).toHaveLength(1);
    await stopAll(engine, store);
  });
});

describe('receipts', () => {
  it('a multi-part message is delivered when every part is; a failed part settles it at once', async () => {
    const route = new ScriptedRoute('r', (m) => ({ outcome: 'accepted', peerIds: [`${m.smsmsg}-1`, `${m.smsmsg}-2`] }));
    const { store, engine } = setup(route);
    const a = (await store.enqueue({ ...message('a'), segments: 2 })).id;
    const b = (await store.enqueue({ ...message('b'), segments: 2 })).id;
    engine.start();
    await waitFor('accepted', async () => (await store.countByState()).accepted === 2);
    expect(await route.receipt({ peerId: 'a-1', state: 'delivered', code: 'DELIVRD', text: 'ok' })).toBe(true);
    expect((await store.getMessage(a))?.state).toBe('accepted');
    expect(await route.receipt({ peerId: 'a-2', state: 'delivered', code: 'DELIVRD', text: 'ok' })).toBe(true);
    expect((await store.getMessage(a))?.state).toBe('delivered');
    expect(await route.receipt({ peerId: 'b-2', state: 'undeliverable', code: 'UNDELIV', text: 'err:001' })).toBe(true);
    expect(await store.getMessage(b)).toMatchObject({ state: 'undeliverable', errorCode: 'UNDELIV' });
    await stopAll(engine, store);
  });

  it('a receipt for an unknown id is answered false and counted', async () => {
    const route = new ScriptedRoute('r', () => ({ outcome: 'accepted', peerIds: ['x'] }));
    const { store, engine } = setup(route);
    engine.start();
    expect(await route.receipt({ peerId: 'nobody', state: 'delivered', code: 'DELIVRD', text: '' })).toBe(false);
    expect(engine.counters.snapshot().r?.receipt_unknown).toBe(1);
    await stopAll(engine, store);
  });

  it('a receipt that overtakes the record of its own submit still matches', async () => {
    let release: (() => void) | undefined;
    const route = new ScriptedRoute(
      'r',
      () =>
        new Promise<SubmitResult>((resolve) => {
          release = () => resolve({ outcome: 'accepted', peerIds: ['early-1'] });
        }),
    );
    const { store, engine } = setup(route);
    const { id } = await store.enqueue(message('early'));
    engine.start();
    await waitFor('submitted', () => release !== undefined);
    const matched = route.receipt({ peerId: 'early-1', state: 'delivered', code: 'DELIVRD', text: '' });
    release?.();
    expect(await matched).toBe(true);
    expect((await store.getMessage(id))?.state).toBe('delivered');
    await stopAll(engine, store);
  });
});

describe('crash and stop', () => {
  it('a dead worker’s messages come back after its lease, flagged as possible duplicates', async () => {
    const path = join(dir, `engine-${counter++}.db`);
    const store = openSqliteStore({ path });
    const ids = [(await store.enqueue(message('one'))).id, (await store.enqueue(message('two'))).id];
    // A worker that claims and then dies (never records, never renews).
    const now = Date.now();
    await store.delivery.claim({
      route: 'r',
      carriers: { except: [] },
      limit: 10,
      owner: 'dead',
      now,
      leaseUntil: now + 200,
    });
    const route = new ScriptedRoute('r', () => ({ outcome: 'accepted', peerIds: ['again'] }));
    const { engine, logged } = setup(route, { store });
    engine.start();
    await waitFor('both accepted', async () => (await store.countByState()).accepted === 2);
    for (const id of ids) {
      expect(await store.getMessage(id)).toMatchObject({ state: 'accepted', attempts: 2, possibleDuplicate: true });
    }
    expect(logged.join('\n')).toContain('flagged as possible duplicates');
    await stopAll(engine, store);
  });

  it('stop lets in-flight submits finish and returns unsent claims to the queue', async () => {
    const gates: Array<() => void> = [];
    const route = new ScriptedRoute(
      'r',
      () => new Promise<SubmitResult>((resolve) => gates.push(() => resolve({ outcome: 'accepted', peerIds: ['p'] }))),
      2,
    );
    const { store, engine } = setup(route);
    for (let i = 0; i < 10; i++) await store.enqueue(message(`s${i}`));
    engine.start();
    await waitFor('two in flight', () => gates.length === 2);
    const stopping = engine.stop(5_000);
    for (const open of gates) open();
    await stopping;
    expect(route.closed).toBe(true);
    const counts = await store.countByState();
    expect(counts).toEqual({ accepted: 2, queued: 8 });
    const returned = (await store.listOutbox()).filter((m) => m.state === 'queued');
    expect(returned.every((m) => m.attempts === 0 && !m.possibleDuplicate)).toBe(true);
    await store.close();
  });
});
