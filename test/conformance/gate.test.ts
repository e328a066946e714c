/**
 * A CI gate that cannot pass by mistake: the runs that used to pass (or fail with the cause
 * buried) on a typo, a web site, a wrong path or missing credentials now end with one line and
 * exit 2; --max-failures, a baseline of known failures, and reports that say where they come
 * from. Ctrl-C and slow targets: progress, reports of what ran, exit 130, no stale file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedService } from '../../bin/embedded-service.js';
import { CONFORMANCE_DEFAULTS } from '../../bin/conformance-defaults.js';
import { conformanceBuilder, validateConformanceArgs } from '../../bin/conformance/options.js';
import { executeConformance, type CommandIo, type EmbeddedTarget } from '../../bin/conformance/execute.js';
import { ConformanceError } from '../../conformance/errors.js';
import type { Listening } from '../../runtime/index.js';
import { startBrokenServer, type BrokenServer } from '../fixtures/conformance/broken-server.js';
import { contractModel } from '../fixtures/conformance/contract.js';
import { DEFECTS } from '../fixtures/conformance/defects.js';
import { startReferenceServer } from '../fixtures/conformance/reference-server.js';
import { TEST_BODY_LIMIT } from '../fixtures/conformance/run.js';
import { startHtmlSite, startNotFound, startSlowProxy, type TestServer } from './gate-servers.js';

/**
 * The port python3 -m http.server bound when asked for port 0, read from the line it prints.
 * Asking the system for a free port (instead of guessing one) means no other test's server can
 * hold it, and the line is printed only once the socket listens.
 */
function boundPort(python: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let printed = '';
    python.stdout!.setEncoding('utf8');
    python.stdout!.on('data', (chunk: string) => {
      printed += chunk;
      const port = /Serving HTTP on \S+ port (\d+)/.exec(printed)?.[1];
      if (port !== undefined) resolve(Number(port));
    });
    python.once('exit', (code) =>
      reject(new Error(`python3 -m http.server exited (${code}) before listening: ${printed}`)),
    );
  });
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'smskit-gate-'));
const INPUT_FLAGS = [
  '--keyword',
  'KW',
  '--email',
  'tester@example.com',
  '--password',
  'Sup3r-Secret',
  '--to',
  '+15551234567',
  '--carrier',
  'att',
  '--param',
  'port=5000',
];

function parse(argv: string[]) {
  const args = conformanceBuilder(yargs(argv).strict(), CONFORMANCE_DEFAULTS).parseSync() as Record<string, unknown>;
  return validateConformanceArgs(args, {}, CONFORMANCE_DEFAULTS);
}

/** A progress line, which a run longer than a second prints without a terminal (its own case below). */
const PROGRESS_LINE = /^smskit conformance: \d+\/\d+ cases, \d+ failed, \d+\.\d s\n$/;

/** The command's output, progress lines apart: on a loaded machine any run may last past the first second. */
function captureIo(extra: Partial<CommandIo> = {}) {
  const out = { stdout: '', stderr: '', progress: '', files: new Map<string, string>() };
  const io: CommandIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (PROGRESS_LINE.test(t) ? (out.progress += t) : (out.stderr += t)),
    writeFile: (p, t) => void out.files.set(p, t),
    toolVersion: '9.9.9-test',
    embeddedTarget: startEmbeddedService,
    ...extra,
  };
  return { out, io };
}

async function run(argv: string[], extra: Partial<CommandIo> = {}) {
  const { out, io } = captureIo(extra);
  const outcome = await executeConformance(parse(argv), io).catch((error: unknown) => error);
  return { outcome, ...out };
}

interface Child {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** The real CLI; `interruptAfterMs` sends SIGINT then. */
function cli(args: readonly string[], options: { interruptAfterMs?: number } = {}): Promise<Child> {
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/smskit.js', 'conformance', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  if (options.interruptAfterMs !== undefined) {
    // Interrupt once the run is under way (its first progress line), not while tsx compiles.
    const timer = setInterval(() => {
      if (/smskit conformance: \d+\/\d+ cases/.test(stderr)) {
        clearInterval(timer);
        setTimeout(() => child.kill('SIGINT'), options.interruptAfterMs);
      }
    }, 20);
    child.on('close', () => clearInterval(timer));
  }
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    }),
  );
}

const servers: (TestServer | Listening | BrokenServer | EmbeddedTarget)[] = [];
let reference: Listening;

beforeAll(async () => {
  reference = await startReferenceServer(TEST_BODY_LIMIT);
  servers.push(reference);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});

const targetOf = (origin: string) => [
  '--target',
  `${origin}/serviceapi.asmx`,
  '--max-body-bytes',
  String(TEST_BODY_LIMIT),
  '--retries',
  '0',
  ...INPUT_FLAGS,
];

describe('runs that cannot be judged end with one line and exit 2', () => {
  it('a --run pattern that matches no case (a typo) runs nothing: exit 2, never PASS', async () => {
    const result = await run(['--run', 'SMSSnd/**']);
    expect(result.outcome).toBeInstanceOf(ConformanceError);
    expect((result.outcome as ConformanceError).code).toBe('NOTHING_SELECTED');
    expect((result.outcome as Error).message).toBe(
      '--run SMSSnd/** matches no case (case ids look like SMSSend/soap11/ok/plain; --list shows them all)',
    );
    expect(result.stdout).not.toMatch(/PASS/);
  });

  it('a selection that leaves nothing (every case skipped) is refused too', async () => {
    const result = await run(['--skip', '**']);
    expect((result.outcome as ConformanceError).code).toBe('NOTHING_SELECTED');
  });

  it('HTML pages everywhere (a web site, as python3 -m http.server answers)', async () => {
    const site = await startHtmlSite();
    servers.push(site);
    const result = await run([
      ...targetOf(site.origin),
      '--reporter',
      'pretty',
      '--reporter',
      'json',
      '--out',
      'r.json',
    ]);
    expect(result.outcome).toBe('incomplete');
    expect(result.stderr).toMatch(
      /^smskit: every answer was an HTML page \(HTTP 501 ×\d+, 404 ×\d+\): http:\/\/127\.0\.0\.1:\d+\/serviceapi\.asmx looks like a web site, not the SOAP service of this WSDL; is --target the service endpoint\?\n$/,
    );
    expect(result.stdout).toMatch(/^NOT JUDGED \(--fail-on must\)/m);
    expect(result.stdout).not.toMatch(/Accepted refusals/);
    const json = JSON.parse(result.files.get('r.json')!) as { summary: { ok: boolean; diagnosis: string } };
    expect(json.summary.ok).toBe(false);
    expect(json.summary.diagnosis).toMatch(/^every answer was an HTML page/);
  });

  it.skipIf(!existsSync('/usr/bin/python3'))('the real python3 -m http.server', async () => {
    const python = spawn(
      '/usr/bin/python3',
      ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', scratch],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const port = await boundPort(python);
      const result = await run(targetOf(`http://127.0.0.1:${port}`));
      expect(result.outcome).toBe('incomplete');
      expect(result.stderr).toMatch(/^smskit: every answer was an HTML page/m);
    } finally {
      python.kill();
    }
  });

  it('404 everywhere: is the path right?', async () => {
    const nothing = await startNotFound();
    servers.push(nothing);
    const result = await run(targetOf(nothing.origin));
    expect(result.outcome).toBe('incomplete');
    expect(result.stderr).toMatch(
      /^smskit: every answer was 404 \(\d+ requests\): is the path right\? --target http:\/\/127\.0\.0\.1:\d+\/serviceapi\.asmx \(the WSDL's address path is \/serviceapi\.asmx\)\n$/,
    );
  });

  it('a selection of negative cases only is judged case by case (their right answers may be errors)', async () => {
    const nothing = await startNotFound();
    servers.push(nothing);
    const result = await run([
      ...targetOf(nothing.origin),
      '--run',
      '**/error/unsupported-method',
      '--fail-on',
      'should',
    ]);
    expect(result.outcome).toBe('failed');
    expect(result.stderr).toBe('');
  });

  it('credentials refused on every positive case: one line naming them', async () => {
    const service = await startEmbeddedService({
      wsdlText: readFileSync('wsdl/serviceapi.wsdl', 'utf8'),
      path: '/serviceapi.asmx',
      maxBodyBytes: 4 * 1024 * 1024,
    });
    servers.push(service);
    const values = service.inputs.values;
    const argv = [
      '--target',
      service.url,
      '--retries',
      '0',
      '--keyword',
      values.keyword!,
      '--email',
      values.email!,
      '--password',
      'not-the-password',
      '--to',
      values.to!,
      '--carrier',
      values.carrier!,
      '--param',
      `port=${values.port}`,
    ];
    const result = await run(argv);
    expect(result.outcome).toBe('incomplete');
    expect(result.stderr).toMatch(
      /^smskit: every positive case \(\d+\) was refused, \d+ of them about who is calling \(HTTP 500: "[^"]*(AuthenticationFailed|TooManyAttempts)[^"]*"\): the credentials are the likely cause; give them with --inputs, --param or \$SMSKIT_PASSWORD\n$/,
    );
    expect(result.stderr).not.toContain('not-the-password');
  });

  it('a correct server with the right inputs is judged as before', async () => {
    const result = await run(targetOf(reference.url));
    expect(result.outcome).toBe('passed');
    expect(result.stderr).toBe('');
  });
});

describe('--max-failures', () => {
  it('stops sending after N failing cases: the rest not run, exit 1', async () => {
    const broken = await startBrokenServer(reference.url, DEFECTS.find((d) => d.name === '202 instead of 200')!.alter);
    servers.push(broken);
    const result = await run([
      ...targetOf(broken.url),
      '--max-failures',
      '3',
      '--concurrency',
      '2',
      '--reporter',
      'pretty',
      '--reporter',
      'json',
      '--out',
      'r.json',
    ]);
    expect(result.outcome).toBe('failed');
    const json = JSON.parse(result.files.get('r.json')!) as {
      summary: { stoppedAfterFailures: number; notRun: number; failed: number };
      cases: { status: string; skipReason?: string }[];
    };
    expect(json.summary.stoppedAfterFailures).toBe(3);
    expect(json.summary.failed).toBeGreaterThanOrEqual(3);
    expect(json.summary.failed).toBeLessThanOrEqual(4); // the one in flight on the second connection may finish
    expect(json.summary.notRun).toBeGreaterThan(60);
    expect(json.cases.find((c) => c.status === 'not-run')!.skipReason).toBe(
      'not run: the run stopped after 3 failing case(s) (--max-failures 3)',
    );
    expect(result.stdout).toMatch(/; stopped after 3 failing case\(s\) \(--max-failures\); \d+ ms$/m);
  });
});

describe('a baseline of known failures: gate on new ones only', () => {
  const baselineFile = join(scratch, 'known.json');
  let oneDefect: BrokenServer;
  let twoDefects: BrokenServer;
  beforeAll(async () => {
    const status = DEFECTS.find((d) => d.name === 'a fault sent with 200')!.alter;
    const charset = DEFECTS.find((d) => d.name === 'wrong content type')!.alter;
    oneDefect = await startBrokenServer(reference.url, status);
    twoDefects = await startBrokenServer(reference.url, (req, res) => charset(req, status(req, res)));
    servers.push(oneDefect, twoDefects);
  });

  it('--write-baseline records the failures at or above --fail-on, exit 0', async () => {
    const { out, io } = captureIo({ writeFile: (p, t) => writeFileSync(p, t) });
    const outcome = await executeConformance(
      parse([...targetOf(oneDefect.url), '--fail-on', 'should', '--write-baseline', baselineFile]),
      io,
    );
    expect(outcome).toBe('baseline-written');
    expect(out.stderr).toMatch(/^smskit: wrote \d+ known failure\(s\) to .*known\.json\n$/);
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as {
      format: number;
      tool: string;
      wsdlSha256: string;
      failures: { case: string; check: string }[];
    };
    expect(baseline.format).toBe(1);
    expect(baseline.tool).toBe('smskit 9.9.9-test');
    expect(baseline.wsdlSha256).toBe(contractModel.hash);
    expect(new Set(baseline.failures.map((f) => f.check))).toEqual(new Set(['fault.status']));
  });

  it('--baseline: the known failures are reported but do not fail the run', async () => {
    const result = await run([
      ...targetOf(oneDefect.url),
      '--fail-on',
      'should',
      '--baseline',
      baselineFile,
      '--reporter',
      'pretty',
      '--reporter',
      'junit',
      '--out',
      'j.xml',
    ]);
    expect(result.outcome).toBe('passed');
    expect(result.stdout).toMatch(
      /^PASS \(--fail-on should\): .*; baseline .*known\.json: \d+ known, 0 new, 0 fixed; \d+ ms$/m,
    );
    expect(result.stdout).toContain('Known failures (');
    expect(result.files.get('j.xml')).toMatch(/<testsuites name="smskit conformance" tests="\d+" failures="0"/);
    expect(result.files.get('j.xml')).toContain('known failure (baseline) [fault.status SHOULD]');
  });

  it('a new failure fails the run, and only it is a JUnit failure', async () => {
    const result = await run([
      ...targetOf(twoDefects.url),
      '--fail-on',
      'should',
      '--baseline',
      baselineFile,
      '--reporter',
      'junit',
    ]);
    expect(result.outcome).toBe('failed');
    const failures = [...result.stdout.matchAll(/<failure message="([^:"]+):/g)].map((m) => m[1]);
    // The new defect's findings (its content type also fails fault.version at SHOULD); the known fault.status is no failure.
    expect(failures).toContain('http.content-type');
    expect(failures).not.toContain('fault.status');
    expect(result.stdout).toContain('known failure (baseline) [fault.status SHOULD]');
  });

  it('listed failures that now pass are named as fixed', async () => {
    const result = await run([
      ...targetOf(reference.url),
      '--fail-on',
      'should',
      '--baseline',
      baselineFile,
      '--reporter',
      'json',
    ]);
    expect(result.outcome).toBe('passed');
    const json = JSON.parse(result.stdout) as {
      summary: { baseline: { known: number; new: number; fixed: string[] } };
    };
    expect(json.summary.baseline.known).toBe(0);
    expect(json.summary.baseline.fixed.length).toBeGreaterThan(0);
    expect(json.summary.baseline.fixed[0]).toMatch(/ fault\.status$/);
  });

  it('a baseline that is not one is a usage error', async () => {
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, '{"failures": 3}');
    const result = await run([...targetOf(reference.url), '--baseline', bad]);
    expect((result.outcome as Error).message).toBe(
      `--baseline ${bad}: not a baseline written by --write-baseline (format 1 with a "failures" list)`,
    );
  });
});

describe('the reports say where they come from', () => {
  it('JSON and JUnit record the tool version, the WSDL and its hash, the target and the time', async () => {
    const before = Date.now();
    const result = await run([
      ...targetOf(reference.url),
      '--reporter',
      'json',
      '--out',
      'r.json',
      '--reporter',
      'junit',
      '--out',
      'j.xml',
    ]);
    expect(result.outcome).toBe('passed');
    const meta = (JSON.parse(result.files.get('r.json')!) as { meta: Record<string, unknown> }).meta as {
      tool: string;
      version: string;
      wsdl: { source: string; sha256: string };
      target: string;
      startedAt: string;
      finishedAt: string;
    };
    expect(meta).toMatchObject({
      tool: 'smskit',
      version: '9.9.9-test',
      wsdl: { source: 'wsdl/serviceapi.wsdl', sha256: contractModel.hash },
      target: `${reference.url}/serviceapi.asmx`,
    });
    expect(meta.wsdl.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(meta.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(meta.finishedAt)).toBeGreaterThanOrEqual(Date.parse(meta.startedAt));
    const junit = result.files.get('j.xml')!;
    expect(junit).toContain('<property name="tool" value="smskit 9.9.9-test"/>');
    expect(junit).toContain(`<property name="wsdl.sha256" value="${contractModel.hash}"/>`);
    expect(junit).toContain(`<property name="target" value="${reference.url}/serviceapi.asmx"/>`);
    expect(junit).toMatch(/<testsuite [^>]*timestamp="\d{4}-\d\d-\d\dT/);
  });

  it('a run that never happened replaces the report files with one that says why', async () => {
    const result = await run([
      ...targetOf('http://127.0.0.1:9'),
      '--reporter',
      'json',
      '--out',
      'r.json',
      '--reporter',
      'junit',
      '--out',
      'j.xml',
      '--reporter',
      'html',
      '--out',
      'r.html',
    ]);
    expect((result.outcome as ConformanceError).code).toBe('TARGET_UNREACHABLE');
    const page = result.files.get('r.html')!;
    expect(page).toMatch(/^<!DOCTYPE html>\n/);
    expect(page).toContain('<title>smskit conformance: did not run — TARGET_UNREACHABLE</title>');
    expect(page).toContain('The run did not happen: nothing ran, no case was judged.');
    expect(page).toMatch(/<p>target http:\/\/127\.0\.0\.1:9 unreachable[^<]*<code>\(TARGET_UNREACHABLE\)<\/code><\/p>/);
    expect(JSON.parse(result.files.get('r.json')!)).toEqual({
      error: { code: 'TARGET_UNREACHABLE', message: expect.stringMatching(/unreachable/) },
    });
    expect(result.files.get('j.xml')).toMatch(
      /<error message="target http:\/\/127\.0\.0\.1:9 unreachable[^"]*" type="TARGET_UNREACHABLE"\/>/,
    );
  });
});

// Side by side: each waits on the slow proxy, and each writes reports of its own names only.
describe.concurrent('Ctrl-C and slow targets (the real CLI)', () => {
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startSlowProxy(reference.url, 250);
    servers.push(slow);
  });

  it('SIGINT stops the run: reports of what ran (marked interrupted) replace the old ones, exit 130', async () => {
    const json = join(scratch, 'interrupted.json');
    const junit = join(scratch, 'interrupted.xml');
    writeFileSync(junit, '<testsuites name="an older run" tests="1" failures="0"/>');
    const child = await cli(
      [
        ...targetOf(slow.origin),
        '--concurrency',
        '2',
        '--reporter',
        'pretty',
        '--reporter',
        'json',
        '--out',
        json,
        '--reporter',
        'junit',
        '--out',
        junit,
      ],
      { interruptAfterMs: 600 },
    );
    expect(child.code, child.stderr).toBe(130);
    expect(child.stderr).toMatch(/^smskit: interrupted: \d+ of 83 selected cases ran; the reports hold what ran$/m);
    expect(child.stdout).toMatch(
      /^INTERRUPTED \(--fail-on must\): 83 cases, \d+ passed, 0 failed, 0 skipped, \d+ not run/m,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      summary: { interrupted: boolean; passed: number; notRun: number };
      cases: { status: string; skipReason?: string }[];
    };
    expect(report.summary.interrupted).toBe(true);
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.summary.notRun).toBeGreaterThan(0);
    expect(report.cases.find((c) => c.status === 'not-run')!.skipReason).toBe(
      'not run: the run was interrupted (Ctrl-C)',
    );
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain('an older run');
    expect(xml).toContain('<property name="interrupted" value="true"/>');
    expect(xml).toContain('type="not-run"');
    // Written beside the report and renamed over it: no temporary file is left (.<name>.<pid>.<ms>.tmp).
    expect(readdirSync(scratch).filter((f) => f.startsWith('.interrupted.') && f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('SIGINT before the first answer: exit 130, every case not run, an HTML page that says nothing ran', async () => {
    // Accepts connections and never answers: the reachability probe is still waiting at Ctrl-C.
    const silent = createServer((socket) => socket.on('data', () => undefined));
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    const { port } = silent.address() as AddressInfo;
    const html = join(scratch, 'interrupted-early.html');
    try {
      const child = await cli(
        [...targetOf(`http://127.0.0.1:${port}`), '--reporter', 'pretty', '--reporter', 'html', '--out', html],
        { interruptAfterMs: 0 },
      );
      expect(child.code, child.stderr).toBe(130);
      expect(child.stderr).not.toMatch(/unreachable/);
      expect(child.stderr).toMatch(/^smskit: interrupted: 0 of 83 selected cases ran; the reports hold what ran$/m);
      expect(child.stdout).toMatch(
        /^INTERRUPTED \(--fail-on must\): 83 cases, 0 passed, 0 failed, 0 skipped, 83 not run/m,
      );
      const page = readFileSync(html, 'utf8');
      expect(page).toMatch(/^<!DOCTYPE html>/);
      expect(page).toContain('<style>');
      expect(page).toContain(
        'Interrupted (Ctrl-C) — nothing ran: no case was judged, so this report says nothing about the server.',
      );
    } finally {
      silent.close();
    }
  }, 60_000);

  it('progress shows on stderr after the first second, cases done / total and failures, without a terminal', async () => {
    const child = await cli([
      ...targetOf(slow.origin),
      '--concurrency',
      '4',
      '--run',
      'SMSSend/soap11',
      '--run',
      'SMSSend/soap12',
    ]);
    expect(child.code, child.stderr).toBe(0);
    expect(child.stderr).toMatch(/^smskit conformance: \d+\/\d+ cases, 0 failed, 1\.\d s$/m);
  }, 60_000);
});
