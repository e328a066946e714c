/**
 * Output that used to say nothing where a user expects a word, run from the shipped bundle:
 * `account list` with a header row and one line for an empty table, and `send --help` grouped
 * so that what goes into the message (the contract's values, each described) comes before the
 * network options.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addAccount, runCliAsync, tempDir } from '../../tools/serve-process.js';

const dir = tempDir('silences');
afterAll(() => dir.remove());

describe('smskit account list', () => {
  const db = join(dir.path, 'accounts.sqlite');
  it('an empty account table is one line saying so, with how to add one', async () => {
    expect((await runCliAsync(['db', 'migrate', '--db', db])).status).toBe(0);
    const listed = await runCliAsync(['account', 'list', '--db', db]);
    expect(listed).toMatchObject({
      status: 0,
      stdout: `no accounts in ${db} (add one: smskit account add --db ${db} --email … --keyword …)\n`,
    });
    expect((await runCliAsync(['account', 'list', '--db', db, '--json'])).stdout).toBe('[]\n');
  });

  it('accounts come under a header row naming the tab-separated columns', async () => {
    await addAccount(db, { email: 'a@example.com', keywords: ['ACME', 'PROMO'], password: 'correct horse battery' });
    const listed = await runCliAsync(['account', 'list', '--db', db]);
    expect(listed.status).toBe(0);
    const [header, row, ...rest] = listed.stdout.split('\n');
    expect(header).toBe('EMAIL\tKEYWORDS\tSTATUS\tCREATED\tCALLBACK');
    expect(row).toMatch(/^a@example\.com\tACME,PROMO\tactive\t\d{4}-\d\d-\d\dT/);
    expect(rest).toEqual(['']);
  });
});

describe('smskit send --help', () => {
  it('lists the contract values first, each described, then the service, then the network options', async () => {
    const help = await runCliAsync(['send', '--help']);
    expect(help.status).toBe(0);
    const at = (text: string): number => help.stdout.indexOf(text);
    expect(at('Contract values:')).toBeGreaterThan(0);
    expect(at('Contract values:')).toBeLessThan(at('\nService:'));
    expect(at('\nService:')).toBeLessThan(at('Network options:'));
    for (const flag of ['keyword', 'email', 'to', 'carrier', 'message', 'port'])
      expect(at(`--${flag}`), flag).toBeLessThan(at('\nService:'));
    expect(at('--url')).toBeLessThan(at('Network options:'));
    expect(at('--ca ')).toBeGreaterThan(at('Network options:'));
    expect(help.stdout).toMatch(/--keyword +Keyword registered to the account \(keyword\)/);
  });
});
