/**
 * `smskit account set` through the shipped CLI: a callback URL (HTTPS unless allowed, checked,
 * each refusal naming its flag), a signing secret given or generated and printed once, removal,
 * and re-enabling after a receiver's 410; `account list` shows the URL and a switch-off, never
 * the secret, in text and JSON.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, tempDir } from '../../tools/serve-process.js';

const dir = tempDir('account-callback');
afterAll(() => dir.remove());
const db = join(dir.path, 'callbacks.db');
const EMAIL = 'app@example.com';
const GIVEN_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const account = (...args: string[]) => runCliAsync(['account', ...args, '--db', db]);
const set = (...args: string[]) => account('set', '--email', EMAIL, ...args);

function stored(): {
  callback_url: string | null;
  callback_secret: string | null;
  callbacks_disabled_at: number | null;
} {
  const reader = new Database(db, { readonly: true });
  try {
    return reader
      .prepare('SELECT callback_url, callback_secret, callbacks_disabled_at FROM accounts WHERE email = ?')
      .get(EMAIL) as ReturnType<typeof stored>;
  } finally {
    reader.close();
  }
}

async function listed(): Promise<{ text: string; json: Record<string, unknown>[] }> {
  const text = await account('list');
  const json = await account('list', '--json');
  expect(text.status, text.stderr).toBe(0);
  expect(json.status, json.stderr).toBe(0);
  return { text: text.stdout, json: JSON.parse(json.stdout) as Record<string, unknown>[] };
}

describe('smskit account set: callbacks', () => {
  beforeAll(async () => {
    const added = await runCliAsync(['account', 'add', '--db', db, '--email', EMAIL, '--keyword', 'ACME'], {
      env: { SMSKIT_PASSWORD: 'correct horse battery' },
    });
    expect(added.status, added.stderr).toBe(0);
  });

  it('generates a secret once when a URL is set on an account without one, and list never shows it', async () => {
    const first = await set('--callback-url', 'https://hooks.example.com/sms');
    expect(first.status, first.stderr).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${EMAIL} posts its state changes to https://hooks.example.com/sms`);
    expect(lines[1]).toMatch(/shown this once: store it/);
    const secret = lines[2] ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(stored()).toEqual({
      callback_url: 'https://hooks.example.com/sms',
      callback_secret: secret,
      callbacks_disabled_at: null,
    });
    // Setting the URL again keeps the secret, and does not print it.
    const again = await set('--callback-url', 'https://hooks.example.com/v2');
    expect(again.stdout).toBe(`${EMAIL} posts its state changes to https://hooks.example.com/v2\n`);
    expect(stored().callback_secret).toBe(secret);
    const { text, json } = await listed();
    expect(text).toContain('\tCALLBACK\n');
    expect(text).toContain('\thttps://hooks.example.com/v2\n');
    expect(json[0]).toMatchObject({ callbackUrl: 'https://hooks.example.com/v2', callbacksDisabledAt: null });
    for (const output of [text, JSON.stringify(json)]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(secret.slice('whsec_'.length, 20));
    }
  });

  it('takes a given secret, shows when a 410 switched callbacks off, and setting the URL again switches them on', async () => {
    const given = await set('--callback-secret', GIVEN_SECRET);
    expect(given.stdout).toBe(`set the callback secret of ${EMAIL}\n`);
    expect(stored().callback_secret).toBe(GIVEN_SECRET);
    const writer = new Database(db);
    writer
      .prepare('UPDATE accounts SET callbacks_disabled_at = ? WHERE email = ?')
      .run(Date.parse('2026-11-28T10:00:00Z'), EMAIL);
    writer.close();
    const { text, json } = await listed();
    expect(text).toContain('\thttps://hooks.example.com/v2 (disabled since 2026-11-28T10:00:00.000Z)\n');
    expect(json[0]).toMatchObject({ callbacksDisabledAt: '2026-11-28T10:00:00.000Z' });
    expect(JSON.stringify(json)).not.toContain(GIVEN_SECRET);
    const enabled = await set('--callback-url', 'https://hooks.example.com/v2');
    expect(enabled.status, enabled.stderr).toBe(0);
    expect(stored()).toMatchObject({ callbacks_disabled_at: null, callback_secret: GIVEN_SECRET });
  });

  it('reads the secret from standard input with --callback-secret-stdin (never in argv), checked as the flag is', async () => {
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const piped = await runCliAsync(['account', 'set', '--email', EMAIL, '--callback-secret-stdin', '--db', db], {
      input: `${other}\n`,
    });
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(`set the callback secret of ${EMAIL}\n`);
    expect(stored().callback_secret).toBe(other);
    const bad = await runCliAsync(['account', 'set', '--email', EMAIL, '--callback-secret-stdin', '--db', db], {
      input: 'whsec_short\n',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--callback-secret must be whsec_');
    expect(bad.stderr).not.toContain('whsec_short');
    const both = await set('--callback-secret', GIVEN_SECRET, '--callback-secret-stdin');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--callback-secret and --callback-secret-stdin both give the secret');
    expect(stored().callback_secret).toBe(other);
    await set('--callback-secret', GIVEN_SECRET);
  });

  it('removes the callback with --no-callback', async () => {
    const removed = await set('--no-callback');
    expect(removed.stdout).toBe(`removed the callback of ${EMAIL} (its pending callbacks are dropped)\n`);
    expect(stored().callback_url).toBeNull();
    expect((await listed()).json[0]).toMatchObject({ callbackUrl: null });
  });

  it('accepts plain http only with --allow-http-callback', async () => {
    const refused = await set('--callback-url', 'http://10.0.0.5/hook');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^smskit: --callback-url must be https:\/\/ \(plain http only with --allow-http-callback/,
    );
    const allowed = await set('--callback-url', 'http://10.0.0.5/hook', '--allow-http-callback');
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(stored().callback_url).toBe('http://10.0.0.5/hook');
  });

  it.each([
    ['--callback-url must be an absolute URL', ['--callback-url', 'hooks.example.com/sms']],
    ['--callback-url must be an https:// (or http://) URL', ['--callback-url', 'ftp://hooks.example.com/']],
    ['--callback-url must not carry credentials', ['--callback-url', 'https://user:pw@hooks.example.com/']],
    [
      '--callback-url must be at most 2048 characters',
      ['--callback-url', `https://hooks.example.com/${'a'.repeat(2048)}`],
    ],
    ['--callback-url is empty (to remove the callback, use --no-callback)', ['--callback-url', '']],
    ['--callback-secret must be whsec_ followed by the base64', ['--callback-secret', 'hunter2-not-a-secret']],
    ['(it has 16)', ['--callback-secret', `whsec_${Buffer.alloc(16).toString('base64')}`]],
    ['--callback-secret must be whsec_', ['--callback-secret', 'whsec_***']],
    ['account set needs --callback-url URL, --callback-secret whsec_… or --no-callback', []],
    ['--no-callback removes the callback', ['--no-callback', '--callback-url', 'https://x.example/']],
  ] as [string, string[]][])('refuses with "%s"', async (message, args) => {
    const before = stored();
    const result = await set(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toContain('hunter2');
    expect(stored()).toEqual(before);
  });

  it('refuses the callback flags on other actions, and an unknown account', async () => {
    const other = await account('list', '--callback-url', 'https://hooks.example.com/');
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--callback-url goes with account set only');
    const unknown = await account(
      'set',
      '--email',
      'nobody@example.com',
      '--callback-url',
      'https://hooks.example.com/',
    );
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe('smskit: no account nobody@example.com\n');
  });
});
