/**
 * The doc-run suite: every shell command and every TypeScript, JSON and YAML example in README.md
 * and docs/*.md, run as written in a fresh consumer project that installed the packed tarball
 * (test/helpers/consumer-project.ts), one project per document, blocks in document order. The
 * markers that say what an example needs are described in docs/development.md ("Examples that
 * run") and read by doc-blocks.ts. An unmarked example that fails fails this suite.
 *
 * - sh: `bash -e -o pipefail`, in the project, with the user's PATH (npx-shortcut.ts: a bare
 *   `smskit` fails as it would for a user, write `npx smskit`), exit 0 unless `exit=`.
 * - ts: written to the project (src/doc-<line>.ts unless `file=`), compiled as the project's
 *   `tsc -p .` compiles it (strict, NodeNext, skipLibCheck; project-compiler.ts); with `run`,
 *   run by plain node.
 * - json/yaml: parsed; with `file=`, written to the project for the blocks after it.
 *
 * The documents are split in four parts of about the same length, one test file each
 * (doc-run.test.ts, doc-run-2..4.test.ts), so that the workers run them side by side; every part
 * (and the package test) uses one install of the packed tarball (test/helpers/shared-consumer.ts).
 *
 * SMSKIT_DOC_RUN=<file.md>[,<file.md>…] runs those documents instead (how a planted broken example
 * was shown to fail the suite); SMSKIT_CONSUMER_TARBALL=<file.tgz> installs that tarball.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { npmEnv, npmSkipReason } from '../helpers/consumer-project.js';
import { sharedConsumer } from '../helpers/shared-consumer.js';
import { type DocBlock, docBlocks, outputMatches, RUN_LANGUAGES } from './doc-blocks.js';
import { needsNpmNpx, shortcutPath, userPath } from './npx-shortcut.js';
import { compileProject, DOC_TSCONFIG } from './project-compiler.js';
import { STAND_INS, type StandIn } from './stand-ins.js';
import { runUnit } from './systemd-unit.js';

const documents = (
  process.env.SMSKIT_DOC_RUN?.split(',') ?? [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ]
).map((file) => resolve(repoRoot, file));

/** Declarations compiled in front of a `prelude=<name>` snippet: names its document defines elsewhere. */
const PRELUDES: Readonly<Record<string, string>> = {
  // docs/networks.md: one client constructor per option, all for the generated SMS client.
  client: `import { readFileSync } from 'node:fs';
import { ServiceAPIClient } from './generated/service-api/index.js';
declare const url: string, pw: string, token: string;
`,
  // docs/networks.md: a request listener made earlier in the program.
  listener: `import { readFileSync } from 'node:fs';
import type { SmskitRequestListener } from 'smskit/runtime';
declare const listener: SmskitRequestListener;
`,
  // docs/runtime.md: a generated descriptor, the WSDL's text and a logger from the application.
  runtime: `import type { Logger, ServiceDescriptor } from 'smskit/runtime';
declare const descriptor: ServiceDescriptor, wsdlText: string, logger: Logger;
`,
};

function freePort(): Promise<number> {
  return new Promise((resolveFree, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolveFree(port));
    });
  });
}

interface Outcome {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function shell(code: string, cwd: string, env: Record<string, string>, path: string): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], {
      cwd,
      env: npmEnv({ ...env, PATH: path }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      stderr += '\n(doc-run: killed after 120 s)';
      process.kill(-child.pid!, 'SIGKILL');
    }, 120_000);
    child.once('close', (status) => {
      clearTimeout(timer);
      done({ status, stdout, stderr });
    });
  });
}

/** A long-running example (a server): resolves once its output matches `ready`. */
function background(
  code: string,
  cwd: string,
  env: Record<string, string>,
  path: string,
  ready: RegExp,
): Promise<ChildProcess> {
  const child = spawn('bash', ['-e', '-c', code], {
    cwd,
    env: npmEnv({ ...env, PATH: path }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  return new Promise((started, failed) => {
    const timer = setTimeout(() => failed(new Error(`not ready (${ready}) after 60 s:\n${output}`)), 60_000);
    const onData = (chunk: string): void => {
      output += chunk;
      if (!ready.test(output)) return;
      clearTimeout(timer);
      started(child);
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('close', (status) => {
      clearTimeout(timer);
      failed(new Error(`exited (${status}) before it was ready (${ready}):\n${output}`));
    });
  });
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((stopped) => {
    child.once('close', () => stopped());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

function describeBlock(block: DocBlock): string {
  const first = block.code.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '';
  return `${relative(repoRoot, block.doc)}:${block.line} ${block.lang}: ${first.trim().slice(0, 70)}`;
}

/** The state one document's examples share: its project, ports, stand-ins, background processes. */
class DocProject {
  readonly ports = new Map<number, number>();
  readonly standIns = new Map<string, StandIn>();
  readonly processes: ChildProcess[] = [];
  /** TypeScript examples written and not compiled yet: one compile checks a run of them (seconds each). */
  private uncompiled: DocBlock[] = [];

  /**
   * @param dir the project folder
   * @param shortcutPath the examples' PATH with the npx shortcut first (npx-shortcut.ts)
   */
  constructor(
    readonly dir: string,
    private readonly shortcutPath: string,
  ) {}

  /** The PATH an example runs with: npm's npx where it must meet it as users do, else the shortcut. */
  pathFor(code: string, longRunning: boolean): string {
    return needsNpmNpx(code, longRunning) ? userPath() : this.shortcutPath;
  }

  typecheckLater(block: DocBlock): void {
    this.uncompiled.push(block);
  }

  /** Compiles the project if a TypeScript example was written since the last compile. */
  compile(): void {
    if (this.uncompiled.length === 0) return;
    const blocks = this.uncompiled;
    this.uncompiled = [];
    const tsc = compileProject(this.dir);
    if (tsc.status !== 0)
      throw new Error(
        `tsc -p . failed (src/doc-<line>.ts is the example at that line) on ${blocks.map(describeBlock).join('; ')}:\n${tsc.output}`,
      );
  }

  /** The example as it runs here: the document's ports and internet origins replaced by local ones. */
  async localise(block: DocBlock): Promise<string> {
    if (block.marker.port !== undefined && !this.ports.has(block.marker.port))
      this.ports.set(block.marker.port, await freePort());
    if (block.marker.standIn !== undefined && !this.standIns.has(block.marker.standIn)) {
      const start = STAND_INS[block.marker.standIn];
      if (start === undefined) throw new Error(`${describeBlock(block)}: no stand-in "${block.marker.standIn}"`);
      this.standIns.set(block.marker.standIn, await start());
    }
    let code = block.code;
    for (const [documented, real] of this.ports)
      code = code.replace(new RegExp(`\\b${documented}\\b`, 'g'), String(real));
    for (const standIn of this.standIns.values()) code = code.replaceAll(standIn.publicOrigin, standIn.origin);
    return code;
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map(stopGroup));
    await Promise.all([...this.standIns.values()].map((s) => s.close()));
  }
}

function expectOutcome(block: DocBlock, outcome: Outcome): void {
  const shown = `${describeBlock(block)}\nexit ${outcome.status}\nstdout:\n${outcome.stdout}\nstderr:\n${outcome.stderr}`;
  if (outcome.status !== block.marker.exit)
    throw new Error(`the example exited ${outcome.status}, not ${block.marker.exit}: ${shown}`);
  const want = block.marker.stdout?.replaceAll('\\n', '\n');
  if (want !== undefined && !outputMatches(outcome.stdout, want))
    throw new Error(`the example's output does not show "${want}": ${shown}`);
}

async function runBlock(project: DocProject, block: DocBlock): Promise<void> {
  // A workflow for another CI system cannot run here; it must still be valid YAML.
  if (block.marker.skip === 'ci-workflow') return void parseYaml(block.code, { strict: true });
  const code = await project.localise(block);
  const { marker } = block;
  if (marker.unit) return void (await runUnit(code, project.dir));
  // Any example but one more TypeScript file to type-check may depend on the compiled project.
  if (block.lang !== 'ts' || marker.run) project.compile();
  if (block.lang === 'sh' || block.lang === 'bash') {
    if (marker.background) {
      const ready = new RegExp(marker.ready ?? 'listening on');
      const path = project.pathFor(code, true);
      project.processes.push(await background(code, project.dir, marker.env, path, ready));
      return;
    }
    expectOutcome(block, await shell(code, project.dir, marker.env, project.pathFor(code, false)));
    return;
  }
  if (block.lang === 'ts') {
    const file = marker.file ?? `src/doc-${block.line}.ts`;
    const prelude = marker.prelude === undefined ? '' : PRELUDES[marker.prelude];
    if (prelude === undefined) throw new Error(`${describeBlock(block)}: no prelude "${marker.prelude}"`);
    mkdirSync(dirname(join(project.dir, file)), { recursive: true });
    writeFileSync(join(project.dir, file), `${prelude}${code}\n`);
    project.typecheckLater(block);
    if (!marker.run) return;
    project.compile();
    const js = join('dist', relative('src', file)).replace(/\.ts$/, '.js');
    expectOutcome(block, await shell(`node ${js}`, project.dir, marker.env, userPath()));
    return;
  }
  if (block.lang === 'json') JSON.parse(code);
  else parseYaml(code, { strict: true });
  if (marker.file !== undefined) {
    mkdirSync(dirname(join(project.dir, marker.file)), { recursive: true });
    writeFileSync(join(project.dir, marker.file), `${code}\n`);
  }
}

/**
 * Seconds each document's examples took in a run of the four parts (the 2-core machine,
 * 2026-11-30, README.md's tsconfig.json with skipLibCheck): the parts are balanced by them. A
 * document not listed counts 3 s per runnable example.
 */
const DOC_SECONDS: Readonly<Record<string, number>> = {
  'docs/fuzz.md': 15,
  'docs/status.md': 12,
  'README.md': 10,
  'docs/operations.md': 8,
  'docs/conformance.md': 7,
  'docs/migrate.md': 7,
  'docs/status-service.md': 6,
  'docs/delivery.md': 5,
  'docs/diff.md': 3,
  'docs/networks.md': 3,
  'docs/deployment.md': 2,
  'docs/generator.md': 2,
  'docs/service.md': 2,
  'docs/runtime.md': 1,
  'docs/ws-security.md': 1,
};

export const DOC_RUN_PARTS = 4;

/** The documents of part `part` (0-based): each document to the part with the least time so far, longest first. */
function partOf(part: number): string[] {
  const weight = (doc: string): number => {
    const name = relative(repoRoot, doc);
    return DOC_SECONDS[name] ?? 3 * runnableBlocks(doc).length;
  };
  const parts = Array.from({ length: DOC_RUN_PARTS }, () => ({ seconds: 0, documents: [] as string[] }));
  const byWeight = documents.map((doc) => ({ doc, seconds: weight(doc) })).sort((a, b) => b.seconds - a.seconds);
  for (const { doc, seconds } of byWeight) {
    const lightest = parts.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.seconds += seconds;
    lightest.documents.push(doc);
  }
  return parts[part]!.documents.sort((a, b) => documents.indexOf(a) - documents.indexOf(b));
}

function runnableBlocks(doc: string): DocBlock[] {
  return docBlocks(doc, readFileSync(doc, 'utf8')).filter(
    (b) =>
      (RUN_LANGUAGES.has(b.lang) || b.marker.unit) && (b.marker.skip === undefined || b.marker.skip === 'ci-workflow'),
  );
}

/** One part of the documents, in a project of its own. */
export function defineDocRun(part: number): void {
  const mine = partOf(part);
  const SKIP =
    npmSkipReason() ??
    (mine.length === 0
      ? `skipped: SMSKIT_DOC_RUN names no document of part ${part + 1} of ${DOC_RUN_PARTS}`
      : undefined);
  if (SKIP !== undefined) console.warn(`doc-run: ${SKIP}`);
  describe.skipIf(SKIP !== undefined)('the docs’ examples, run in a consumer project', () => {
    if (mine.length === 0) it('runs the documents of this part', () => undefined);
    docRunSuite(mine);
  });
}

function docRunSuite(documents: readonly string[]): void {
  let work: string;
  let template: string;
  let offline: string | undefined;
  /** The examples' PATH with the npx shortcut first. */
  let examples: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'smskit-doc-run-'));
    examples = shortcutPath(work);
    const shared = await sharedConsumer('doc-run', join(work, 'consumer'));
    if ('skip' in shared) offline = shared.skip;
    else template = shared.template;
  }, 600_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  for (const doc of documents) {
    const name = relative(repoRoot, doc);
    const blocks = runnableBlocks(doc);
    if (blocks.length === 0) console.warn(`doc-run: skipped — ${name} has no runnable example`);
    it.skipIf(blocks.length === 0)(
      `${name}: ${blocks.length} examples run as written`,
      async (ctx) => {
        if (offline !== undefined) ctx.skip(offline);
        const dir = join(work, name.replace(/[/.]/g, '-'));
        mkdirSync(dir);
        for (const entry of readdirSync(template))
          if (entry === 'node_modules') symlinkSync(join(template, entry), join(dir, entry), 'dir');
          else cpSync(join(template, entry), join(dir, entry));
        writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(DOC_TSCONFIG, null, 2)}\n`);
        const project = new DocProject(dir, examples);
        try {
          for (const block of blocks) await runBlock(project, block);
          project.compile();
        } finally {
          await project.close();
        }
        expect(blocks.length).toBeGreaterThan(0);
      },
      600_000,
    );
  }
}
