/**
 * The store section: acknowledged msg/s of `smskit serve --routes` with delivery running against
 * the SMSC simulator (its own process), on
 *   1. one instance on SQLite (the embedded default),
 *   2. one instance on PostgreSQL (a throw-away local cluster, fsync and synchronous_commit on),
 *   3. two instances on that PostgreSQL, the load split between them,
 * in one run, each on a fresh database. After the load every acknowledged message must reach
 * `delivered` (read back from the store). Judged end to end: one instance on PostgreSQL at half
 * of SQLite's or more, two at 1.5 times one or more (a second instance must add throughput,
 * not only availability), and nothing lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../service/store/index.js';
import { PEERS } from '../../test/helpers/peers.js';
import { startPostgresCluster, type PostgresCluster } from '../../test/helpers/postgres-cluster.js';
import { sendRequest } from '../lib/payloads.js';
import { stopChild } from '../lib/procs.js';
import { limitRow, ratioRow, type Row, type Settings } from '../lib/report.js';
import { ACCOUNT_INPUT, startService, type RunningService } from '../lib/serve.js';
import { startLoadGenerator } from '../lib/servers.js';
import { forkBenchSmsc, ROUTES_ENV, smscPort, writeBenchRoutes } from '../lib/smsc.js';

interface Outcome {
  readonly acknowledgedPerSecond: number;
  readonly acknowledged: number;
  readonly stored: number;
  readonly delivered: number;
  readonly drainSeconds: number;
  /** Delivered ÷ (load time + time to deliver the rest): what the whole pipeline kept up with. */
  readonly endToEndPerSecond: number;
}

/** Waits until nothing is queued, sending or accepted; returns the counts and how long it took. */
async function drain(db: string, acknowledged: number) {
  const started = Date.now();
  const store = await openStore({ db, poolSize: 1 });
  try {
    for (;;) {
      const counts = await store.countByState();
      const open = (counts.queued ?? 0) + (counts.sending ?? 0) + (counts.accepted ?? 0);
      const stored = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
      if ((open === 0 && stored >= acknowledged) || Date.now() - started > 180_000)
        return { stored, delivered: counts.delivered ?? 0, drainSeconds: (Date.now() - started) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await store.close();
  }
}

/** `instances` services on `db` (the first adds the account), the connections split between them. */
async function run(
  settings: Settings,
  instances: number,
  db: (dir: string) => string,
  readDb: string | undefined,
  env: NodeJS.ProcessEnv,
) {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-bench-store-'));
  const smsc = await forkBenchSmsc();
  const services: RunningService[] = [];
  const loads = await Promise.all(Array.from({ length: instances }, () => startLoadGenerator()));
  try {
    const routes = writeBenchRoutes(dir, await smscPort(smsc));
    const database = db(dir);
    for (let i = 0; i < instances; i++) {
      const own = mkdtempSync(join(tmpdir(), 'smskit-bench-store-instance-'));
      services.push(await startService(['--routes', routes], { ...ROUTES_ENV, ...env }, own, database, i === 0));
    }
    // One request each first: the pool's connections and the account's password check are
    // paid before the clock starts, as in a service that has been running.
    for (const service of services) {
      const warm = sendRequest('http-post', ACCOUNT_INPUT);
      const response = await fetch(service.origin + warm.path, {
        method: 'POST',
        headers: warm.headers,
        body: warm.body ?? null,
      });
      await response.text();
    }
    const connections = Math.max(1, Math.floor(settings.connections / instances));
    const results = await Promise.all(
      services.map((service, i) =>
        loads[i]!.run({
          url: service.origin,
          request: sendRequest('http-post', ACCOUNT_INPUT),
          connections,
          // Longer than the other sections' rounds: one run per configuration, not a median.
          seconds: settings.seconds * 3,
        }),
      ),
    );
    const failures = results.reduce((a, r) => a + r.failures, 0);
    if (failures > 0) throw new Error(`${failures} failed requests under load`);
    const acknowledged = results.reduce((a, r) => a + r.ok, 0);
    const drained = await drain(readDb ?? database, acknowledged);
    const loadSeconds = settings.seconds * 3;
    return {
      acknowledgedPerSecond: results.reduce((a, r) => a + r.rps, 0),
      acknowledged,
      ...drained,
      // Delivery that falls behind during the load is finished in the drain: count it.
      endToEndPerSecond: drained.delivered / (loadSeconds + drained.drainSeconds),
    };
  } finally {
    for (const load of loads) load.child.kill('SIGTERM');
    await Promise.all(services.map((s) => s.cleanup()));
    await stopChild(smsc);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runStoreSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const skip = PEERS.postgres.probe();
  if (skip !== undefined) throw new Error(`PostgreSQL ${skip}`);
  const sqlite = await run(settings, 1, (dir) => join(dir, 'service.sqlite'), undefined, {});
  const line = (name: string, o: Outcome): void =>
    log(
      `  ${name}: ${o.acknowledged} acknowledged at ${Math.round(o.acknowledgedPerSecond)} msg/s; ${o.delivered} of ${o.stored} stored delivered, drained in ${o.drainSeconds.toFixed(1)} s; end to end ${Math.round(o.endToEndPerSecond)} msg/s`,
    );
  line('one instance, SQLite', sqlite);
  let cluster: PostgresCluster | undefined;
  try {
    cluster = await startPostgresCluster({ settings: { synchronous_commit: 'on', fsync: 'on' } });
    const c = cluster;
    const env = { PGPASSWORD: c.password };
    await c.createDatabase('one');
    const one = await run(settings, 1, () => c.tcpUrl('one'), c.socketUrl('one'), env);
    line('one instance, PostgreSQL', one);
    await c.createDatabase('two');
    const two = await run(settings, 2, () => c.tcpUrl('two'), c.socketUrl('two'), env);
    line('two instances, PostgreSQL', two);
    const lost = (o: Outcome) => o.stored - o.delivered;
    const rows: Row[] = [
      {
        section: 'store',
        name: 'one instance, SQLite: acknowledged',
        figure: sqlite.acknowledgedPerSecond,
        unit: 'msg/s',
      },
      {
        section: 'store',
        name: 'one instance, PostgreSQL: acknowledged',
        figure: one.acknowledgedPerSecond,
        unit: 'msg/s',
        peer: 'SQLite',
        peerFigure: sqlite.acknowledgedPerSecond,
        ratio: one.acknowledgedPerSecond / sqlite.acknowledgedPerSecond,
      },
      {
        section: 'store',
        name: 'two instances, PostgreSQL: acknowledged',
        figure: two.acknowledgedPerSecond,
        unit: 'msg/s',
        peer: 'one on PostgreSQL',
        peerFigure: one.acknowledgedPerSecond,
        ratio: two.acknowledgedPerSecond / one.acknowledgedPerSecond,
      },
      { section: 'store', name: 'one instance, SQLite: end to end', figure: sqlite.endToEndPerSecond, unit: 'msg/s' },
      ratioRow(
        {
          section: 'store',
          name: 'one instance, PostgreSQL: end to end',
          figure: one.endToEndPerSecond,
          unit: 'msg/s',
          peer: 'SQLite',
          peerFigure: sqlite.endToEndPerSecond,
        },
        { min: 0.5 },
      ),
      ratioRow(
        {
          section: 'store',
          name: 'two instances, PostgreSQL: end to end',
          figure: two.endToEndPerSecond,
          unit: 'msg/s',
          peer: 'one on PostgreSQL',
          peerFigure: one.endToEndPerSecond,
        },
        { min: 1.5 },
      ),
      limitRow(
        {
          section: 'store',
          name: 'stored, not delivered (all three runs)',
          figure: lost(sqlite) + lost(one) + lost(two),
          unit: 'messages',
        },
        { below: 1 },
      ),
    ];
    return { rows, figures: { sqlite, one, two } };
  } finally {
    cluster?.stop();
  }
}
