/**
 * Section 2: the SMS service end to end (`smskit serve`: authentication, validation, the
 * durable outbox with group commit), SOAP 1.1 and HTTP POST. Every 2xx is a message the store
 * committed before answering; after the run the outbox row count is checked against them.
 * What bounds it is shown by the server's CPU use during the load (100% = one core busy).
 */
import Database from 'better-sqlite3';
import type { Protocol } from '../../runtime/index.js';
import { sendRequest } from '../lib/payloads.js';
import { cpuSeconds, peakRssMb } from '../lib/procs.js';
import { limitRow, type Row, type Settings } from '../lib/report.js';
import { ACCOUNT_INPUT, startService } from '../lib/serve.js';
import { exchange, startLoadGenerator } from '../lib/servers.js';
import { median } from '../lib/stats.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'http-post'];

export async function runServiceSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const service = await startService();
  const load = await startLoadGenerator();
  try {
    for (const binding of BINDINGS) {
      const r = await exchange(service.origin, sendRequest(binding, ACCOUNT_INPUT));
      if (r.status !== 200 || !r.body.includes('SMS-'))
        throw new Error(`smskit serve, ${binding}: HTTP ${r.status}: ${r.body.slice(0, 300)}`);
    }
    const measure = async (binding: Protocol, seconds: number) => {
      const cpuBefore = cpuSeconds(service.child.pid);
      const startedAt = performance.now();
      const r = await load.run({
        url: service.origin,
        request: sendRequest(binding, ACCOUNT_INPUT),
        connections: settings.connections,
        seconds,
      });
      const cpuAfter = cpuSeconds(service.child.pid);
      const cpuPercent =
        cpuBefore === undefined || cpuAfter === undefined
          ? Number.NaN
          : (100 * (cpuAfter - cpuBefore)) / ((performance.now() - startedAt) / 1000);
      if (r.failures > 0) throw new Error(`smskit serve, ${binding}: ${r.failures} failed requests under load`);
      return { ...r, cpuPercent };
    };
    let acknowledged = BINDINGS.length; // the probes above
    for (const binding of BINDINGS) acknowledged += (await measure(binding, settings.warmupSeconds)).ok;
    const samples = new Map<Protocol, { rps: number[]; p99: number[]; cpu: number[] }>(
      BINDINGS.map((b) => [b, { rps: [], p99: [], cpu: [] }]),
    );
    for (let round = 0; round < settings.rounds; round++) {
      for (const binding of BINDINGS) {
        const r = await measure(binding, settings.seconds);
        acknowledged += r.ok;
        const s = samples.get(binding)!;
        s.rps.push(r.rps);
        s.p99.push(r.p99Ms);
        s.cpu.push(r.cpuPercent);
        log(
          `  service ${binding} round ${round + 1}: ${Math.round(r.rps)} msg/s, p99 ${r.p99Ms} ms, server CPU ${Math.round(r.cpuPercent)}%`,
        );
      }
    }
    const rssMb = peakRssMb(service.child.pid);
    await service.stop();
    const committed = outboxCount(service.db);
    if (committed < acknowledged)
      throw new Error(`smskit serve acknowledged ${acknowledged} messages but the outbox holds ${committed}`);
    log(`  service: ${acknowledged} acknowledged, ${committed} in the outbox after shutdown`);
    return {
      rows: serviceRows(samples, rssMb),
      figures: { ...Object.fromEntries(samples), peakRssMb: rssMb, acknowledged, outboxRows: committed },
    };
  } finally {
    await service.cleanup();
    load.child.kill('SIGTERM');
  }
}

/** Rows in the outbox after the server stopped: at least every acknowledged message. */
function outboxCount(db: string): number {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
  } finally {
    conn.close();
  }
}

function serviceRows(
  samples: Map<Protocol, { rps: number[]; p99: number[]; cpu: number[] }>,
  rssMb: number | undefined,
): Row[] {
  const rows: Row[] = [];
  for (const [binding, s] of samples) {
    const note = `server CPU ${Math.round(median(s.cpu))}% of one core`;
    const base = {
      section: 'service',
      name: `smskit serve ${binding} acknowledged msg/s`,
      figure: median(s.rps),
      unit: 'msg/s',
      note,
    };
    rows.push(binding === 'soap11' ? limitRow(base, { min: 5000 }) : base);
    rows.push({ section: 'service', name: `smskit serve ${binding} p99`, figure: median(s.p99), unit: 'ms' });
    rows.push({
      section: 'service',
      name: `smskit serve ${binding} server CPU`,
      figure: median(s.cpu),
      unit: '% of a core',
    });
  }
  if (rssMb !== undefined)
    rows.push(
      limitRow({ section: 'service', name: 'smskit serve peak RSS', figure: rssMb, unit: 'MB' }, { below: 150 }),
    );
  return rows;
}
