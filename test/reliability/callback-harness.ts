/**
 * What the callback-guarantee cases share (callback-guarantee.test.ts: kill -9, a receiver outage,
 * two instances on PostgreSQL, run side by side, each with its own harness): the SMSC
 * simulator and routes file, the account with a callback receiver, `smskit serve` as shipped,
 * clients that keep sending, the wait until every message is final and every callback sent, and
 * the audit of the receiver's log against the outbox history (callback-check.ts).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Store } from '../../service/store/index.js';
import { addAccount, runCliAsync, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';
import type { CallbackReceiver } from '../helpers/callback-receiver.js';
import { auditCallbacks } from './callback-check.js';
import { type CrashSmsc, startSimulatorSmsc } from './crash-smsc.js';

export const SEED = Number(process.env.CALLBACK_CRASH_SEED ?? 3939);
const ACCOUNT = { email: 'callbacks@example.com', keywords: ['STATUS'], password: 'callback-guarantee-password' };
export const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

export interface CallbackHarness {
  /** The case's temporary folder (databases go here). */
  readonly dir: string;
  /** `env`: variables the CLI needs beside its flags (PGPASSWORD), for this case's processes only. */
  setUpAccount(db: string, receiver: CallbackReceiver, env?: NodeJS.ProcessEnv): Promise<void>;
  serve(db: string, env?: NodeJS.ProcessEnv): Promise<ServeProcess>;
}

/** Registers the suite's set-up (a simulator SMSC, a routes file) and clean-up: call it inside a describe. */
export function useCallbackHarness(name: string): CallbackHarness {
  const dir = tempDir(name);
  let smsc: CrashSmsc;
  let routes: string;
  beforeAll(async () => {
    smsc = await startSimulatorSmsc('cback');
    process.env[smsc.passwordEnv[0]] = smsc.passwordEnv[1];
    routes = join(dir.path, 'routes.yaml');
    const lines = ['routes:', '  sim:', ...smsc.routeLines, '    throughput: 400', 'default: sim'];
    writeFileSync(routes, [...lines, 'delivery:', '  lease: 2s', ''].join('\n'));
  });
  afterAll(async () => {
    await smsc?.close();
    dir.remove();
  });
  return {
    dir: dir.path,
    setUpAccount,
    // Callbacks go while delivery runs (no holding back while serve is busy), so the kills land
    // among callbacks in flight, not only among queued ones.
    serve: (db, env = {}) =>
      startServe({
        db,
        args: ['--routes', routes, '--allow-private-callbacks', '--callback-busy-defer', '0'],
        startTimeoutMs: 60_000,
        env,
      }),
  };
}

async function setUpAccount(db: string, receiver: CallbackReceiver, env: NodeJS.ProcessEnv = {}): Promise<void> {
  await addAccount(db, ACCOUNT, env);
  const set = await runCliAsync(
    [
      'account',
      'set',
      '--db',
      db,
      '--email',
      ACCOUNT.email,
      '--callback-url',
      receiver.url,
      '--allow-http-callback',
      '--callback-secret',
      SECRET,
    ],
    { env },
  );
  expect(set.stderr).toBe('');
  expect(set.status).toBe(0);
}

/** Clients sending until `stop()` to whichever instance `target()` names; acknowledged ids kept. */
export function load(target: () => ServeProcess | undefined, prefix: string) {
  const acknowledged = new Set<string>();
  let stopped = false;
  let n = 0;
  const send = async (): Promise<void> => {
    const server = target();
    if (server === undefined) return;
    const form = new URLSearchParams({
      keyword: 'STATUS',
      emailAddress: ACCOUNT.email,
      password: ACCOUNT.password,
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: `${prefix} ${n++}`,
    });
    try {
      const response = await fetch(`${server.url}/SMSSend`, { method: 'POST', body: form });
      const id = /(SMS-[0-9A-Z]{26})</.exec(await response.text())?.[1];
      if (response.status === 200 && id !== undefined) acknowledged.add(id);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5)); // killed mid-request: not acknowledged
    }
  };
  const clients = Array.from({ length: 6 }, async () => {
    while (!stopped) await send();
  });
  return {
    acknowledged,
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Waits until every message is final and every callback sent (none pending, none dead). */
export async function drained(store: Store, expected: number, timeoutMs = 180_000): Promise<void> {
  let seen = '';
  await waitFor(
    'every message delivered and every callback sent',
    async () => {
      const counts = await store.countByState();
      const stats = await store.callbacks.callbackStats();
      seen = JSON.stringify({ counts, stats });
      return (counts.delivered ?? 0) >= expected && stats.pending === 0 && stats.dead === 0;
    },
    { timeoutMs, pollMs: 250, state: () => seen },
  );
}

export async function expectAllArrived(
  store: Store,
  ids: ReadonlySet<string>,
  receiver: CallbackReceiver,
  what: string,
) {
  const audit = await auditCallbacks(store, ids, receiver.received);
  expect(audit.unverified).toBe(0);
  expect(audit.missing).toEqual([]);
  expect(audit.wrongState).toEqual([]);
  expect(audit.outOfOrder).toEqual([]);
  // sending, accepted and delivered at the least for each message.
  expect(audit.changes).toBeGreaterThanOrEqual(ids.size * 3);
  console.log(
    `callbacks, ${what}: ${ids.size} acknowledged, ${audit.changes} state changes, ` +
      `${receiver.received.length} callbacks arrived (${audit.repeats} repeats), all in order`,
  );
}
