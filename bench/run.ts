/**
 * `npm run bench`: every figure of issue 6 measured against its peer in one run on this
 * machine, printed as a table and written to bench/results.json. Never part of `npm test`.
 *
 *   node --import tsx bench/run.ts [--quick] [--only server,service,client,generator,conformance]
 *
 * --quick: one short round per figure (a smoke test of the bench itself, not a measurement).
 * BENCH_PROFILE=<dir>: the fixed-result servers write --cpu-prof profiles there.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { installCleanup, killAll, stopChild } from './lib/procs.js';
import { renderTable, type Row, type Settings } from './lib/report.js';
import { captureResponses, startLoadGenerator, startServer } from './lib/servers.js';
import { runClientSection } from './sections/client.js';
import { runConformanceSection } from './sections/conformance.js';
import { runGeneratorSection } from './sections/generator.js';
import { runServerSection } from './sections/server.js';
import { runServiceSection } from './sections/service.js';

const SECTIONS = ['server', 'service', 'client', 'generator', 'conformance'] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: readonly string[]): { settings: Settings; only: Set<Section> } {
  let quick = false;
  let only = new Set<Section>(SECTIONS);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const list = arg === '--only' ? argv[++i] ?? '' : arg.slice('--only='.length);
      const names = list.split(',').filter((s) => s !== '');
      const bad = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
      if (bad.length > 0 || names.length === 0) usage(`unknown section(s): ${bad.join(', ') || '(none)'}`);
      only = new Set(names as Section[]);
    } else usage(`unknown argument: ${arg}`);
  }
  const settings: Settings = quick ? { rounds: 1, seconds: 1, warmupSeconds: 0.5, connections: 32, runs: 1 } : { rounds: 3, seconds: 3, warmupSeconds: 1, connections: 32, runs: 3 };
  return { settings, only };
}

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\nusage: node --import tsx bench/run.ts [--quick] [--only ${SECTIONS.join(',')}]\n`);
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Sections 1 and 3 share the fixed-result servers and the load generator. */
async function runHttpSections(only: Set<Section>, settings: Settings, figures: Record<string, unknown>): Promise<Row[]> {
  if (!only.has('server') && !only.has('client')) return [];
  const generated = await startServer('generated');
  const responses = await captureResponses(generated.url);
  const [bare, nodeSoap] = await Promise.all([startServer('bare', responses), startServer('node-soap')]);
  const load = startLoadGenerator();
  const rows: Row[] = [];
  try {
    if (only.has('server')) {
      log('server: generated vs bare node:http vs node-soap, fixed result');
      const server = await runServerSection({ generated, bare, nodeSoap, load }, settings, log);
      rows.push(...server.rows);
      figures['server'] = server.figures;
    }
    if (only.has('client')) {
      log('client: generated vs node-soap vs raw undici, against the bare server');
      const client = await runClientSection(bare.url, settings, log);
      rows.push(...client.rows);
      figures['client'] = client.figures;
    }
  } finally {
    await Promise.all([generated.child, bare.child, nodeSoap.child, load.child].map((c) => stopChild(c)));
  }
  return rows;
}

async function main(): Promise<void> {
  installCleanup();
  const { settings, only } = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const figures: Record<string, unknown> = {};
  const rows: Row[] = await runHttpSections(only, settings, figures);
  if (only.has('service')) {
    log('service: smskit serve end to end');
    const service = await runServiceSection(settings, log);
    rows.push(...service.rows);
    figures['service'] = service.figures;
  }
  if (only.has('generator')) {
    log('generator: smskit generate vs wsdl-tsclient');
    const generator = await runGeneratorSection(settings, log);
    rows.push(...generator.rows);
    figures['generator'] = generator.figures;
  }
  if (only.has('conformance')) {
    log('conformance: embedded run and a run against a running server');
    const conformance = await runConformanceSection(settings, log);
    rows.push(...conformance.rows);
    figures['conformance'] = conformance.figures;
  }
  const machine = { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}`, loadAverage: os.loadavg() };
  const result = { date: new Date().toISOString(), machine, settings, wallSeconds: (Date.now() - started) / 1000, rows, figures };
  writeFileSync(fileURLToPath(new URL('results.json', import.meta.url)), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\n${renderTable(rows)}\n\n${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ${result.date}; medians of ${settings.rounds} rounds x ${settings.seconds} s, ${settings.connections} connections. Wrote bench/results.json (${Math.round(result.wallSeconds)} s).\n`);
  const misses = rows.filter((r) => r.pass === false).length;
  process.stdout.write(`${misses === 0 ? 'All targets met.' : `${misses} target(s) missed.`}\n`);
}

main().then(
  () => {
    killAll();
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  },
);
