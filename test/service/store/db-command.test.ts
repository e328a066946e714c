/**
 * `smskit db migrate` and `--db` as the CLI takes it: a SQLite file is migrated (then up to
 * date), a newer schema is refused, a password in a postgres:// URL is refused before anything
 * connects, and on a real PostgreSQL (when installed) the schema is migrated with the password
 * taken from PGPASSWORD, and account/outbox work on it.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION, SCHEMA_VERSION } from '../../../service/store/index.js';
import { runCliAsync, tempDir } from '../../../tools/serve-process.js';
import { startTestCluster } from '../../helpers/postgres-test-cluster.js';
import { requirePeer } from '../../helpers/peers.js';

const dir = tempDir('db-command');
afterAll(() => dir.remove());

describe('smskit db migrate on SQLite', () => {
  it('creates and migrates a file, then finds it up to date; refuses a newer schema', async () => {
    const db = join(dir.path, 'fresh.sqlite');
    const first = await runCliAsync(['db', 'migrate', '--db', db]);
    expect(first.stdout, first.stderr).toBe(
      `sqlite database ${db}: schema migrated from version 0 to ${SCHEMA_VERSION}\n`,
    );
    const again = await runCliAsync(['db', 'migrate', '--db', db]);
    expect(again.stdout).toBe(`sqlite database ${db}: schema version ${SCHEMA_VERSION}, up to date\n`);
    const handle = new Database(db);
    handle.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    handle.close();
    const newer = await runCliAsync(['db', 'migrate', '--db', db]);
    expect(newer.status).toBe(2);
    expect(newer.stderr).toContain(`database schema version ${SCHEMA_VERSION + 1} is newer than this smskit`);
  });
});

describe('a password in a postgres:// --db', () => {
  it.each([['db', 'migrate'], ['outbox'], ['account', 'list'], ['serve', '--port', '0']])(
    'is refused by smskit %s before connecting, without echoing it',
    async (...command) => {
      const result = await runCliAsync([...command, '--db', 'postgres://sms:hunter2-secret@127.0.0.1:1/sms'], {
        timeoutMs: 30_000,
      });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('put the database password in PGPASSWORD or ~/.pgpass');
      expect(result.stderr).not.toContain('hunter2-secret');
    },
  );
});

const skip = requirePeer('postgres', 'service/store/db-command').reason;

describe.skipIf(skip !== undefined)('smskit db migrate, account and outbox on PostgreSQL', () => {
  it('migrates with the password from PGPASSWORD, then serves the account commands', async () => {
    const cluster = await startTestCluster({ settings: { fsync: 'off' } });
    try {
      await cluster.createDatabase('cli');
      const db = cluster.tcpUrl('cli');
      const env = { PGPASSWORD: cluster.password };
      const migrated = await runCliAsync(['db', 'migrate', '--db', db], { env });
      expect(migrated.stdout, migrated.stderr).toBe(
        `postgres database ${db}: schema migrated from version 0 to ${PG_SCHEMA_VERSION}\n`,
      );
      const added = await runCliAsync(
        ['account', 'add', '--db', db, '--email', 'pg@example.com', '--keyword', 'ACME'],
        { env: { ...env, SMSKIT_PASSWORD: 'correct horse battery' } },
      );
      expect(added.stdout, added.stderr).toBe('added pg@example.com (keywords: ACME)\n');
      const listed = await runCliAsync(['account', 'list', '--json', '--db', db], { env });
      expect(JSON.parse(listed.stdout)).toMatchObject([{ email: 'pg@example.com', keywords: ['ACME'] }]);
      const outbox = await runCliAsync(['outbox', '--json', '--db', db], { env });
      expect(JSON.parse(outbox.stdout)).toEqual([]);
      // The password file works like libpq's (host:port:database:user:password, mode 0600).
      const passfile = join(dir.path, 'pgpass');
      writeFileSync(passfile, `127.0.0.1:${cluster.port}:cli:smskit:${cluster.password}\n`, { mode: 0o600 });
      const viaFile = await runCliAsync(['outbox', '--json', '--db', db], { env: { PGPASSFILE: passfile } });
      expect(viaFile.stdout, viaFile.stderr).toBe('[]\n');
      const wrong = await runCliAsync(['outbox', '--db', db], { env: { PGPASSWORD: 'not-the-password' } });
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain('password authentication failed');
      expect(wrong.stderr).not.toContain('not-the-password');
    } finally {
      cluster.stop();
    }
  });
});
