/**
 * The fuzzer's memory over a long run, outside CI: `node --expose-gc --import tsx
 * bench/fuzz-memory.ts [--minutes 10] [--seed S]`. `smskit fuzz`'s library runs against
 * smskit's rich-contract server in its own process (test/fixtures/asmx/rich.wsdl, every operation and binding, valid
 * and invalid inputs) for the given time; every 30 s the live heap after a full collection and the
 * RSS are printed. Exit 0 when the live heap of the second half grew by less than 16 MiB (a run
 * keeps findings and counts, not requests), 1 otherwise.
 */
import { parseArgs } from 'node:util';
import { readContract } from '../contract/read/index.js';
import { runFuzz } from '../fuzz/index.js';
import { forkChild, nextMessage, stopChild } from './lib/procs.js';
import { RICH_PATH } from './lib/rich-payloads.js';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, seed: { type: 'string' } } });
const minutes = Number(values.minutes);
const seed = values.seed === undefined ? 2026 : Number(values.seed);
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined || !(minutes > 0) || !Number.isInteger(seed)) {
  process.stderr.write('fuzz-memory: run with node --expose-gc; --minutes > 0, --seed an integer\n');
  process.exit(2);
}

const MiB = 2 ** 20;
const samples: { at: number; heap: number; rss: number }[] = [];
const started = performance.now();
const sample = (): void => {
  collect();
  const { heapUsed, rss } = process.memoryUsage();
  const at = (performance.now() - started) / 1000;
  samples.push({ at, heap: heapUsed / MiB, rss: rss / MiB });
  process.stdout.write(
    `${at.toFixed(0).padStart(5)} s  heap ${(heapUsed / MiB).toFixed(1)} MiB  rss ${(rss / MiB).toFixed(0)} MiB\n`,
  );
};

// The server in its own process (bench/children/rich-server.ts, the generated one): what is
// measured here is the fuzzer alone.
const server = await forkChild('rich-server.ts', ['generated']);
const { url } = await nextMessage<{ url: string }>(server, 30_000, 'rich server');
let cases = 0;
try {
  const model = (await readContract('test/fixtures/asmx/rich.wsdl')).model;
  sample();
  const timer = setInterval(sample, 30_000);
  const report = await runFuzz({
    wsdlModel: model,
    target: new URL(RICH_PATH, url).href,
    allowWrites: true,
    seed,
    budgetMs: minutes * 60_000,
    onRound: (_property, n) => {
      cases += n;
    },
  });
  clearInterval(timer);
  sample();
  cases = report.summary.cases;
  process.stdout.write(`${report.summary.cases} cases, ${report.findings.length} findings, seed ${seed}\n`);
} finally {
  await stopChild(server);
}
const half = samples.filter((s) => s.at >= samples.at(-1)!.at / 2);
const growth = half.at(-1)!.heap - half[0]!.heap;
const peakRss = Math.max(...samples.map((s) => s.rss));
process.stdout.write(
  `live heap over the second half: ${half[0]!.heap.toFixed(1)} -> ${half.at(-1)!.heap.toFixed(1)} MiB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}); peak RSS ${peakRss.toFixed(0)} MiB; ${cases} cases\n`,
);
process.exit(growth < 16 ? 0 : 1);
