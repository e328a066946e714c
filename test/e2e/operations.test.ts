/**
 * Operating the service from the command line, as real processes: test accounts (add --test,
 * test|live), the conformance reminder against a live target, account passwd|unlock|list, and
 * the outbox: filters, one message's history, --follow and prune.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { openSqliteStore, type SqliteStore } from '../../service/store/index.js';
import { repoRoot, runCliAsync, tempDir } from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';

const PASSWORD = 'correct horse battery';
const dir = tempDir('operations');
afterAll(() => dir.remove());

describe('smskit conformance --target reminds that a live service queued real messages', () => {
  let server: SmsServer;
  const db = join(dir.path, 'conformance.db');
  beforeAll(async () => {
    for (const [email, extra] of [
      ['live@example.com', []],
      ['ci@example.com', ['--test']],
    ] as const) {
      const added = await runCliAsync(['account', 'add', '--db', db, '--email', email, '--keyword', 'ACME', ...extra], {
        env: { SMSKIT_PASSWORD: PASSWORD },
      });
      expect(added.status, added.stderr).toBe(0);
    }
    server = await startSmsServer({ dbPath: db });
  });
  afterAll(async () => server?.close());

  const conformance = (email: string) =>
    runCliAsync(
      [
        'conformance',
        '--target',
        `${server.url}/serviceapi.asmx`,
        '--keyword',
        'ACME',
        '--email',
        email,
        '--to',
        '+15551234567',
        '--carrier',
        'auto',
        '--param',
        'port=5000',
        '--reporter',
        'json',
      ],
      { env: { SMSKIT_PASSWORD: PASSWORD } },
    );

  it('a live account: one line on stderr with the count of queued messages', async () => {
    const result = await conformance('live@example.com');
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.includes('queued'));
    expect(lines).toHaveLength(1);
    const queued = Number(/queued (\d+) messages? for delivery/.exec(lines[0] ?? '')?.[1]);
    const stored = (await server.app.store.countByState()).queued ?? 0;
    expect(queued).toBeGreaterThan(0);
    expect(queued).toBe(stored);
    expect(lines[0]).toContain('smskit account add --test');
  });

  it('a test account: no reminder, and its messages are stored in state test', async () => {
    const before = await server.app.store.countByState();
    const result = await conformance('ci@example.com');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/queued \d+ message/);
    const after = await server.app.store.countByState();
    expect(after.queued).toBe(before.queued);
    expect(after.test ?? 0).toBeGreaterThan(0);
  });
});

describe('smskit account', () => {
  const db = join(dir.path, 'accounts.db');
  const cli = (args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
    runCliAsync(['account', ...args, '--db', db], { env });

  it('add --test, list, live, test, passwd, unlock print what they did', async () => {
    const added = await cli(['add', '--test', '--email', 'ci@example.com', '--keyword', 'ACME'], {
      SMSKIT_PASSWORD: PASSWORD,
    });
    expect(added.stdout).toBe('added ci@example.com (keywords: ACME; test account: messages are never delivered)\n');
    expect((await cli(['list'])).stdout).toMatch(
      /^EMAIL\tKEYWORDS\tSTATUS\tCREATED\tCALLBACK\nci@example\.com\tACME\tactive,test\t\d{4}-[^\t\n]+\t-\n$/,
    );
    expect((await cli(['live', '--email', 'ci@example.com'])).stdout).toBe(
      'ci@example.com is a live account: its messages are delivered\n',
    );
    const listed = JSON.parse((await cli(['list', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ email: 'ci@example.com', test: false, disabled: false, lockedUntil: null });
    const passwd = await cli(['passwd', '--email', 'ci@example.com', '--password-stdin'], {});
    expect(passwd.status).toBe(2); // empty standard input: no password
    const changed = await runCliAsync(
      ['account', 'passwd', '--db', db, '--email', 'ci@example.com', '--password-stdin'],
      {
        input: 'a brand new password\n',
      },
    );
    expect(changed.stdout).toBe('changed the password of ci@example.com\n');
    expect((await cli(['unlock', '--email', 'ci@example.com'])).stdout).toMatch(/^unlocked ci@example\.com/);
  });

  it('refuses flags that do not go with the action, and unknown accounts, in one line', async () => {
    const wrong = await cli(['list', '--test']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe(
      'smskit: --test goes with account add only (switch an existing account with account test|live) (see smskit account --help)\n',
    );
    const unknown = await cli(['unlock', '--email', 'nobody@example.com']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('smskit: no account nobody@example.com\n');
  });
});

describe('smskit outbox', () => {
  const db = join(dir.path, 'outbox.db');
  let store: SqliteStore;
  const ids: string[] = [];
  beforeAll(async () => {
    store = openSqliteStore({ path: db });
    for (const smsto of ['+15551234567', '+447700900123'])
      ids.push(
        (
          await store.enqueue({
            account: 'alice@example.com',
            keyword: 'ACME',
            smsto,
            carrierCode: 'att',
            encoding: 'gsm7',
            segments: 1,
            port: null,
            smsmsg: 'Hello',
          })
        ).id,
      );
  });
  afterAll(async () => store?.close());
  const outbox = (args: readonly string[]) => runCliAsync(['outbox', ...args, '--db', db]);

  it('lists newest first, filters, and shows one message with its history', async () => {
    const table = await outbox([]);
    expect(table.stdout.split('\n')[0]).toMatch(
      /^ID\s+TIME\s+ACCOUNT\s+KEYWORD\s+SMSTO\s+CARRIERCODE\s+ENCODING\s+SEGMENTS\s+PORT\s+STATE$/,
    );
    expect(table.stdout.indexOf(ids[1]!)).toBeLessThan(table.stdout.indexOf(ids[0]!));
    const filtered = JSON.parse(
      (await outbox(['--json', '--to', '+447700900123', '--state', 'queued'])).stdout,
    ) as Array<{ id: string }>;
    expect(filtered.map((e) => e.id)).toEqual([ids[1]]);
    const one = await outbox(['--id', ids[0]!]);
    expect(one.status).toBe(0);
    expect(one.stdout).toContain(`id:         ${ids[0]}`);
    expect(one.stdout).toMatch(/^smsto: {6}\+15551234567 \(carrierCode att\)$/m);
    expect(one.stdout).toMatch(
      /history:\n\s+TIME\s+STATE\s+ATTEMPT\s+ROUTE\s+SMSC ID\s+DETAIL\n\s+\S+Z\s+queued\s+0\s+-\s+-\s+accepted from the client\n$/,
    );
    const json = JSON.parse((await outbox(['--id', ids[0]!, '--json'])).stdout) as {
      message: { state: string };
      history: unknown[];
    };
    expect(json.message.state).toBe('queued');
    expect(json.history).toHaveLength(1);
  });

  it.each([
    [['--limit', 'ten'], 'smskit: --limit must be a whole number from 1 to 1000000, got "ten"'],
    [['--limit', '0'], 'smskit: --limit must be a whole number from 1 to 1000000, got "0"'],
    [
      ['--state', 'sent'],
      'smskit: --state must be one of queued, sending, accepted, delivered, undeliverable, expired, rejected, failed, unknown, test (comma-separated or repeated); got "sent"',
    ],
    [
      ['--since', 'yesterday'],
      'smskit: --since must be an ISO 8601 date or time (2026-11-01, 2026-11-01T12:00:00Z) or an age such as 90m, 12h, 30d; got "yesterday"',
    ],
    [['--to', '5551234567'], 'smskit: --to must be an E.164 number as stored, e.g. +15551234567; got "5551234567"'],
    [['--id', 'nope'], 'smskit: --id must be a message id such as SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D; got "nope"'],
    [['--follow', '--interval', '5'], 'smskit: --interval must be a whole number from 50 to 60000, got "5"'],
    [['--follow', '--since', '1h'], 'smskit: --since does not go with --follow (it prints changes from now on)'],
    [['--id', 'SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D'], 'smskit: no message SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D in'],
    [['prune'], 'smskit: outbox prune needs --before (a date, or an age such as 30d)'],
    [['--before', '30d'], 'smskit: --before does not go with a listing (it goes with outbox prune)'],
  ])('%j is refused in one line', async (args, want) => {
    const result = await outbox(args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr.startsWith(want)).toBe(true);
  });

  it('--follow --json prints each state change as it is recorded, until Ctrl-C', async () => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'smskit.js'), 'outbox', '--follow', '--json', '--interval', '50', '--db', db],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const lines: Array<{ id: string; state: string; route: string | null }> = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line)));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Started once it has taken its cursors: a marker message it prints proves it.
    await waitFor('following', async () => {
      if (lines.length === 0)
        await store.enqueue({
          account: 'm@example.com',
          keyword: 'ACME',
          smsto: '+15550000000',
          carrierCode: 'att',
          encoding: 'gsm7',
          segments: 1,
          port: null,
          smsmsg: 'marker',
        });
      return lines.length > 0;
    });
    const marked = lines.length;
    const now = Date.now();
    const claimed = await store.delivery.claim({
      route: 'smsc',
      carriers: { except: [] },
      limit: 100,
      owner: 'w',
      now,
      leaseUntil: now + 60_000,
    });
    const first = claimed.find((m) => m.id === ids[0])!;
    await store.delivery.apply([
      { id: first.id, owner: 'w', at: now, attempt: first.attempt, route: 'smsc', kind: 'accepted', peerIds: ['p-1'] },
    ]);
    await waitFor('the accepted change printed', () => lines.some((l) => l.id === ids[0] && l.state === 'accepted'));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(
      lines
        .slice(marked)
        .filter((l) => l.id === ids[0])
        .map((l) => [l.state, l.route]),
    ).toEqual([
      ['sending', 'smsc'],
      ['accepted', 'smsc'],
    ]);
  });

  it('prune --before removes old finished messages (or only their text) and says how many', async () => {
    const now = Date.now();
    const sending = await store.findOutbox({ states: ['sending'] });
    await store.delivery.apply(
      sending.map((m) => ({
        id: m.id,
        owner: 'w',
        at: now,
        attempt: m.attempts,
        route: 'smsc',
        kind: 'final' as const,
        state: 'failed' as const,
        code: 'X',
        text: 'gave up',
      })),
    );
    const failed = (await store.countByState()).failed ?? 0;
    expect(failed).toBeGreaterThan(0);
    const text = await outbox(['prune', '--before', '2099-01-01', '--text-only']);
    expect(text.status).toBe(2);
    expect(text.stderr).toBe('smskit: --before must not be in the future (see smskit outbox --help)\n');
    const keepText = await outbox(['prune', '--before', '0s', '--text-only']);
    expect(keepText.stdout).toMatch(
      new RegExp(`^removed the text of ${failed + 1} messages accepted before \\S+Z\\n$`),
    );
    expect((await store.getMessage(ids[1]!))?.smsmsg).toBe('');
    const gone = await outbox(['prune', '--before', '0s', '--json']);
    expect(JSON.parse(gone.stdout)).toMatchObject({ pruned: failed + 1, mode: 'messages' });
    expect((await store.countByState()).failed ?? 0).toBe(0);
  });
});
