/**
 * A long message's parts in the outbox: every part's SMSC id in `smskit outbox --id` and in
 * `--json` (an array, in part order, for listings and for one message), and each part's own
 * state when the parts ended differently (one delivered, one undeliverable, one still waiting).
 * Recorded through the store's own delivery calls, read back through the shipped CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { formatMessageReport, messageReport, outboxReport } from '../../../service/outbox/report.js';
import { openSqliteStore, type NewMessage } from '../../../service/store/index.js';
import { runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-outbox-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const long: NewMessage = {
  account: 'alice@example.com',
  keyword: 'ACME',
  smsto: '+15551234567',
  carrierCode: 'att',
  encoding: 'gsm7',
  segments: 3,
  port: null,
  smsmsg: 'three parts',
};

it('shows every part SMSC id, and each part state when they differ, in the report, --id and --json', async () => {
  const path = join(dir, 'outbox.sqlite');
  const store = openSqliteStore({ path });
  const now = Date.parse('2026-11-01T12:00:00Z');
  const { id } = await store.enqueue(long);
  const single = (await store.enqueue({ ...long, segments: 1, smsmsg: 'one part' })).id;
  await store.delivery.claim({
    route: 'smsc',
    carriers: { except: [] },
    limit: 2,
    owner: 'w',
    now,
    leaseUntil: now + 9e4,
  });
  const owned = { owner: 'w', at: now, attempt: 1, route: 'smsc' };
  await store.delivery.apply([
    { ...owned, id, kind: 'accepted', peerIds: ['P1', 'P2', 'P3'] },
    { ...owned, id: single, kind: 'accepted', peerIds: ['S1'] },
  ]);
  const receipt = (peerId: string, state: 'delivered' | 'undeliverable') => ({
    kind: 'receipt' as const,
    route: 'smsc',
    at: now + 10,
    receipt: { peerId, state, code: state === 'delivered' ? 'DELIVRD' : 'UNDELIV', text: `stat:${state}` },
  });
  await store.delivery.apply([receipt('P1', 'delivered'), receipt('P2', 'undeliverable'), receipt('S1', 'delivered')]);

  const report = await messageReport(store, id);
  expect(report?.message).toMatchObject({
    state: 'undeliverable',
    smscId: 'P1',
    smscIds: ['P1', 'P2', 'P3'],
    parts: [
      { part: 1, smscId: 'P1', state: 'delivered' },
      { part: 2, smscId: 'P2', state: 'undeliverable' },
      { part: 3, smscId: 'P3', state: 'waiting' },
    ],
  });
  const text = formatMessageReport(report!);
  expect(text).toMatch(/^smsc id: {4}P1 P2 P3$/m);
  expect(text).toMatch(/^parts: {6}1 P1 delivered; 2 P2 undeliverable; 3 P3 waiting$/m);
  // Parts that agree need no per-part line; a one-part message has its one id.
  const [listedSingle] = await outboxReport(store, { smsto: '+15551234567', states: ['delivered'] });
  expect(listedSingle).toMatchObject({ id: single, smscIds: ['S1'] });
  expect(listedSingle?.parts).toBeUndefined();
  await store.close();

  const cliText = runCli(['outbox', '--db', path, '--id', id], { cwd: dir });
  expect(cliText.status, cliText.stderr).toBe(0);
  expect(cliText.stdout).toMatch(/^smsc id: {4}P1 P2 P3$/m);
  const cliJson = runCli(['outbox', '--db', path, '--id', id, '--json'], { cwd: dir });
  expect(JSON.parse(cliJson.stdout).message).toMatchObject({ smscIds: ['P1', 'P2', 'P3'] });
  const listing = runCli(['outbox', '--db', path, '--json'], { cwd: dir });
  const entries = JSON.parse(listing.stdout) as Array<{ id: string; smscIds: string[]; parts?: unknown[] }>;
  expect(entries.find((e) => e.id === id)).toMatchObject({ smscIds: ['P1', 'P2', 'P3'], parts: expect.any(Array) });
  expect(entries.find((e) => e.id === single)?.smscIds).toEqual(['S1']);
});
