/**
 * Mono peers leave nothing in /dev/shm when a test kills them: Mono keeps a performance-counter
 * area in /dev/shm/mono.<pid> for each process and removes it only at a clean exit, so every
 * killed peer left 4 KB of RAM behind. The test run sets MONO_DISABLE_SHARED_AREA=1
 * (vitest.config.ts); this file shows what the variable changes.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePeer } from '../helpers/peers.js';

const SKIP = requirePeer('wcf', 'peers/mono-shared-area').reason;
const SOURCE = `class Waiter {
  static void Main() {
    System.Console.WriteLine("ready");
    System.Threading.Thread.Sleep(60000);
  }
}
`;

describe.skipIf(SKIP !== undefined)('a Mono process killed by a test', () => {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-mono-area-'));
  const exe = join(dir, 'waiter.exe');
  beforeAll(() => {
    writeFileSync(join(dir, 'waiter.cs'), SOURCE);
    const compiled = spawnSync('mcs', [`-out:${exe}`, join(dir, 'waiter.cs')], { encoding: 'utf8' });
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts the program, waits until its Main runs (the runtime is up), kills it, returns its pid. */
  async function killedAfterStart(env: NodeJS.ProcessEnv): Promise<number> {
    const child: ChildProcess = spawn('mono', [exe], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`mono exited (${code}) before its Main ran`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return child.pid!;
  }

  it('leaves /dev/shm/mono.<pid> behind by default', async () => {
    const { MONO_DISABLE_SHARED_AREA: _set, ...withoutVariable } = process.env;
    const pid = await killedAfterStart(withoutVariable);
    const area = `/dev/shm/mono.${pid}`;
    try {
      expect(existsSync(area)).toBe(true);
    } finally {
      rmSync(area, { force: true });
    }
  });

  it('leaves nothing with the test run’s environment', async () => {
    expect(process.env.MONO_DISABLE_SHARED_AREA).toBe('1');
    const pid = await killedAfterStart(process.env);
    expect(existsSync(`/dev/shm/mono.${pid}`)).toBe(false);
  });
});
