/**
 * Bad input to the service commands gets one line naming what was wrong and what to do, through
 * the shipped CLI: a mistyped flag that left a required one missing, a --limit that is not a
 * number, a callback hold that is out of range, a database folder that cannot be written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-bad-inputs-'));
const readOnly = join(dir, 'read-only');
mkdirSync(readOnly);
/** A read-only file system refuses root too; a folder without write permission only others. */
const readOnlyMount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', readOnly]).status === 0;
if (!readOnlyMount) console.log('bad-inputs: mounting a read-only tmpfs needs CAP_SYS_ADMIN: that case is skipped');
afterAll(() => {
  if (readOnlyMount) spawnSync('umount', ['-l', readOnly]);
  rmSync(dir, { recursive: true, force: true });
});

describe('bad input to the service commands', () => {
  it('names the unknown flag (with the closest real one) when it left a required flag missing', () => {
    const result = runCli(['send', '--mesage', 'hi', '--url', 'http://127.0.0.1:9/serviceapi.asmx', '--keyword', 'A'], {
      cwd: dir,
      env: { SMSKIT_PASSWORD: 'not used here' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'smskit: Unknown argument: mesage; did you mean --message? Missing required arguments: email, to, carrier, message (see smskit send --help)\n',
    );
  });

  it('keeps the plain missing-flag message when every flag given is known', () => {
    const result = runCli(['send', '--url', 'http://127.0.0.1:9/serviceapi.asmx', '--keyword', 'A'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'smskit: Missing required arguments: email, to, carrier, message (see smskit send --help)\n',
    );
  });

  it.each([['abc'], ['0'], ['2.5'], ['-3']])('refuses outbox --limit %s before opening the database', (limit) => {
    const result = runCli(['outbox', '--db', join(dir, 'none.sqlite'), '--limit', limit], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `smskit: --limit must be a whole number from 1 to 1000000, got "${limit}" (see smskit outbox --help)\n`,
    );
  });

  it.each([['-1'], ['1.5'], ['3601']])(
    'refuses serve --callback-busy-defer %s before opening the database',
    (value) => {
      const db = join(dir, 'never-opened.sqlite');
      const result = runCli(['serve', '--db', db, '--port', '0', '--callback-busy-defer', value], { cwd: dir });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('--callback-busy-defer must be an integer from 0 to 3600');
      expect(existsSync(db)).toBe(false);
    },
  );

  it.skipIf(!readOnlyMount).each([
    ['serve', ['serve', '--port', '0']],
    ['account add', ['account', 'add', '--email', 'a@example.com', '--keyword', 'ACME']],
  ])('%s: a database on a read-only file system says so and what to do', (_name, args) => {
    const db = join(readOnly, 'sms.sqlite');
    const result = runCli([...args, '--db', db], { cwd: dir, env: { SMSKIT_PASSWORD: 'a long enough password' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `smskit: cannot open the service database ${db}: its folder ${readOnly} is on a read-only file system (SQLite writes the file and its -wal and -shm files beside it); pass --db with a path in a writable folder\n`,
    );
  });
});
