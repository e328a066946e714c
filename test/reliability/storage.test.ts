/**
 * Disk and database faults through the wire, against the real `smskit serve`:
 * a read-only database (the files made immutable with chattr +i, which binds root too), a full
 * disk (the database on a 2 MiB tmpfs, filled up), a database locked by another process, and a
 * corrupt file. Each refuses with a Server/Receiver fault on every binding (GET/POST: 500 with
 * X-Smskit-Fault-Code: Server), logs one clear line, acknowledges nothing it did not store, and
 * recovers once the condition clears. (test/service/store/store.test.ts proves the store-level behaviour.)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError } from '../../runtime/index.js';
import {
  addAccount,
  readOutbox,
  runCliAsync,
  startServe,
  tempDir,
  type ServeProcess,
} from '../../tools/serve-process.js';
import { diskTmpdir } from '../setup/ram-tmpdir.js';

const ACCOUNT = { email: 'disk@example.com', keywords: ['DISK'], password: 'Walrus-Copper-8812-pw' };
const BINDINGS = ['soap11', 'soap12', 'http-get', 'http-post'] as const;
// On a disk, not in the run's tmpfs: the read-only case needs a disk's chattr +i (below).
const dir = tempDir('storage', diskTmpdir());
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups.reverse()) {
    try {
      cleanup();
    } catch {
      // best effort: the next cleanup still runs
    }
  }
  dir.remove();
});

function probe(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}
/**
 * chattr +i works here, and binds a descriptor opened before it as the server's is: on a disk
 * its writes then fail, while tmpfs takes the flag yet lets them through.
 */
const chattrWorks = ((): boolean => {
  const file = join(dir.path, 'probe');
  writeFileSync(file, 'x');
  const fd = openSync(file, 'a');
  try {
    if (!probe('chattr', ['+i', file])) return false;
    try {
      writeSync(fd, 'y');
      return false;
    } catch {
      return true;
    } finally {
      probe('chattr', ['-i', file]);
    }
  } finally {
    closeSync(fd);
  }
})();
const mountPoint = join(dir.path, 'tiny');
const mountWorks = ((): boolean => {
  mkdirSync(mountPoint);
  if (!probe('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint])) return false;
  cleanups.push(() => spawnSync('umount', ['-l', mountPoint]));
  return true;
})();
if (!chattrWorks)
  console.log(
    'storage: chattr +i is not available here, or does not stop writes (tmpfs): the read-only case is skipped',
  );
if (!mountWorks) console.log('storage: mounting a tmpfs needs CAP_SYS_ADMIN: the full-disk case is skipped');

interface Sent {
  binding: string;
  ok: boolean;
  code: string;
}

async function sendAll(serve: ServeProcess, tag: string): Promise<Sent[]> {
  return Promise.all(
    BINDINGS.map(async (binding) => {
      const client = new ServiceAPIClient({ url: serve.url, binding, timeoutMs: 5_000 });
      try {
        await client.SMSSend({
          keyword: 'DISK',
          emailAddress: ACCOUNT.email,
          password: ACCOUNT.password,
          smsto: '+14155550123',
          carrierCode: 'att',
          smsmsg: `${tag} ${binding} ${'x'.repeat(1400)}`,
        });
        return { binding, ok: true, code: '' };
      } catch (error) {
        return {
          binding,
          ok: false,
          code: error instanceof SoapFaultError ? `${error.code}:${error.message}` : String(error),
        };
      } finally {
        await client.close();
      }
    }),
  );
}

const SERVER_FAULT = { soap11: 'Server', soap12: 'Receiver', 'http-get': 'Server', 'http-post': 'Server' } as const;

async function faultCycle(db: string, logCode: RegExp, fail: () => void, clear: () => void): Promise<void> {
  const serve = await startServe({ db });
  try {
    expect((await sendAll(serve, 'before')).every((s) => s.ok)).toBe(true);
    const before = (await readOutbox(db)).entries.length;
    fail();
    let refused: Sent[] = [];
    try {
      refused = await sendAll(serve, 'during');
    } finally {
      clear();
    }
    for (const sent of refused) {
      expect(sent.ok).toBe(false);
      expect(sent.code).toBe(
        `${SERVER_FAULT[sent.binding as keyof typeof SERVER_FAULT]}:Server was unable to process request.`,
      );
    }
    const { stderr } = serve.output();
    expect(stderr).toMatch(logCode);
    expect(stderr).toMatch(/outbox commit of \d+ message\(s\) failed: /);
    expect(stderr).not.toContain(ACCOUNT.password);
    expect((await readOutbox(db)).entries.length).toBe(before); // nothing acknowledged was lost, nothing refused was stored
    const after = await sendAll(serve, 'after');
    expect(after.filter((s) => !s.ok)).toEqual([]);
    expect((await readOutbox(db)).entries.length).toBe(before + 4);
  } finally {
    await serve.stop().catch(() => serve.kill());
  }
}

describe('disk and database faults through the wire', () => {
  it.skipIf(!chattrWorks)(
    'a read-only database (chattr +i on the file and its WAL): Server faults, a log line, recovery',
    async () => {
      const db = join(dir.path, 'readonly.db');
      await addAccount(db, ACCOUNT);
      const files = [db, `${db}-wal`];
      cleanups.push(() => spawnSync('chattr', ['-i', ...files]));
      await faultCycle(
        db,
        /Storage(ReadOnly|Error)[^\n]*\[SQLITE_(READONLY|IOERR)/,
        () => expect(probe('chattr', ['+i', ...files])).toBe(true),
        () => expect(probe('chattr', ['-i', ...files])).toBe(true),
      );
    },
  );

  it.skipIf(!mountWorks)(
    'a full disk (the database on a 2 MiB tmpfs, filled up): Server faults, StorageFull logged, recovery',
    async () => {
      const db = join(mountPoint, 'full.db');
      await addAccount(db, ACCOUNT);
      const filler = join(mountPoint, 'filler');
      const fill = (): void => {
        const fd = openSync(filler, 'w');
        const chunk = Buffer.alloc(16 * 1024, 1);
        try {
          for (let i = 0; i < 1000; i++) writeSync(fd, chunk);
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
          closeSync(fd);
        }
      };
      await faultCycle(db, /StorageFull[^\n]*\[SQLITE_FULL/, fill, () => rmSync(filler, { force: true }));
    },
  );

  it('a database locked by another process (an exclusive transaction): Server faults, StorageLocked logged, recovery', async () => {
    const db = join(dir.path, 'locked.db');
    await addAccount(db, ACCOUNT);
    let other: Database.Database | undefined;
    await faultCycle(
      db,
      /StorageLocked[^\n]*\[SQLITE_BUSY/,
      () => {
        other = new Database(db);
        other.exec('BEGIN EXCLUSIVE');
      },
      () => {
        other?.exec('COMMIT');
        other?.close();
      },
    );
  });

  it('a corrupt database file: smskit serve refuses to start with one line, no stack trace', async () => {
    const db = join(dir.path, 'corrupt.db');
    writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8192, 0xa5)]));
    const result = await runCliAsync(['serve', '--port', '0', '--db', db], { timeoutMs: 20_000 });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^smskit: /);
    expect(result.stderr).not.toMatch(/\bat .*:\d+:\d+/);
  });
});
