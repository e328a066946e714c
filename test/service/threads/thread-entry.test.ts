/**
 * Where a worker thread's module comes from (service/threads/thread-entry.ts): the bundle's entry
 * beside a bundled starter, a named bundle for a process running the sources (the test suite),
 * else the TypeScript source through tsx; and a thread started through tsx still works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { message } from '../store/contract.js';
import { openSqliteStore } from '../../../service/store/index.js';
import { threadEntry } from '../../../service/threads/thread-entry.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-thread-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const named = process.env.SMSKIT_THREAD_BUNDLE;
afterEach(() => {
  if (named === undefined) delete process.env.SMSKIT_THREAD_BUNDLE;
  else process.env.SMSKIT_THREAD_BUNDLE = named;
});

describe('a worker thread’s module', () => {
  const sourceCaller = pathToFileURL(join(dir, 'store', 'writer.ts')).href;

  it('is the entry beside a bundled starter', () => {
    writeFileSync(join(dir, 'writer-thread.mjs'), '');
    const bundledCaller = pathToFileURL(join(dir, 'chunk-ABC.mjs')).href;
    expect(threadEntry(bundledCaller, './writer-thread.mjs', './writer-thread.ts')).toEqual({
      source: new URL('./writer-thread.mjs', bundledCaller),
      eval: false,
    });
  });

  it('is the named bundle’s entry for a starter running from source', () => {
    process.env.SMSKIT_THREAD_BUNDLE = join(dir, 'bundle');
    expect(threadEntry(sourceCaller, './writer-thread.mjs', './writer-thread.ts')).toEqual({
      source: pathToFileURL(join(dir, 'bundle', 'writer-thread.mjs')),
      eval: false,
    });
  });

  it('is the TypeScript source through tsx when no bundle is named', () => {
    delete process.env.SMSKIT_THREAD_BUNDLE;
    const entry = threadEntry(sourceCaller, './writer-thread.mjs', './writer-thread.ts');
    expect(entry.eval).toBe(true);
    expect(entry.source).toContain('tsImport');
    expect(entry.source).toContain(JSON.stringify(new URL('./writer-thread.ts', sourceCaller).href));
  });

  it('started through tsx, the SQLite writer thread commits and closes', async () => {
    delete process.env.SMSKIT_THREAD_BUNDLE;
    const store = openSqliteStore({ path: join(dir, 'through-tsx.db'), writerThread: true });
    try {
      const queued = await store.enqueue(message('through tsx'));
      expect(await store.getMessage(queued.id)).toMatchObject({ id: queued.id, state: 'queued' });
    } finally {
      await store.close();
    }
  });
});
