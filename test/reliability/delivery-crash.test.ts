/**
 * The delivery guarantee across crashes, through the shipped CLI, against the project's simulator:
 * 20 kill -9 of `smskit serve --routes`, each the moment the SMSC logs a submit_sm it has not
 * answered (delivery-crash-check.ts; the 10 kills against Net::SMPP, the Perl SMSC that shares no
 * code with the route, are delivery-crash-net-smpp.test.ts). Then:
 *   - every acknowledged message is stored and reached `delivered`, and the SMSC received it;
 *   - a message the SMSC received more than once is flagged `possibleDuplicate` (the documented
 *     at-least-once window), and no delivery state is left `sending` or `queued`;
 *   - the kills did land in flight: some messages were left `sending` by a kill after the SMSC
 *     had received them, and every one of those was received twice and flagged.
 * And SIGTERM during delivery: a clean stop, the rest delivered after a restart.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmsc } from '../../service/delivery/simulator/index.js';
import { openSqliteStore } from '../../service/store/index.js';
import { addAccount, startServe, tempDir } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { checkCrashes, PASSWORD, send } from './delivery-crash-check.js';
import { startSimulatorSmsc } from './crash-smsc.js';

const RUNS = Number(process.env.DELIVERY_CRASH_RUNS ?? 20);
const SEED = Number(process.env.DELIVERY_CRASH_SEED ?? 4242);
const dir = tempDir('delivery-crash');

afterAll(() => {
  dir.remove();
  // The worker may run other files after this one.
  delete process.env.CRASH_SMPP_PASSWORD;
});

describe('SIGKILL during delivery', () => {
  it(`${RUNS} kills against the simulator, each on a submit: every acknowledged message delivered, duplicates only when flagged`, async () => {
    const smsc = await startSimulatorSmsc('crash');
    try {
      await checkCrashes(dir.path, smsc, RUNS, SEED);
    } finally {
      await smsc.close();
    }
  }, 600_000);
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
