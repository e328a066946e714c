/**
 * The long-running commands as a script or a process manager meets them, run from the shipped
 * bundle: each prints its pid on start, stops gracefully with exit 0 on SIGINT, SIGTERM and
 * SIGHUP, and under npm exec (a `sh -c` between npm and node that does not pass SIGTERM on) stops
 * by itself once its parent is gone instead of holding its port for ever. Also what `serve` says
 * on start (the account hint only for an empty account table) and `outbox --id --wait`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAccount,
  repoRoot,
  runCliAsync,
  type ServeProcess,
  startServe,
  tempDir,
} from '../../tools/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';

const bin = join(repoRoot, 'bin', 'smskit.js');
const PASSWORD = 'correct horse battery';
const dir = tempDir('long-running');
/** Servers a test made orphans: stopped at the end whatever the test's outcome. */
const orphans: number[] = [];
afterAll(() => {
  for (const pid of orphans) if (alive(pid)) process.kill(pid, 'SIGKILL');
  dir.remove();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(command, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    // 'exit', not 'close': an orphaned grandchild may hold the pipes open.
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

describe('smskit serve prints its pid and stops with exit 0 on each stop signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal}: graceful stop, exit 0`, async () => {
      const serve = await startServe({ db: join(dir.path, `signal-${signal}.sqlite`) });
      const { stdout } = serve.output();
      expect(stdout).toContain(
        `  pid:       ${serve.pid} (stop with Ctrl-C or kill ${serve.pid}; in-flight requests finish first)`,
      );
      const exit = await serve.stop(signal);
      expect(exit.code, exit.stderr).toBe(0);
      expect(exit.stderr).toContain(`smskit serve: ${signal}: finishing in-flight requests and deliveries`);
      expect(exit.stderr).toContain('smskit serve: stopped');
    });
  }
});

describe('smskit serve hints at adding an account only when there is none', () => {
  const db = join(dir.path, 'hint.sqlite');
  it('an empty account table: the hint', async () => {
    const serve = await startServe({ db });
    await serve.stop();
    expect(serve.output().stdout).toContain('(0 accounts)');
    expect(serve.output().stdout).toContain(`  add an account:  smskit account add --db ${db}`);
  });
  it('an account: no hint', async () => {
    await addAccount(db, { email: 'you@example.com', keywords: ['ACME'], password: PASSWORD });
    const serve = await startServe({ db });
    await serve.stop();
    expect(serve.output().stdout).toContain('(1 account)');
    expect(serve.output().stdout).not.toContain('add an account');
  });
});

describe('under npm exec, a command whose shell was killed stops by itself', () => {
  it('serve: SIGTERM to the `sh -c` npm starts it through ends the orphaned server', async () => {
    // What `npx smskit serve` runs: npm -> sh -c "smskit serve …" -> node; on SIGTERM npm signals the
    // shell only, which dies without passing it on. `; exit $?` keeps the shell between, as npm's does.
    const db = join(dir.path, 'npx.sqlite');
    const shell = start('sh', ['-c', `"${process.execPath}" "${bin}" serve --port 0 --db "${db}"; exit $?`], {
      npm_command: 'exec',
      npm_lifecycle_event: 'npx',
    });
    await waitFor('serve started', () => /pid: {7}(\d+)/.test(shell.output()), { timeoutMs: 20_000 });
    const pid = Number(/pid: {7}(\d+)/.exec(shell.output())?.[1]);
    orphans.push(pid);
    expect(pid).not.toBe(shell.child.pid);
    shell.child.kill('SIGTERM');
    await shell.exited;
    expect(alive(pid)).toBe(true);
    await waitFor('the server gone', () => !alive(pid), { timeoutMs: 10_000 });
  });

  it('without npm exec in the environment, the same orphan keeps serving (nohup-style use is not stopped)', async () => {
    const db = join(dir.path, 'nohup.sqlite');
    const env = { npm_command: '', npm_lifecycle_event: '' };
    const shell = start('sh', ['-c', `"${process.execPath}" "${bin}" serve --port 0 --db "${db}"; exit $?`], env);
    await waitFor('serve started', () => /pid: {7}(\d+)/.test(shell.output()), { timeoutMs: 20_000 });
    const pid = Number(/pid: {7}(\d+)/.exec(shell.output())?.[1]);
    orphans.push(pid);
    shell.child.kill('SIGTERM');
    await shell.exited;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alive(pid)).toBe(true);
    process.kill(pid, 'SIGTERM');
    await waitFor('the server gone', () => !alive(pid), { timeoutMs: 10_000 });
  });
});

describe('smskit smsc prints its pid and stops with exit 0 on SIGHUP', () => {
  it('the start line names the pid; SIGHUP stops it', async () => {
    const smsc = start(process.execPath, [bin, 'smsc', '--port', '0'], { SMSKIT_SMSC_PASSWORD: 'secret' });
    await waitFor('smsc started', () => smsc.output().includes('drops every connection'), { timeoutMs: 20_000 });
    const pid = smsc.child.pid!;
    expect(smsc.output()).toContain(
      `pid ${pid}: kill -USR1 ${pid} drops every connection, Ctrl-C or kill ${pid} stops`,
    );
    smsc.child.kill('SIGHUP');
    expect(await smsc.exited).toEqual({ code: 0, signal: null });
    expect(smsc.output()).toContain('smskit smsc: SIGHUP: stopped after 0 submit_sm');
  });
});

describe('smskit outbox: the empty result, --follow, --id --wait', () => {
  const db = join(dir.path, 'outbox.sqlite');
  let serve: ServeProcess;
  let live: string;
  let test: string;

  const send = async (email: string): Promise<string> => {
    const sent = await runCliAsync(
      ['send', '--url', serve.url, '--email', email, '--keyword', 'ACME', '--to', '+15551234567'].concat([
        '--carrier',
        'auto',
        '--message',
        'Hello',
      ]),
      { env: { SMSKIT_PASSWORD: PASSWORD } },
    );
    expect(sent.status, sent.stderr).toBe(0);
    return /SMS-[0-9A-Z]{26}/.exec(sent.stdout)?.[0] ?? '';
  };

  beforeAll(async () => {
    const migrated = await runCliAsync(['db', 'migrate', '--db', db]);
    expect(migrated.status, migrated.stderr).toBe(0);
  });
  afterAll(async () => serve?.stop());

  it('an empty outbox is one line saying so (not a bare header)', async () => {
    const all = await runCliAsync(['outbox', '--db', db]);
    expect(all).toMatchObject({ status: 0, stdout: `no messages in ${db}\n` });
    const filtered = await runCliAsync(['outbox', '--db', db, '--state', 'failed']);
    expect(filtered).toMatchObject({ status: 0, stdout: `no messages in ${db} match the filters\n` });
    expect((await runCliAsync(['outbox', '--db', db, '--json'])).stdout).toBe('[]\n');
  });

  it('--follow says on stderr that it runs, with its pid, and SIGTERM ends it with exit 0', async () => {
    const follow = start(process.execPath, [bin, 'outbox', '--db', db, '--follow']);
    await waitFor('follow started', () => follow.output().includes('following'), { timeoutMs: 20_000 });
    expect(follow.output()).toBe(
      `smskit outbox --follow: pid ${follow.child.pid} (stop with Ctrl-C or kill ${follow.child.pid}): following state changes in ${db} from now on\n`,
    );
    follow.child.kill('SIGTERM');
    expect(await follow.exited).toEqual({ code: 0, signal: null });
  });

  it('--wait: a message in a wanted state, exit 0 with the state', async () => {
    await addAccount(db, { email: 'live@example.com', keywords: ['ACME'], password: PASSWORD });
    const added = await runCliAsync(
      ['account', 'add', '--db', db, '--email', 'ci@example.com', '--keyword', 'ACME', '--test'],
      {
        env: { SMSKIT_PASSWORD: PASSWORD },
      },
    );
    expect(added.status, added.stderr).toBe(0);
    serve = await startServe({ db });
    live = await send('live@example.com');
    test = await send('ci@example.com');
    const reached = await runCliAsync(['outbox', '--db', db, '--id', test, '--wait', 'delivered,test']);
    expect(reached).toMatchObject({ status: 0, stdout: `${test} test\n` });
  });

  it('--wait: still in another state at --timeout, exit 1 naming the state it saw', async () => {
    const started = Date.now();
    const result = await runCliAsync(['outbox', '--db', db, '--id', live, '--wait', 'delivered', '--timeout', '700ms']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`smskit: ${live} is still queued after 700ms (waited for delivered)\n`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('--wait: a final state that is not wanted ends the wait at once, exit 1', async () => {
    const result = await runCliAsync(['outbox', '--db', db, '--id', test, '--wait', 'delivered', '--timeout', '60s']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`smskit: ${test} is test, a final state, not delivered\n`);
  });

  it('--wait: an unknown state, or --wait without --id, is a usage error (exit 2)', async () => {
    const unknown = await runCliAsync(['outbox', '--db', db, '--id', live, '--wait', 'delivered,sent']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('smskit: --wait must be one of queued, sending, accepted, delivered');
    expect(unknown.stderr).toContain('got "sent"');
    const noId = await runCliAsync(['outbox', '--db', db, '--wait', 'delivered']);
    expect(noId.status).toBe(2);
    expect(noId.stderr).toContain('smskit: --wait needs --id (the message to wait for)');
    const badTimeout = await runCliAsync([
      'outbox',
      '--db',
      db,
      '--id',
      live,
      '--wait',
      'delivered',
      '--timeout',
      'soon',
    ]);
    expect(badTimeout.status).toBe(2);
    expect(badTimeout.stderr).toContain(
      '--timeout must be a duration such as 30s, 2m or 1500ms, at most 24h; got "soon"',
    );
  });
});
