/**
 * Section 5: wall time of `smskit conformance` as a process: the full embedded run (it starts
 * the built-in service itself), and a run against an already running `smskit serve`.
 * The runner's own reported time (without process start-up) is kept beside it.
 */
import { limitRow, type Row, type Settings } from '../lib/report.js';
import { ACCOUNT_INPUT, runCli, startService } from '../lib/serve.js';
import { median } from '../lib/stats.js';

interface Timing {
  readonly wall: number;
  readonly reported: number;
}

async function conformance(args: readonly string[], env: NodeJS.ProcessEnv, what: string): Promise<Timing> {
  const r = await runCli(['conformance', ...args], env);
  if (r.code !== 0) throw new Error(`${what}: exit ${r.code}: ${(r.stdout + r.stderr).slice(-800)}`);
  const reported = /(\d+) ms\s*$/.exec(r.stdout.trim());
  return { wall: r.ms / 1000, reported: reported === null ? Number.NaN : Number(reported[1]) / 1000 };
}

export async function runConformanceSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const service = await startService();
  try {
    const targetArgs = [
      '--target',
      `${service.origin}/serviceapi.asmx`,
      '--keyword',
      ACCOUNT_INPUT.keyword,
      '--email',
      ACCOUNT_INPUT.emailAddress,
      '--to',
      ACCOUNT_INPUT.smsto,
      '--carrier',
      ACCOUNT_INPUT.carrierCode,
      '--param',
      'port=5000',
    ];
    const targetEnv = { ...process.env, SMSKIT_PASSWORD: ACCOUNT_INPUT.password };
    const embedded = (): Promise<Timing> => conformance([], process.env, 'conformance (embedded)');
    const target = (): Promise<Timing> => conformance(targetArgs, targetEnv, 'conformance --target');
    await embedded(); // warm-up: file system cache
    await target();
    const runs = { embedded: [] as Timing[], target: [] as Timing[] };
    for (let run = 0; run < settings.runs; run++) {
      runs.embedded.push(await embedded());
      runs.target.push(await target());
      log(
        `  conformance run ${run + 1}: embedded ${runs.embedded.at(-1)!.wall.toFixed(2)} s, --target ${runs.target.at(-1)!.wall.toFixed(2)} s`,
      );
    }
    const wall = (t: Timing[]): number => median(t.map((x) => x.wall));
    const reported = (t: Timing[]): number => median(t.map((x) => x.reported));
    const rows: Row[] = [
      limitRow(
        { section: 'conformance', name: 'full embedded run, wall', figure: wall(runs.embedded), unit: 's' },
        { below: 1.5 },
      ),
      {
        section: 'conformance',
        name: 'full embedded run, as reported (no start-up)',
        figure: reported(runs.embedded),
        unit: 's',
      },
      limitRow(
        { section: 'conformance', name: 'run against a running server, wall', figure: wall(runs.target), unit: 's' },
        { below: 0.5 },
      ),
      {
        section: 'conformance',
        name: 'run against a running server, as reported',
        figure: reported(runs.target),
        unit: 's',
      },
    ];
    return { rows, figures: runs };
  } finally {
    await service.cleanup();
  }
}
