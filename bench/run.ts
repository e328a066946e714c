/**
 * `npm run bench`: every performance figure measured against its peer in one run on this
 * machine, printed as a table and written to bench/results.json (the sections a run leaves out
 * are kept there from earlier runs, marked as such: lib/results.ts). Never part of `npm test`.
 *
 *   npm run bench -- [--quick] [--only server,service,client,rich,https,generator,conformance,delivery,callbacks,store,record,gateway,backlog,fuzz] [--before REF] [--seconds N] [--rounds N]
 *
 * --before REF: the server and client sections also run the generated server and client of
 * commit REF (a temporary worktree: lib/before.ts), so a change shows before/after in one run.
 * --quick: one short round per figure (a smoke test of the bench itself, not a measurement).
 * --seconds N: each timed round runs N seconds (default 3). A delivery round starts a fresh
 * `serve`: longer rounds weigh its first second less (the callbacks section at 8 s: 2026-11-29).
 * --rounds N: interleaved rounds per figure (default 6), e.g. one long round of a section.
 * BENCH_PROFILE=<dir>: the servers (and the rich section's clients) write --cpu-prof profiles there.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { checkoutBefore } from './lib/before.js';
import { installCleanup, killAll, pinToCpu, repoRoot, stopChild } from './lib/procs.js';
import { renderTable, targetsVerdict, type Row, type Settings } from './lib/report.js';
import { writeResults } from './lib/results.js';
import { captureResponses, startLoadGenerator, startServer } from './lib/servers.js';
import { runClientSection } from './sections/client.js';
import { runConformanceSection } from './sections/conformance.js';
import { runGeneratorSection } from './sections/generator.js';
import { runHttpsSection } from './sections/https.js';
import { runRecordSection } from './sections/record.js';
import { runRichSection } from './sections/rich.js';
import { runServerSection } from './sections/server.js';
import { runServiceSection } from './sections/service.js';
import { runDeliverySection } from './sections/delivery.js';
import { runCallbacksSection } from './sections/callbacks.js';
import { runFuzzSection } from './sections/fuzz.js';
import { runStoreSection } from './sections/store.js';
import { runGatewaySection } from './sections/gateway.js';
import { runBacklogSection } from './sections/backlog.js';

const SECTIONS = [
  'server',
  'service',
  'client',
  'rich',
  'https',
  'generator',
  'conformance',
  'delivery',
  'callbacks',
  'store',
  'record',
  'gateway',
  'backlog',
  'fuzz',
] as const;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: readonly string[]): { settings: Settings; only: Set<Section>; before?: string } {
  let quick = false;
  let before: string | undefined;
  let seconds: number | undefined;
  let rounds: number | undefined;
  let only = new Set<Section>(SECTIONS);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const list = arg === '--only' ? (argv[++i] ?? '') : arg.slice('--only='.length);
      const names = list.split(',').filter((s) => s !== '');
      const bad = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
      if (bad.length > 0 || names.length === 0) usage(`unknown section(s): ${bad.join(', ') || '(none)'}`);
      only = new Set(names as Section[]);
    } else if (arg === '--before' || arg.startsWith('--before=')) {
      before = arg === '--before' ? argv[++i] : arg.slice('--before='.length);
      if (before === undefined || before === '') usage('--before needs a git ref');
    } else if (arg === '--seconds' || arg.startsWith('--seconds=')) {
      seconds = wholeNumber('--seconds', arg === '--seconds' ? argv[++i] : arg.slice('--seconds='.length));
    } else if (arg === '--rounds' || arg.startsWith('--rounds=')) {
      rounds = wholeNumber('--rounds', arg === '--rounds' ? argv[++i] : arg.slice('--rounds='.length));
    } else usage(`unknown argument: ${arg}`);
  }
  const settings: Settings = quick
    ? { rounds: 1, seconds: 1, warmupSeconds: 0.5, connections: 32, runs: 1 }
    : // Six rounds: every order of three sides runs once (lib/stats.ts roundOrder).
      { rounds: rounds ?? 6, seconds: seconds ?? 3, warmupSeconds: 1, connections: 32, runs: 5 };
  return { settings, only, ...(before === undefined ? {} : { before }) };
}

function wholeNumber(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) usage(`${flag} needs a whole number, at least 1`);
  return value;
}

function usage(message: string): never {
  process.stderr.write(
    `bench: ${message}\nusage: npm run bench -- [--quick] [--only ${SECTIONS.join(',')}] [--before REF] [--seconds N] [--rounds N]\n`,
  );
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Sections 1 and 3 share the fixed-result servers and the load generator. */
async function runHttpSections(
  only: Set<Section>,
  settings: Settings,
  rows: Row[],
  figures: Record<string, unknown>,
  errors: string[],
  beforeRef: string | undefined,
): Promise<void> {
  const tree = beforeRef === undefined ? undefined : checkoutBefore(beforeRef);
  if (tree !== undefined) log(`before: commit ${tree.commit} checked out in ${tree.root}`);
  const generated = await startServer('generated');
  const responses = await captureResponses(generated.url);
  const [bare, nodeSoap, before] = await Promise.all([
    startServer('bare', responses),
    startServer('node-soap'),
    tree === undefined ? undefined : startServer('before', undefined, 'server.ts', undefined, tree.root),
  ]);
  const load = await startLoadGenerator();
  const servers = [generated, bare, nodeSoap, ...(before === undefined ? [] : [before])];
  const pinned = servers.every((server) => pinToCpu(server.child.pid, 1)) && pinToCpu(load.child.pid, 0);
  log(
    pinned
      ? '  servers pinned to CPU 1, their load (and the clients) to CPU 0'
      : '  not pinned (no taskset or one CPU)',
  );
  try {
    if (only.has('server')) {
      log(
        `server: generated${before === undefined ? '' : ' (and before)'} vs bare node:http vs node-soap, fixed result`,
      );
      await section('server', rows, figures, errors, () =>
        runServerSection(
          { generated, bare, nodeSoap, load, ...(before === undefined ? {} : { before }) },
          settings,
          log,
        ),
      );
    }
    if (only.has('client')) {
      log('client: generated vs node-soap vs raw undici, against the bare server');
      await section('client', rows, figures, errors, () => runClientSection(bare.url, settings, log, tree?.root));
    }
  } finally {
    const children = [
      generated.child,
      bare.child,
      nodeSoap.child,
      load.child,
      ...(before === undefined ? [] : [before.child]),
    ];
    await Promise.all(children.map((c) => stopChild(c)));
    tree?.remove();
  }
}

/** Runs one section; a failure is recorded (and makes the run exit 1) but the other sections still run. */
async function section(
  name: string,
  rows: Row[],
  figures: Record<string, unknown>,
  errors: string[],
  run: () => Promise<{ rows: Row[]; figures: Record<string, unknown> }>,
): Promise<void> {
  try {
    const result = await run();
    rows.push(...result.rows);
    figures[name] = result.figures;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    errors.push(`${name}: ${message}`);
    figures[name] = { error: message };
    log(`  ${name} FAILED: ${message}`);
  }
}

/**
 * The sections that start `bin/smskit.js` measure the CLI bundle users run: it is built from this
 * checkout first, and every child is told to refuse the tsx fallback, so a source edited during a
 * run fails those sections by name instead of timing tsx's start-up (~0.4 s more per process).
 */
function buildCliBundle(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.SMSKIT_REQUIRE_BUNDLE = '1';
}

async function main(): Promise<number> {
  installCleanup();
  const { settings, only, before } = parseArgs(process.argv.slice(2));
  buildCliBundle();
  const started = Date.now();
  const loadAtStart = os.loadavg();
  const figures: Record<string, unknown> = {};
  const rows: Row[] = [];
  const errors: string[] = [];
  if (only.has('server') || only.has('client')) {
    await section('servers', rows, figures, errors, async () => {
      await runHttpSections(only, settings, rows, figures, errors, before);
      return { rows: [], figures: { started: true } };
    });
  }
  if (only.has('service')) {
    log('service: smskit serve end to end');
    await section('service', rows, figures, errors, () => runServiceSection(settings, log));
  }
  if (only.has('delivery')) {
    log('delivery: smskit serve --routes over SMPP to the SMSC simulator, window 10');
    await section('delivery', rows, figures, errors, () => runDeliverySection(settings, log));
  }
  if (only.has('callbacks')) {
    log('callbacks: delivery with a signed callback per state change (receiver fast, or answering in 1 s) vs none');
    await section('callbacks', rows, figures, errors, () => runCallbacksSection(settings, log));
  }
  if (only.has('store')) {
    log('store: acknowledged msg/s with delivery on, one instance on SQLite vs one and two on PostgreSQL');
    await section('store', rows, figures, errors, () => runStoreSection(settings, log));
  }
  if (only.has('gateway')) {
    log('gateway: smskit serve --routes vs Kannel (bearerbox + smsbox), same SMSC simulator, same HTTP GET load');
    await section('gateway', rows, figures, errors, () => runGatewaySection(settings, log));
  }
  if (only.has('backlog')) {
    log('backlog: smskit serve --routes draining a backlog queued in its SQLite store, vs a 10,000-message one');
    await section('backlog', rows, figures, errors, () => runBacklogSection(settings, log));
  }
  if (only.has('rich')) {
    log(
      'rich: EchoOrder / EchoShapes (100 nested items, derived types) on rich.wsdl: generated vs node-soap vs bare / raw undici',
    );
    await section('rich', rows, figures, errors, () => runRichSection(settings, log));
  }
  if (only.has('https')) {
    log('https: generated server and client over TLS vs bare node:https / raw undici over TLS');
    await section('https', rows, figures, errors, () => runHttpsSection(settings, log));
  }
  if (only.has('generator')) {
    log('generator: smskit generate vs wsdl-tsclient');
    await section('generator', rows, figures, errors, () => runGeneratorSection(settings, log));
  }
  if (only.has('conformance')) {
    log('conformance: embedded run and a run against a running server');
    await section('conformance', rows, figures, errors, () => runConformanceSection(settings, log));
  }
  if (only.has('fuzz')) {
    log('fuzz: valid requests generated and encoded per second for the rich contract vs conformance case building');
    await section('fuzz', rows, figures, errors, () => runFuzzSection(settings, log));
  }
  if (only.has('record')) {
    log('record: the SMS server called directly and through smskit record (latency, throughput)');
    await section('record', rows, figures, errors, () => runRecordSection(settings, log));
  }
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverageAtStart: loadAtStart,
    loadAverage: os.loadavg(),
  };
  const result = {
    date: new Date().toISOString(),
    machine,
    settings,
    wallSeconds: (Date.now() - started) / 1000,
    rows,
    errors,
    figures,
  };
  const written = writeResults(fileURLToPath(new URL('results.json', import.meta.url)), result, SECTIONS, only);
  process.stdout.write(
    `\n${renderTable(rows)}\n\n${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, load average ${loadAtStart[0]!.toFixed(1)} at start, ${machine.loadAverage[0]!.toFixed(1)} at end, ${result.date}; medians of ${settings.rounds} rounds x ${settings.seconds} s, ${settings.connections} connections; process timings: medians of ${settings.runs} runs. Wrote bench/results.json (${Math.round(result.wallSeconds)} s).\n`,
  );
  const carried = Object.entries(written.carriedOver ?? {}).map(([name, { date }]) => `${name} (${date})`);
  if (carried.length > 0)
    process.stdout.write(`Kept in bench/results.json from earlier runs: ${carried.join(', ')}.\n`);
  process.stdout.write(`${targetsVerdict(rows, errors.length)}\n`);
  for (const error of errors) process.stdout.write(`FAILED ${error}\n`);
  return errors.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    killAll();
    process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  },
);
