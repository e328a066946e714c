/**
 * Section 4: wall time of `smskit generate` against `wsdl-tsclient` on the same WSDL files,
 * each a fresh process as a user runs it (start-up included), runs interleaved, median.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTracked } from '../lib/procs.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import { median } from '../lib/stats.js';
import { sharedMissing } from '../../test/helpers/peers.js';
import { SHARED_FROM_ROOT } from '../../test/helpers/shared-dir.js';

/** Paths relative to the repo root, the bench's working directory; `shared` names a ../shared folder the file needs. */
const FILES = [
  { label: 'serviceapi.wsdl', path: 'wsdl/serviceapi.wsdl' },
  {
    label: 'properties-multischema-asmx.wsdl (largest corpus file)',
    path: `${SHARED_FROM_ROOT}/wsdl-corpus/properties-multischema-asmx.wsdl`,
    shared: 'wsdl-corpus',
  },
];

/** Runs `node args` to completion; the wall time in seconds. Throws on a non-zero exit. */
export function timeProcess(
  args: readonly string[],
  what: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 120_000,
): Promise<number> {
  const started = performance.now();
  const child = spawnTracked(process.execPath, args, env);
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what}: no exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`${what}: exit ${code}: ${stderr.slice(-500)}`));
    });
  });
}

export async function runGeneratorSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const out = mkdtempSync(join(tmpdir(), 'smskit-bench-gen-'));
  const rows: Row[] = [];
  const figures: Record<string, unknown> = {};
  try {
    for (const file of FILES) {
      const skip = file.shared === undefined ? undefined : sharedMissing(file.shared);
      if (skip !== undefined) {
        log(`  generate ${file.label}: ${skip}`);
        continue;
      }
      const ours = (): Promise<number> =>
        timeProcess(
          ['bin/smskit.js', 'generate', '--wsdl', file.path, '--out', join(out, 'ours')],
          `smskit generate ${file.label}`,
        );
      const theirs = (): Promise<number> =>
        timeProcess(
          ['node_modules/wsdl-tsclient/dist/src/cli.js', file.path, '-o', join(out, 'wsdl-tsclient')],
          `wsdl-tsclient ${file.label}`,
        );
      await ours(); // warm-up: the file system cache, not the process
      await theirs();
      const times = { smskit: [] as number[], wsdlTsclient: [] as number[] };
      for (let run = 0; run < settings.runs; run++) {
        times.smskit.push(await ours());
        times.wsdlTsclient.push(await theirs());
        log(
          `  generate ${file.label} run ${run + 1}: smskit ${times.smskit.at(-1)!.toFixed(2)} s, wsdl-tsclient ${times.wsdlTsclient.at(-1)!.toFixed(2)} s`,
        );
      }
      figures[file.path] = times;
      rows.push(
        ratioRow(
          {
            section: 'generator',
            name: `smskit generate ${file.label}`,
            figure: median(times.smskit),
            unit: 's',
            peer: 'wsdl-tsclient',
            peerFigure: median(times.wsdlTsclient),
          },
          { max: 0.5 },
        ),
      );
    }
    rows.push(...(await startupRows(settings, figures)));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { rows, figures };
}

/**
 * What every smskit command pays before it does anything: Node with the tsx loader, and the
 * CLI (`smskit --version`: yargs and every command module). These bound the generator and the
 * conformance wall times from below.
 */
async function startupRows(settings: Settings, figures: Record<string, unknown>): Promise<Row[]> {
  const tsx = (): Promise<number> => timeProcess(['--import', 'tsx', '-e', '0'], 'node --import tsx');
  const cli = (): Promise<number> => timeProcess(['bin/smskit.js', '--version'], 'smskit --version');
  const node = (): Promise<number> => timeProcess(['-e', '0'], 'node');
  const times = { node: [] as number[], tsx: [] as number[], cli: [] as number[] };
  for (let run = 0; run < settings.runs; run++) {
    times.node.push(await node());
    times.tsx.push(await tsx());
    times.cli.push(await cli());
  }
  figures.startup = times;
  return [
    { section: 'generator', name: 'start-up: node -e 0', figure: median(times.node), unit: 's' },
    { section: 'generator', name: 'start-up: node --import tsx -e 0', figure: median(times.tsx), unit: 's' },
    { section: 'generator', name: 'start-up: smskit --version', figure: median(times.cli), unit: 's' },
  ];
}
