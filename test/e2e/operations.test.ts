/**
 * Operating the service from the command line, as real processes: test accounts (add --test,
 * test|live), the conformance reminder against a live target, and account passwd|unlock|list.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { runCliAsync, tempDir } from '../../tools/serve-process.js';

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
    expect((await cli(['list'])).stdout).toMatch(/^ci@example\.com\tACME\tactive,test\t\d{4}-/);
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
