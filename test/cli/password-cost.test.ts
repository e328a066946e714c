/**
 * SMSKIT_SCRYPT_LOG_N through the shipped CLI: the cost `account add` and `account passwd` hash
 * with (the stored hash carries it), the default when unset, and a clear refusal, before any
 * prompt or write, for a value outside 10-20.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliAsync, tempDir } from '../../tools/serve-process.js';

const dir = tempDir('password-cost');
afterAll(() => dir.remove());
const PASSWORD = { SMSKIT_PASSWORD: 'correct horse battery' };
let counter = 0;

function storedCost(db: string, email: string): string | undefined {
  const reader = new Database(db, { readonly: true });
  try {
    const row = reader.prepare('SELECT password_hash FROM accounts WHERE email = ?').get(email) as
      | { password_hash: string }
      | undefined;
    return row === undefined ? undefined : /^\$scrypt\$([^$]+)\$/.exec(row.password_hash)?.[1];
  } finally {
    reader.close();
  }
}

async function add(logN: string): Promise<{ db: string; status: number | null; stderr: string }> {
  const db = join(dir.path, `cost-${counter++}.db`);
  const args = ['account', 'add', '--db', db, '--email', 'app@example.com', '--keyword', 'ACME'];
  const result = await runCliAsync(args, { env: { ...PASSWORD, SMSKIT_SCRYPT_LOG_N: logN } });
  return { db, status: result.status, stderr: result.stderr };
}

describe('SMSKIT_SCRYPT_LOG_N: the cost of new password hashes', () => {
  it('unset, account add hashes at the default N = 2^15', async () => {
    const added = await add('');
    expect(added.status, added.stderr).toBe(0);
    expect(storedCost(added.db, 'app@example.com')).toBe('ln=15,r=8,p=1');
  });

  it('set, account add and account passwd hash at that cost', async () => {
    const added = await add('11');
    expect(added.status, added.stderr).toBe(0);
    expect(storedCost(added.db, 'app@example.com')).toBe('ln=11,r=8,p=1');
    const changed = await runCliAsync(['account', 'passwd', '--db', added.db, '--email', 'app@example.com'], {
      env: { SMSKIT_PASSWORD: 'another horse battery', SMSKIT_SCRYPT_LOG_N: '12' },
    });
    expect(changed.status, changed.stderr).toBe(0);
    expect(storedCost(added.db, 'app@example.com')).toBe('ln=12,r=8,p=1');
  });

  it.each(['9', '21', 'fifteen', '1e1', '-12'])(
    'refuses %s with exit 2, naming the variable, writing nothing',
    async (value) => {
      const added = await add(value);
      expect(added.status).toBe(2);
      expect(added.stderr.trim()).toBe(
        `smskit: SMSKIT_SCRYPT_LOG_N=${value} is not a cost smskit hashes with: give a whole number from 10 to 20 (default 15)`,
      );
      expect(existsSync(added.db)).toBe(false);
    },
  );
});
