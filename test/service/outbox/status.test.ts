/**
 * Message status on a real store: listings newest first with filters, one message's history,
 * the history stream `--follow` reads, and retention (prune whole messages or only their text),
 * with delivery state changes recorded by the store's own delivery calls (as the engine makes them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { followOutbox } from '../../../service/outbox/follow.js';
import { formatMessageReport, messageReport, outboxReport } from '../../../service/outbox/report.js';
import { openSqliteStore, type NewMessage, type SqliteStore } from '../../../service/store/index.js';
import { waitFor } from '../../helpers/wait-for.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-outbox-status-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let store: SqliteStore;
let counter = 0;
const START = Date.parse('2026-11-01T12:00:00Z');
let now = START;
const clock = (): number => now;

beforeEach(() => {
  now = START;
  store = openSqliteStore({ path: join(dir, `outbox-${counter++}.db`), clock });
});
afterEach(async () => store.close());

function message(overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    account: 'alice@example.com',
    keyword: 'ACME',
    smsto: '+15551234567',
    carrierCode: 'att',
    encoding: 'gsm7',
    segments: 1,
    port: null,
    smsmsg: 'secret-ish body',
    ...overrides,
  };
}

/** Sends `id` through a route the way the engine records it: claimed, accepted by the peer, then a receipt. */
async function deliver(id: string, outcome: 'delivered' | 'rejected'): Promise<void> {
  const [claimed] = await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: 1,
    owner: 'w1',
    now,
    leaseUntil: now + 60_000,
  });
  expect(claimed?.id).toBe(id);
  const owned = { id, owner: 'w1', at: now, attempt: 1, route: 'smsc' };
  if (outcome === 'rejected') {
    await store.delivery.apply([
      { ...owned, kind: 'final', state: 'rejected', code: 'ESME_RINVDSTADR', text: 'invalid destination' },
    ]);
    return;
  }
  await store.delivery.apply([{ ...owned, kind: 'accepted', peerIds: [`peer-${id.slice(-4)}`] }]);
  now += 1000;
  await store.delivery.apply([
    {
      kind: 'receipt',
      route: 'smsc',
      at: now,
      receipt: { peerId: `peer-${id.slice(-4)}`, state: 'delivered', code: 'DELIVRD', text: 'stat:DELIVRD' },
    },
  ]);
}

describe('outbox status', () => {
  it('lists newest first, filtered by state, smsto, account and time', async () => {
    const first = (await store.enqueue(message())).id;
    now += 60_000;
    const second = (await store.enqueue(message({ smsto: '+447700900123', account: 'bob@example.com' }))).id;
    now += 60_000;
    const third = (await store.enqueue(message(), 'test')).id;
    await deliver(first, 'delivered');
    const ids = async (query: Parameters<typeof outboxReport>[1]) =>
      (await outboxReport(store, query)).map((e) => e.id);
    expect(await ids({})).toEqual([third, second, first]);
    expect(await ids({ states: ['delivered'] })).toEqual([first]);
    expect(await ids({ states: ['test', 'queued'] })).toEqual([third, second]);
    expect(await ids({ smsto: '+447700900123' })).toEqual([second]);
    expect(await ids({ account: 'alice@example.com' })).toEqual([third, first]);
    expect(await ids({ since: Date.parse('2026-11-01T12:01:00Z') })).toEqual([third, second]);
    expect(await ids({ limit: 1 })).toEqual([third]);
    const [delivered] = await outboxReport(store, { states: ['delivered'] });
    expect(delivered).toMatchObject({
      state: 'delivered',
      attempts: 1,
      route: 'smsc',
      smscId: `peer-${first.slice(-4)}`,
      lastError: null,
    });
  });

  it('one message with its whole history: accepted, sending, accepted by the peer, delivered', async () => {
    const { id } = await store.enqueue(message());
    await deliver(id, 'delivered');
    const report = await messageReport(store, id);
    expect(report?.history.map((e) => [e.state, e.attempt, e.route])).toEqual([
      ['queued', 0, null],
      ['sending', 1, 'smsc'],
      ['accepted', 1, 'smsc'],
      ['delivered', 1, 'smsc'],
    ]);
    const text = formatMessageReport(report!);
    expect(text).toContain(`id:         ${id}`);
    expect(text).toMatch(/state: {6}delivered \(since 2026-11-01T12:00:01\.000Z\)/);
    expect(text).toMatch(/delivered\s+1\s+smsc\s+peer-\w{4}\s+DELIVRD: stat:DELIVRD/);
    expect(text).not.toContain('secret-ish body');
    expect(await messageReport(store, 'SMS-00000000000000000000000000')).toBeUndefined();
  });

  it('follow: prints new messages and state changes as they are recorded, filtered', async () => {
    const old = (await store.enqueue(message())).id; // before following: not printed
    const seen: string[] = [];
    const stop = new AbortController();
    const following = followOutbox(store, {
      filter: { smsto: '+15551234567' },
      intervalMs: 20,
      signal: stop.signal,
      onChange: (id, event) => seen.push(`${id === old ? 'old' : 'new'} ${event.state}`),
    });
    const fresh = (await store.enqueue(message())).id;
    await store.enqueue(message({ smsto: '+447700900123' })); // filtered out
    await deliver(old, 'rejected');
    await waitFor('the changes printed', () => seen.length >= 3, { state: () => seen.join(', ') });
    await deliver(fresh, 'delivered');
    await waitFor('the delivery printed', () => seen.includes('new delivered'), { state: () => seen.join(', ') });
    stop.abort();
    await following;
    expect(seen).toEqual(['new queued', 'old sending', 'old rejected', 'new sending', 'new accepted', 'new delivered']);
  });

  it('prune: whole messages in a final state before the date go with their history; queued ones stay', async () => {
    const oldDelivered = (await store.enqueue(message())).id;
    await deliver(oldDelivered, 'delivered');
    const oldQueued = (await store.enqueue(message())).id;
    now += 86_400_000;
    const recent = (await store.enqueue(message(), 'test')).id;
    expect(await store.pruneOutbox(now - 1000, 'messages')).toBe(1);
    expect(await store.getMessage(oldDelivered)).toBeUndefined();
    expect(await store.history(oldDelivered)).toEqual([]);
    const left = store.database
      .prepare('SELECT count(*) AS n FROM outbox_events WHERE message_id = ?')
      .get(oldDelivered) as { n: number };
    expect(left.n).toBe(0);
    expect((await store.getMessage(oldQueued))?.state).toBe('queued');
    expect((await store.getMessage(recent))?.state).toBe('test');
  });

  it('prune --text-only: the text goes, the message, its state and history stay', async () => {
    const { id } = await store.enqueue(message(), 'test');
    now += 1000;
    expect(await store.pruneOutbox(now, 'text')).toBe(1);
    expect(await store.pruneOutbox(now, 'text')).toBe(0); // already gone
    expect(await store.getMessage(id)).toMatchObject({ state: 'test', smsmsg: '' });
    expect((await store.history(id)).length).toBe(1);
  });
});

describe('retention in a running service', () => {
  it('removes the text of finished messages past --keep-text, deletes those past --keep-messages, never touches queued ones', async () => {
    const { startRetention } = await import('../../../service/outbox/retention.js');
    const lines: string[] = [];
    const finished = (await store.enqueue(message(), 'test')).id;
    const waiting = (await store.enqueue(message())).id;
    now += 2 * 86_400_000;
    const fresh = (await store.enqueue(message(), 'test')).id;
    const retention = startRetention(store, { textMs: 86_400_000, intervalMs: 3_600_000 }, (l) => lines.push(l), clock);
    await waitFor('the first pass', () => lines.length > 0);
    expect(lines).toEqual(['retention: removed the text of 1 message(s), deleted 0 message(s)']);
    expect((await store.getMessage(finished))?.smsmsg).toBe('');
    expect((await store.getMessage(waiting))?.smsmsg).toBe('secret-ish body');
    expect((await store.getMessage(fresh))?.smsmsg).toBe('secret-ish body');
    retention.stop();
    const deleting = startRetention(store, { messagesMs: 86_400_000 }, (l) => lines.push(l), clock);
    expect(await deleting.run()).toEqual({ texts: 0, messages: 1 });
    deleting.stop();
    expect(await store.getMessage(finished)).toBeUndefined();
    expect((await store.getMessage(waiting))?.state).toBe('queued');
  });
});
