/**
 * Routes made of routes: `failover: [primary, backup]` and `roundRobin: [a, b]`, each member an
 * SMPP route to its own SMSC. Against two Net::SMPP SMSCs (which hand out the same ids, so a
 * receipt must be matched under the member it came from) and two simulators:
 * - the backup takes over while the primary is down, and the primary's receipts still settle;
 * - a message the primary keeps failing transiently moves to the backup after `failoverAfter`;
 * - round robin spreads messages over the members that are up;
 * - /metrics and /healthz report each member.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCompositeRoute } from '../../../../service/delivery/composite-route.js';
import type { Route } from '../../../../service/delivery/route.js';
import { startSmsc, type RunningSmsc } from '../../../../service/delivery/simulator/index.js';
import { createSmppRoute } from '../../../../service/delivery/smpp/index.js';
import type { SmppRouteOptions } from '../../../../service/delivery/smpp/options.js';
import { createServiceMetrics } from '../../../../service/metrics/metrics.js';
import type { SqliteStore } from '../../../../service/store/index.js';
import { requirePeer } from '../../../helpers/peers.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { newMessage, openTestStore, type RunningEngine, runEngine, waitForState } from './engine-harness.js';
import { type PerlSmsc, routeOptions, startPerlSmsc } from './helpers.js';

const perl = requirePeer('net-smpp', 'smpp/failover');

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const member = (name: string, port: number, overrides: Partial<SmppRouteOptions> = {}): Route =>
  createSmppRoute(name, routeOptions(port, { reconnect: { initialMs: 50, maxMs: 200 }, ...overrides }));

function start(route: Route): { store: SqliteStore; running: RunningEngine } {
  const store = openTestStore();
  const running = runEngine(store, [route]);
  cleanup.push(
    () => running.stop(),
    () => store.close(),
  );
  return { store, running };
}

async function send(store: SqliteStore, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await store.enqueue(newMessage(`${label} ${i}`))).id);
  for (const id of ids) await waitForState(store, id, 'delivered');
  return ids;
}

const membersUp = (running: RunningEngine): boolean[] => running.engine.routes()[0]?.members?.map((m) => m.up) ?? [];

describe.skipIf(perl.skip)('failover against two Net::SMPP SMSCs', () => {
  it('sends through the primary, then the backup while the primary is down; receipts settle per member', async () => {
    const primary: PerlSmsc = await startPerlSmsc();
    const backup: PerlSmsc = await startPerlSmsc();
    cleanup.push(
      () => primary.close(),
      () => backup.close(),
    );
    const route = createCompositeRoute('pair', [member('primary', primary.port), member('backup', backup.port)], {
      kind: 'failover',
      failoverAfter: 2,
    });
    const { store, running } = start(route);
    await waitFor('both members up', () => membersUp(running).every(Boolean) && membersUp(running).length === 2);
    const first = await send(store, 2, 'to the primary');
    primary.close(); // the primary SMSC dies
    await waitFor('primary down', () => membersUp(running)[0] === false);
    const second = await send(store, 2, 'to the backup');
    const submits = (smsc: PerlSmsc) =>
      smsc
        .lines()
        .filter((l) => l.pdu === 'submit_sm')
        .map((l) => l.message_id);
    // Both SMSCs number from perl-000001: the same ids, told apart by the member that took them.
    expect(submits(primary)).toEqual(['perl-000001', 'perl-000002']);
    expect(submits(backup)).toEqual(['perl-000001', 'perl-000002']);
    for (const id of first) expect((await store.messageParts([id]))[0]?.route).toBe('primary');
    for (const id of second) expect((await store.messageParts([id]))[0]?.route).toBe('backup');
    expect(running.engine.counters.snapshot().pair).toMatchObject({ receipt_delivered: 4 });
    expect(running.engine.counters.snapshot().pair?.receipt_unknown).toBeUndefined();
    const health = await createServiceMetrics({ store, delivery: () => running.engine }).health();
    expect(health.status).toBe('degraded');
    expect(health.routes[0]?.members?.map((m) => [m.name, m.up])).toEqual([
      ['primary', false],
      ['backup', true],
    ]);
  });

  it('moves a message to the backup after failoverAfter transient failures on the primary', async () => {
    const failing = await startPerlSmsc(['--submit-status', '8']); // ESME_RSYSERR: transient
    const backup = await startPerlSmsc();
    cleanup.push(
      () => failing.close(),
      () => backup.close(),
    );
    const route = createCompositeRoute('pair', [member('primary', failing.port), member('backup', backup.port)], {
      kind: 'failover',
      failoverAfter: 2,
    });
    const { store, running } = start(route);
    await waitFor('both members up', () => membersUp(running).length === 2 && membersUp(running).every(Boolean));
    const [id] = await send(store, 1, 'primary failing');
    expect(failing.lines().filter((l) => l.pdu === 'submit_sm')).toHaveLength(2); // attempts 1 and 2
    expect(backup.lines().filter((l) => l.pdu === 'submit_sm')).toHaveLength(1); // attempt 3
    const history = await store.history(id as string);
    expect(history.filter((e) => e.state === 'queued' && e.code === 'ESME_RSYSERR')).toHaveLength(2);
    expect(history.find((e) => e.state === 'accepted')).toMatchObject({ attempt: 3, route: 'backup' });
  });
});

describe('failover and round robin against two simulators', () => {
  async function twoSimulators(): Promise<[RunningSmsc, RunningSmsc]> {
    const a = await startSmsc({ systemId: 'smskit', password: 'secret' });
    const b = await startSmsc({ systemId: 'smskit', password: 'secret' });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    return [a, b];
  }

  it('round robin spreads messages over both members and reports each in /metrics', async () => {
    const [a, b] = await twoSimulators();
    const route = createCompositeRoute('spread', [member('a', a.port), member('b', b.port)], {
      kind: 'roundRobin',
      failoverAfter: 1,
    });
    const { store, running } = start(route);
    await waitFor('both members up', () => membersUp(running).length === 2 && membersUp(running).every(Boolean));
    await send(store, 10, 'spread');
    expect(a.received.length + b.received.length).toBe(10);
    expect(a.received.length).toBeGreaterThanOrEqual(3);
    expect(b.received.length).toBeGreaterThanOrEqual(3);
    expect(running.engine.counters.snapshot().spread).toMatchObject({ receipt_delivered: 10 });
    const { text } = await createServiceMetrics({ store, delivery: () => running.engine }).render();
    expect(text).toContain('smskit_route_member_up{route="spread",member="a"} 1');
    expect(text).toContain('smskit_route_member_up{route="spread",member="b"} 1');
  });

  it('a primary that stalls: the message moves to the backup after one transient failure, flagged', async () => {
    const stalled = await startSmsc({ systemId: 'smskit', password: 'secret', answerSubmits: false });
    const backup = await startSmsc({ systemId: 'smskit', password: 'secret' });
    cleanup.push(
      () => stalled.close(),
      () => backup.close(),
    );
    const route = createCompositeRoute(
      'pair',
      [member('primary', stalled.port, { responseTimeoutMs: 200 }), member('backup', backup.port)],
      { kind: 'failover', failoverAfter: 1 },
    );
    const { store, running } = start(route);
    await waitFor('both members up', () => membersUp(running).length === 2 && membersUp(running).every(Boolean));
    const [id] = await send(store, 1, 'stalled primary');
    expect(stalled.stats.submits).toBe(1);
    expect(backup.received).toHaveLength(1);
    // The primary may have taken it (no answer came): the resend is flagged.
    expect(await store.getMessage(id as string)).toMatchObject({ possibleDuplicate: true, state: 'delivered' });
  });
});
