/**
 * Where a delivered message's time goes: `smskit serve --routes` (SQLite, one SMPP route, window
 * 10) and the SMSC simulator, N messages sent over HTTP POST (32 at a time), then waited for until
 * every one is final. Prints the CPU each process spent per delivered message (user + system, from
 * /proc: steadier than a msg/s figure on a shared machine) and the wall-clock rates.
 *   npx tsx bench/profile-delivery.ts [messages] [--profile DIR] [--strace] [--callbacks MS] [--postgres]
 *     [--instances N] [--statements] [--connections N]
 * --profile: the serve process and the simulator write --cpu-prof profiles into DIR/serve and
 * DIR/smsc when they stop.
 * --strace: counts serve's system calls (all threads) over the measured part, per message: fsyncs,
 * writes to sockets and to the database (strace slows the process: read the counts, not the rates).
 * --callbacks MS: the account has a callback URL (a receiver in its own process answering after
 * MS ms); with MS 0 the run also waits for every callback; the receiver's CPU is printed beside.
 * --postgres: the store is PostgreSQL (a throw-away local cluster, as the store section makes),
 * not a SQLite file; the cluster's CPU (every postgres process) is printed beside.
 * --instances N (with --postgres): N services on that database, the messages and the
 * connections split between them, their CPU summed (what the store section's second instance
 * costs), and each one's share of a core printed.
 * --connections N: that many requests at a time instead of 32 (fewer: smaller batches at every
 * stage, so what a batch costs whatever its size shows as more CPU per message).
 * --statements (with --postgres): the statements that took the server's time over the measured
 * part, from pg_stat_statements (nested ones too: the apply function's statements are listed),
 * and the index entries each index returned per message (a plan that scans where it should look up
 * shows there).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type PostgresCluster, startPostgresCluster } from '../test/helpers/postgres-cluster.js';
import { ask, cpuSeconds, forkChild, installCleanup, killAll, nextMessage, stopChild } from './lib/procs.js';
import { ACCOUNT_INPUT, type RunningService, runCli, startService } from './lib/serve.js';
import { forkBenchSmsc, ROUTES_ENV, smscPort, writeBenchRoutes } from './lib/smsc.js';
import { sendCount } from './sections/delivery.js';

installCleanup();
const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};
const messages = Number(args.find((a) => /^\d+$/.test(a)) ?? 20_000);
const profileDir = option('--profile');
const traced = args.includes('--strace');
const callbackDelay = option('--callbacks');
const onPostgres = args.includes('--postgres');
const instances = Number(option('--instances') ?? 1);
const statements = args.includes('--statements');
const connections = Number(option('--connections') ?? 32);
if (instances > 1 && !onPostgres) throw new Error('--instances needs --postgres: SQLite is one instance');
if (!Number.isInteger(connections) || connections < 1) throw new Error('--connections must be a whole number above 0');
if (!Number.isInteger(instances) || instances < 1 || connections % instances !== 0 || messages % instances !== 0)
  throw new Error(`--instances must divide the ${connections} connections and the messages evenly`);

/** CPU seconds per thread of a live process (by name and id, from /proc/PID/task; the first is the event loop). */
function threadCpu(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      // comm names V8's helpers (`V8 DefaultWorke`), libuv's pool (`libuv-worker`) and workers.
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name = task === String(pid) ? 'event loop' : `${comm} ${task}`;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
      byName.set(name, (byName.get(name) ?? 0) + seconds);
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName;
}

/** `strace -c` attached to a process and its threads; `stop` returns the summary table. */
function traceSyscalls(pid: number, file: string): { stop(): Promise<string> } {
  const tracer = spawn('strace', ['-f', '-c', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
  return {
    async stop() {
      tracer.kill('SIGINT');
      await new Promise((resolve) => tracer.once('exit', resolve));
      return readFileSync(file, 'utf8');
    },
  };
}

/** The calls per message of the summary's interesting rows. */
function perMessage(summary: string, count: number): string {
  const wanted = ['fsync', 'fdatasync', 'pwrite64', 'pread64', 'writev', 'write', 'read', 'epoll_wait', 'futex'];
  const lines: string[] = [];
  for (const line of summary.split('\n')) {
    const cells = line.trim().split(/\s+/);
    const name = cells.at(-1) ?? '';
    if (!wanted.includes(name)) continue;
    const calls = Number(cells[3]);
    lines.push(`${name} ${(calls / count).toFixed(3)}`);
  }
  return lines.join(', ');
}

/** CPU seconds of every postgres process on the machine (the bench's throw-away cluster). */
function postgresCpu(): number {
  let seconds = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith('postgres')) continue;
      seconds += cpuSeconds(Number(pid)) ?? 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return seconds;
}

/** The statements that took most of the server's time, per message: µs, calls, rows. */
function topStatements(cluster: PostgresCluster, count: number): string {
  return cluster.psql(
    `SELECT round((total_exec_time * 1000 / ${count})::numeric, 1) || ' µs/msg, ' ||
            round(calls::numeric / ${count}, 3) || ' calls/msg, ' ||
            round(rows::numeric / greatest(calls, 1), 1) || ' rows/call: ' ||
            left(regexp_replace(query, '\\s+', ' ', 'g'), 110)
       FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
      ORDER BY total_exec_time DESC LIMIT 25`,
    'profile',
  );
}

/** Index entries read and index scans so far, by index (and rows read by sequential scans, by table). */
function indexReads(cluster: PostgresCluster): Map<string, [number, number]> {
  const rows = cluster.psql(
    `SELECT indexrelname || ' ' || idx_tup_read || ' ' || idx_scan FROM pg_stat_user_indexes
     UNION ALL SELECT relname || '(sequential) ' || seq_tup_read || ' ' || seq_scan FROM pg_stat_user_tables`,
    'profile',
  );
  const byIndex = new Map<string, [number, number]>();
  for (const line of rows.trim().split('\n')) {
    const [name, read, scans] = line.split(' ');
    if (name !== undefined) byIndex.set(name, [Number(read), Number(scans)]);
  }
  return byIndex;
}

const OPEN = `SELECT count(*) AS n FROM outbox WHERE state IN ('queued', 'sending', 'accepted')`;

/** Messages not final yet, in the SQLite file or the PostgreSQL database `db`. */
async function openCount(db: string): Promise<number> {
  if (db.startsWith('postgres')) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try {
      return Number((await client.query<{ n: string }>(OPEN)).rows[0]?.n ?? 0);
    } finally {
      await client.end();
    }
  }
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare<[], { n: number }>(OPEN).get()?.n ?? 0;
  } finally {
    handle.close();
  }
}

/** The callback receiver child, and the account's callback URL pointing at it. */
async function startReceiver(db: string, delayMs: string) {
  const child = await forkChild('callback-receiver.ts', [delayMs]);
  const { port } = await nextMessage<{ port: number }>(child, 30_000, 'callback receiver');
  const set = await runCli([
    'account',
    'set',
    '--db',
    db,
    '--email',
    ACCOUNT_INPUT.emailAddress,
    '--callback-url',
    `http://127.0.0.1:${port}/callbacks`,
    '--allow-http-callback',
  ]);
  if (set.code !== 0) throw new Error(`smskit account set --callback-url failed: ${set.stderr}`);
  return child;
}

const dir = mkdtempSync(join(tmpdir(), 'smskit-profile-delivery-'));
let cluster: PostgresCluster | undefined;
try {
  if (onPostgres) {
    const tracking = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' };
    cluster = await startPostgresCluster({
      settings: { synchronous_commit: 'on', fsync: 'on', ...(statements ? tracking : {}) },
    });
    await cluster.createDatabase('profile');
    if (statements) cluster.psql('CREATE EXTENSION pg_stat_statements', 'profile');
  }
  if (profileDir !== undefined) process.env.BENCH_PROFILE = profileDir;
  const smsc = await forkBenchSmsc();
  const routes = writeBenchRoutes(dir, await smscPort(smsc));
  const services: RunningService[] = [];
  for (let i = 0; i < instances; i++)
    services.push(
      await startService(
        ['--routes', routes, ...(callbackDelay === undefined ? [] : ['--allow-private-callbacks'])],
        ROUTES_ENV,
        i === 0 ? dir : mkdtempSync(join(tmpdir(), 'smskit-profile-delivery-instance-')),
        cluster?.socketUrl('profile'),
        i === 0,
      ),
    );
  const service = services[0]!;
  for (const { child } of services) child.stderr?.pipe(process.stderr);
  const receiver = callbackDelay === undefined ? undefined : await startReceiver(service.db, callbackDelay);
  // A warm-up message pays the password check and the bind before the clock starts.
  for (const { origin } of services) await sendCount(origin, 1, 1);
  while ((await openCount(service.db)) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  const received = async () =>
    receiver === undefined ? 0 : (await ask<{ received: number }>(receiver, {}, 10_000, 'receiver')).received;
  while (receiver !== undefined && (await received()) < (callbackDelay === '0' ? 3 : 1))
    await new Promise((resolve) => setTimeout(resolve, 50));
  const eachServeCpu = () => services.map(({ child }) => cpuSeconds(child.pid) ?? 0);
  const servesCpu = () => eachServeCpu().reduce((sum, seconds) => sum + seconds, 0);
  const eachServe0 = eachServeCpu();
  const cpu0 = {
    serve: servesCpu(),
    postgres: postgresCpu(),
    smsc: cpuSeconds(smsc.pid) ?? 0,
    receiver: cpuSeconds(receiver?.pid) ?? 0,
  };
  const threads0 = threadCpu(service.child.pid!);
  if (statements) cluster?.psql('SELECT pg_stat_statements_reset()', 'profile');
  // The statistics collector reports at most every second: wait for it before and after.
  if (statements) await new Promise((resolve) => setTimeout(resolve, 1_500));
  const reads0 = statements && cluster !== undefined ? indexReads(cluster) : undefined;
  const tracer = traced ? traceSyscalls(service.child.pid!, join(dir, 'strace.txt')) : undefined;
  if (tracer !== undefined) await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  await Promise.all(services.map(({ origin }) => sendCount(origin, messages / instances, connections / instances)));
  const accepted = performance.now();
  while ((await openCount(service.db)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const finished = performance.now();
  // Three state changes per delivered message (sending, accepted, delivered), one callback each.
  // A slow receiver's backlog is not waited for: what it costs delivery is the figure.
  while (receiver !== undefined && callbackDelay === '0' && (await received()) < 3 * (messages + 1))
    await new Promise((resolve) => setTimeout(resolve, 20));
  const notified = performance.now();
  const syscalls = await tracer?.stop();
  const serve = servesCpu() - cpu0.serve;
  const eachServe = eachServeCpu().map((seconds, i) => seconds - eachServe0[i]!);
  const finishSeconds = (finished - started) / 1000;
  const postgres = postgresCpu() - cpu0.postgres;
  const simulator = (cpuSeconds(smsc.pid) ?? 0) - cpu0.smsc;
  const receiverCpu = (cpuSeconds(receiver?.pid) ?? 0) - cpu0.receiver;
  const threads = [...threadCpu(service.child.pid!)]
    .map(([name, seconds]) => [name, seconds - (threads0.get(name) ?? 0)] as const)
    .filter(([, seconds]) => seconds > 0.01)
    .sort((a, b) => b[1] - a[1]);
  const cpuPerMessage = (seconds: number) => ((seconds / messages) * 1e6).toFixed(1);
  process.stdout.write(
    `${messages} messages: acknowledged at ${Math.round(messages / ((accepted - started) / 1000))} msg/s, ` +
      `all final at ${Math.round(messages / ((finished - started) / 1000))} msg/s\n` +
      (receiver === undefined
        ? ''
        : `every callback received at ${Math.round(messages / ((notified - started) / 1000))} msg/s\n`) +
      `CPU per message: serve ${cpuPerMessage(serve)} µs${instances > 1 ? ` (${instances} instances)` : ''}, ` +
      `SMSC simulator ${cpuPerMessage(simulator)} µs` +
      (onPostgres ? `, postgres ${cpuPerMessage(postgres)} µs` : '') +
      (receiver === undefined ? '\n' : `, callback receiver ${cpuPerMessage(receiverCpu)} µs\n`) +
      `${instances > 1 ? "the first serve's" : "serve's"} threads: ${threads.map(([name, seconds]) => `${name} ${cpuPerMessage(seconds)} µs`).join(', ')}\n` +
      (syscalls === undefined
        ? ''
        : `system calls per message (serve, all threads): ${perMessage(syscalls, messages)}\n`) +
      (instances > 1
        ? `each serve's share of a core until all were final (${finishSeconds.toFixed(1)} s): ` +
          `${eachServe.map((seconds) => `${Math.round((seconds / finishSeconds) * 100)} %`).join(', ')}\n`
        : ''),
  );
  if (statements && cluster !== undefined) {
    process.stdout.write(`${topStatements(cluster, messages)}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const reads = [...indexReads(cluster)]
      .map(([name, [read, scans]]) => {
        const [read0, scans0] = reads0?.get(name) ?? [0, 0];
        return [name, (read - read0) / messages, (scans - scans0) / messages] as const;
      })
      .filter(([, read]) => read > 0.01)
      .sort((a, b) => b[1] - a[1]);
    process.stdout.write(
      `index entries read per message (scans per message): ${reads.map(([name, read, scans]) => `${name} ${read.toFixed(1)} (${scans.toFixed(2)})`).join(', ')}\n`,
    );
  }
  for (const instance of services) await instance.cleanup();
  await stopChild(smsc);
  if (receiver !== undefined) await stopChild(receiver);
} finally {
  killAll();
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
