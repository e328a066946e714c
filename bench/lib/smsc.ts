/**
 * The SMSC the delivery and store sections deliver to: the simulator in its own process, and the
 * routes file that points `smskit serve` at it (the bind password in BENCH_SMPP_PASSWORD).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedCount } from '../children/smsc.js';
import type { SmscStats } from '../../service/delivery/simulator/index.js';
import { ask, forkChild, nextMessage } from './procs.js';
import { profileArgs } from './servers.js';

const SMPP_PASSWORD = 'bench123';
/** The credentials the simulator accepts (for a gateway configured by hand, e.g. Kannel). */
export const BENCH_SMPP = { systemId: 'bench', password: SMPP_PASSWORD } as const;

/** What `smskit serve --routes` needs in its environment. */
export const ROUTES_ENV: NodeJS.ProcessEnv = { BENCH_SMPP_PASSWORD: SMPP_PASSWORD };

/** Starts the simulator (no throttle); `smscPort` waits for its port. */
export function forkBenchSmsc(): Promise<ChildProcess> {
  return forkChild('smsc.ts', ['bench', SMPP_PASSWORD, '0'], profileArgs('smsc'));
}

export async function smscPort(child: ChildProcess): Promise<number> {
  return (await nextMessage<{ port: number }>(child, 30_000, 'SMSC simulator')).port;
}

/** The simulator's counters, and what it received since the last reset (`reset`: and count afresh). */
export function smscReport(child: ChildProcess, reset = false): Promise<{ stats: SmscStats; received: ReceivedCount }> {
  return ask(child, { reset }, 10_000, 'SMSC simulator');
}

/** Writes `routes.yaml` in `dir`: one SMPP route to the simulator, window 10, as the default route. */
export function writeBenchRoutes(
  dir: string,
  port: number,
  options: { throughput?: number; stateDurability?: 'normal' | 'full' } = {},
): string {
  const file = join(dir, 'routes.yaml');
  const delivery =
    options.stateDurability === undefined ? [] : ['delivery:', `  stateDurability: ${options.stateDurability}`];
  writeFileSync(
    file,
    [
      'routes:',
      '  bench:',
      '    type: smpp',
      '    host: 127.0.0.1',
      `    port: ${port}`,
      '    systemId: bench',
      '    passwordEnv: BENCH_SMPP_PASSWORD',
      '    window: 10',
      `    throughput: ${options.throughput ?? 0}`,
      'default: bench',
      ...delivery,
      '',
    ].join('\n'),
  );
  return file;
}
