/**
 * Section 3: client calls/s with 32 concurrent callers against the bare server: the generated
 * client against node-soap's client and a raw undici loop with prebuilt bytes (the limit).
 * Each client runs in its own process; rounds are interleaved.
 */
import type { ChildProcess } from 'node:child_process';
import { ask, cpuSeconds, forkChild, nextMessage, pinToCpu, stopChild, untilQuiet } from '../lib/procs.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import { median, roundOrder } from '../lib/stats.js';

const CALLERS = 32;

/** `before`: the generated client of the `--before` commit (its own checkout's client.ts). */
async function startClient(kind: string, url: string, beforeRoot: string | undefined): Promise<ChildProcess> {
  const child =
    kind === 'before'
      ? await forkChild('client.ts', ['generated', url], [], beforeRoot)
      : await forkChild('client.ts', [kind, url]);
  await nextMessage(child, 30_000, `${kind} client start`);
  pinToCpu(child.pid, 0); // beside the load generator, away from the server it calls (CPU 1)
  return child;
}

export async function runClientSection(
  bareUrl: string,
  settings: Settings,
  log: (line: string) => void,
  beforeRoot?: string,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const KINDS = ['generated', ...(beforeRoot === undefined ? [] : ['before']), 'node-soap', 'undici'];
  const children = new Map<string, ChildProcess>();
  try {
    for (const kind of KINDS) children.set(kind, await startClient(kind, bareUrl, beforeRoot));
    const run = async (kind: string, seconds: number): Promise<{ cps: number; cpuUs: number }> => {
      const pid = children.get(kind)!.pid;
      const cpuBefore = cpuSeconds(pid);
      const r = await ask<{ cps: number; failures: number; error?: string }>(
        children.get(kind)!,
        { seconds, callers: CALLERS },
        (seconds + 30) * 1000,
        `${kind} client`,
      );
      if (r.error !== undefined || r.failures > 0)
        throw new Error(`${kind} client: ${r.error ?? `${r.failures} failed calls`}`);
      const cpuAfter = cpuSeconds(pid);
      // CPU per call of the client process: steadier than calls/s when other work shares the cores.
      const cpuUs =
        cpuBefore === undefined || cpuAfter === undefined
          ? Number.NaN
          : ((cpuAfter - cpuBefore) * 1e6) / (r.cps * seconds);
      return { cps: r.cps, cpuUs };
    };
    for (const kind of KINDS) await run(kind, settings.warmupSeconds);
    const cps = new Map<string, number[]>(KINDS.map((k) => [k, []]));
    const cpuUs = new Map<string, number[]>(KINDS.map((k) => [k, []]));
    for (let round = 0; round < settings.rounds; round++) {
      for (const kind of roundOrder(KINDS, round)) {
        const value = await run(kind, settings.seconds);
        await untilQuiet(children.get(kind)!.pid);
        cps.get(kind)!.push(value.cps);
        cpuUs.get(kind)!.push(value.cpuUs);
        log(
          `  client ${kind} round ${round + 1}: ${Math.round(value.cps)} calls/s, ${value.cpuUs.toFixed(1)} µs CPU per call`,
        );
      }
    }
    const m = (k: string): number => median(cps.get(k)!);
    const cpu = (k: string): number => median(cpuUs.get(k)!);
    const base = { section: 'client', name: 'generated soap11 calls/s', figure: m('generated'), unit: 'calls/s' };
    const rows = [
      ratioRow({ ...base, peer: 'raw undici', peerFigure: m('undici') }, { min: 0.8 }),
      ratioRow({ ...base, peer: 'node-soap client', peerFigure: m('node-soap') }, { min: 5 }),
      {
        section: 'client',
        name: 'generated soap11 CPU per call',
        figure: cpu('generated'),
        unit: 'µs',
        peer: 'raw undici',
        peerFigure: cpu('undici'),
        ratio: cpu('undici') / cpu('generated'),
      },
    ];
    if (beforeRoot !== undefined)
      rows.push(
        {
          ...base,
          name: 'before: generated soap11 calls/s',
          figure: m('before'),
          peer: 'raw undici',
          peerFigure: m('undici'),
          ratio: m('before') / m('undici'),
        },
        {
          ...base,
          name: 'after/before: generated soap11 calls/s',
          peer: 'before',
          peerFigure: m('before'),
          ratio: m('generated') / m('before'),
        },
      );
    if (beforeRoot !== undefined)
      rows.push({
        section: 'client',
        name: 'before: generated soap11 CPU per call',
        figure: cpu('before'),
        unit: 'µs',
        peer: 'raw undici',
        peerFigure: cpu('undici'),
        ratio: cpu('undici') / cpu('before'),
      });
    return {
      rows,
      figures: { callers: CALLERS, callsPerSecond: Object.fromEntries(cps), cpuUsPerCall: Object.fromEntries(cpuUs) },
    };
  } finally {
    await Promise.all([...children.values()].map((c) => stopChild(c)));
  }
}
