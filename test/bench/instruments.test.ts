/**
 * The instruments the gateway and backlog sections measure with, which `npm test` never runs
 * otherwise: the SMSC child counts and times what it receives and starts afresh on `reset`; the
 * DLR counter tells Kannel's report types apart and times sent → acknowledged from the stamp; the
 * load generator stamps each request with its send time; the backlog is written in the store's
 * own row shape, so serve claims it as it would claim what it accepted itself.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import smpp from 'smpp';
import { afterAll, describe, expect, it } from 'vitest';
import { arrivalOf, type ReceivedCount } from '../../bench/children/smsc.js';
import { fillBacklog } from '../../bench/lib/backlog-fill.js';
import { bundleFolder, bundleModule } from '../../bench/lib/bundle.js';
import { startDlrCounter } from '../../bench/lib/dlr-counter.js';
import { kannelConfig } from '../../bench/lib/kannel.js';
import { ask, nextMessage } from '../../bench/lib/procs.js';
import { ACCOUNT_INPUT } from '../../bench/lib/serve.js';
import { openSqliteStore } from '../../service/store/index.js';
import { repoRoot } from '../helpers/cli.js';

const folder = bundleFolder(repoRoot, 'bench-instruments-test');
const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-instruments-'));
afterAll(() => {
  folder.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** A child of bench/children, bundled as the bench runs it. */
async function forkBundled(module: string, args: string[]) {
  const bundle = await bundleModule(`${repoRoot}/bench/children/${module}`, { root: repoRoot, outDir: folder.dir });
  return fork(bundle, args, { execArgv: [], env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'pipe' });
}

async function submit(port: number, count: number): Promise<void> {
  const session = smpp.connect({ host: '127.0.0.1', port });
  session.on('error', () => undefined);
  const send = (command: string, fields: Record<string, unknown>): Promise<number> =>
    new Promise((resolve) => session.send(new smpp.PDU(command, fields), (pdu) => resolve(pdu.command_status)));
  await new Promise((resolve) => session.once('connect', resolve));
  expect(await send('bind_transceiver', { system_id: 'bench', password: 'bench123' })).toBe(0);
  for (let i = 0; i < count; i++)
    expect(await send('submit_sm', { destination_addr: '14155550123', short_message: Buffer.from(`m${i}`) })).toBe(0);
  session.destroy();
}

describe('bench instruments', () => {
  it('the SMSC child counts and times the messages it receives, and a reset starts the count afresh', async () => {
    const child = await forkBundled('smsc.ts', ['bench', 'bench123', '0']);
    try {
      const { port } = await nextMessage<{ port: number }>(child, 30_000, 'SMSC child');
      const report = () => ask<{ received: ReceivedCount }>(child, { reset: false }, 10_000, 'SMSC child');
      const before = Date.now();
      await submit(port, 3);
      const { received } = await report();
      expect(received.count).toBe(3);
      expect(received.firstAt).toBeGreaterThanOrEqual(before);
      expect(received.lastAt).toBeGreaterThanOrEqual(received.firstAt);
      // The reset answers what was counted, then counts from zero.
      expect((await ask<{ received: ReceivedCount }>(child, { reset: true }, 10_000, 'reset')).received.count).toBe(3);
      expect((await report()).received).toEqual({ count: 0, firstAt: 0, lastAt: 0, thousands: [] });
      // Every 1,000th arrival is timed: the backlog section's pace over the first 10,000.
      await submit(port, 1_001);
      const after = (await report()).received;
      expect(after.count).toBe(1_001);
      expect(after.thousands).toHaveLength(1);
      expect(arrivalOf(after, 1_000)).toBeGreaterThanOrEqual(after.firstAt);
      expect(arrivalOf(after, 1_000)).toBeLessThanOrEqual(after.lastAt);
      expect(arrivalOf(after, 2_000)).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it("the DLR counter counts Kannel's report types apart and times sent → type 8 from the stamp", async () => {
    const counter = await startDlrCounter();
    try {
      expect(counter.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dlr\?type=%d&sent=$/);
      const call = async (type: number, sent: number) =>
        (await fetch(`${counter.url.replace('%d', String(type))}${sent}`)).text();
      await call(8, Date.now() - 250);
      await call(1, Date.now());
      await call(16, Date.now());
      const counts = counter.counts(true);
      expect(counts).toMatchObject({ delivered: 1, failed: 1, accepted: 1 });
      expect(counts.acceptedMs).toHaveLength(1);
      expect(counts.acceptedMs[0]).toBeGreaterThanOrEqual(250);
      expect(counter.counts()).toMatchObject({ delivered: 0, failed: 0, accepted: 0, acceptedMs: [] });
    } finally {
      await counter.close();
    }
  });

  it('the load generator, asked to, ends each request path with the time it sent it', async () => {
    const stamps: number[] = [];
    const sentAt = new Set<number>();
    const server = createServer((request, response) => {
      const stamp = /&t=(\d+)$/.exec(request.url ?? '')?.[1];
      if (stamp !== undefined) {
        stamps.push(Date.now() - Number(stamp));
        sentAt.add(Number(stamp));
      }
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const child = await forkBundled('load.ts', []);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const spec = { method: 'GET', path: '/x?a=1', headers: {} };
      const result = await ask<{ ok: number }>(
        child,
        { url, request: spec, connections: 2, seconds: 1, stampAfter: '&t=' },
        30_000,
        'load child',
      );
      expect(result.ok).toBeGreaterThan(10);
      // Every answered request was stamped (and those still in flight when the run stopped).
      expect(stamps.length).toBeGreaterThanOrEqual(result.ok);
      expect(stamps.length).toBeLessThanOrEqual(result.ok + 2);
      // Stamped when sent: never in the future, and not one time for the whole run.
      expect(Math.min(...stamps)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...stamps)).toBeLessThan(900);
      expect(sentAt.size).toBeGreaterThan(10);
    } finally {
      child.kill('SIGKILL');
      server.close();
    }
  }, 60_000);

  it("the backlog is the store's own rows: counted as queued, claimed oldest first, like an accepted message", async () => {
    const path = join(dir, 'backlog.sqlite');
    await fillBacklog(path, 500);
    const store = openSqliteStore({ path });
    try {
      expect(await store.countByState()).toEqual({ queued: 500 });
      const { id } = await store.enqueue({
        account: ACCOUNT_INPUT.emailAddress,
        keyword: ACCOUNT_INPUT.keyword,
        smsto: ACCOUNT_INPUT.smsto,
        carrierCode: 'att',
        encoding: 'gsm7',
        segments: 1,
        port: null,
        smsmsg: ACCOUNT_INPUT.smsmsg,
      });
      const [first] = await store.listOutbox({ limit: 1 });
      const accepted = await store.getMessage(id);
      const comparable = (m: typeof first) => ({ ...m, id: undefined, createdAt: undefined, updatedAt: undefined });
      expect(comparable(first)).toEqual(comparable(accepted));
      const claimed = await store.delivery.claim({
        route: 'bench',
        carriers: { except: [] },
        limit: 3,
        owner: 'test',
        now: Date.now(),
        leaseUntil: Date.now() + 60_000,
      });
      expect(claimed.map((m) => m.id)).toEqual((await store.listOutbox({ limit: 3 })).map((m) => m.id));
    } finally {
      await store.close();
    }
  });

  it("Kannel's configuration says what the section promises: spool store, one transceiver, 10 pending", () => {
    const conf = kannelConfig({
      dir: join(dir, 'kannel'),
      smscPort: 2775,
      systemId: 'bench',
      password: 'bench123',
      adminPort: 13000,
      smsboxPort: 13001,
      sendsmsPort: 13013,
      sendsmsUser: 'u',
      sendsmsPassword: 'p',
    });
    for (const line of [
      'store-type = spool',
      'transceiver-mode = true',
      'max-pending-submits = 10',
      'port = 2775',
      'smsc-username = bench',
      'sendsms-port = 13013',
    ])
      expect(conf.split('\n')).toContain(line);
    expect(conf.match(/^group = smsc$/gm)).toHaveLength(1);
  });
});
