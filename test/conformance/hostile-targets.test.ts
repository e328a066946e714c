/**
 * The runner and the generated client against hostile targets (hostile-servers.ts): an endless
 * body, a slow drip, endless headers, a huge declared length, an XML bomb, a DTD, deep nesting,
 * garbage, a reset mid-body, silence, thousands of tiny chunks and a gzip bomb.
 *
 * Each runner run is the real CLI in a child process, its peak RSS taken from the kernel when it
 * exits (peak-rss.mjs). It must stay under RSS_LIMIT, end within its bounds, fail each case with
 * the message that names the bound (or the check) it hit, exit as documented and print no stack
 * trace. The client calls run in one child of their own for the same reasons.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientResult } from './client-child.js';
import {
  GZIP_BOMB_INFLATED,
  HOSTILE_KINDS,
  startHostileServer,
  TEST_MAX_BODY_BYTES,
  type HostileKind,
  type HostileServer,
} from './hostile-servers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));
const TIMEOUT_MS = 2000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
const RSS_LIMIT_KIB = 200 * 1024;
/** Process start (tsx compiles the CLI on a cold cache) and a loaded machine's scheduling. */
const SLACK_MS = 15_000;
/** Three cases: pooled SOAP, pooled HTTP GET, and the raw-socket over-size request. */
const CASES = ['SMSSend/soap11/ok/plain', 'SMSSend/http-get/ok/plain', 'SMSSend/soap11/fault/over-size'];
const STACK_FRAME = /^\s+at .*\(.*\)$/m;

interface JsonFailure {
  readonly check: string;
  readonly message: string;
}
interface JsonCase {
  readonly id: string;
  readonly status: string;
  readonly durationMs: number;
  readonly failures: readonly JsonFailure[];
  readonly skipReason?: string;
  readonly trace?: { readonly response?: { readonly bodyBytes: number } };
}
interface JsonReport {
  readonly summary: {
    readonly timedOut: boolean;
    readonly notRun: number;
    readonly failed: number;
    readonly passed: number;
  };
  readonly cases: readonly JsonCase[];
}

interface ChildRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /** Peak resident set, KiB; undefined when the child did not exit by itself. */
  readonly peakRssKiB: number | undefined;
}

const scratch = mkdtempSync(join(tmpdir(), 'smskit-hostile-'));
let runs = 0;

/** Runs `node <args>` with the peak-RSS hook; a child still running after `killAfterMs` is killed. */
function runChild(args: readonly string[], killAfterMs: number): Promise<ChildRun> {
  const rssFile = join(scratch, `rss-${runs++}`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK_RSS, ...args], {
    cwd: ROOT,
    env: { ...process.env, SMSKIT_TEST_PEAK_RSS_FILE: rssFile, SMSKIT_PASSWORD: 'pw' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      clearTimeout(killer);
      let peakRssKiB: number | undefined;
      try {
        peakRssKiB = Number(readFileSync(rssFile, 'utf8'));
      } catch {
        peakRssKiB = undefined;
      }
      resolve({ exitCode, stdout, stderr, wallMs: performance.now() - started, peakRssKiB });
    });
  });
}

function conformance(target: string, extra: readonly string[], wsdl = 'wsdl/serviceapi.wsdl'): Promise<ChildRun> {
  const args = [
    'bin/smskit.js',
    'conformance',
    '--target',
    target,
    '--wsdl',
    wsdl,
    '--keyword',
    'KW',
    '--email',
    'a@example.com',
    '--to',
    '+15551234567',
    '--carrier',
    'att',
    '--timeout',
    String(TIMEOUT_MS),
    '--max-response-bytes',
    String(MAX_RESPONSE_BYTES),
    '--max-body-bytes',
    String(TEST_MAX_BODY_BYTES),
    '--retries',
    '0',
    ...extra,
  ];
  return runChild(args, 60_000);
}

/** `smskit call` of SMSSend on the target, with the same bounds as the runner. */
function callRun(target: string): Promise<ChildRun> {
  const input = JSON.stringify({
    keyword: 'KW',
    emailAddress: 'a@example.com',
    password: 'pw',
    smsto: '+15551234567',
    carrierCode: 'att',
    smsmsg: 'hello',
  });
  return runChild(
    [
      'bin/smskit.js',
      'call',
      'wsdl/serviceapi.wsdl',
      'SMSSend',
      '--url',
      target,
      '--input',
      input,
      '--timeout',
      String(TIMEOUT_MS),
      '--max-response-bytes',
      String(MAX_RESPONSE_BYTES),
    ],
    60_000,
  );
}

function caseRun(target: string): Promise<ChildRun> {
  return conformance(target, [...CASES.flatMap((c) => ['--run', c]), '--reporter', 'json']);
}

/** Runs the thunks with at most `limit` at once (children compete for two cores). */
async function limited<T>(limit: number, thunks: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results = new Array<T>(thunks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < thunks.length) {
        const index = next++;
        results[index] = await thunks[index]!();
      }
    }),
  );
  return results;
}

const BOUND_BYTES = /the response exceeded 1 MiB \(--max-response-bytes\)/;
const BOUND_TIME_AFTER_HEAD =
  /no complete answer within 2000 ms \(--timeout\): HTTP 200 and \d+ body bytes had arrived/;

/** What each case of a run against the target must show: a failure message (any of its failures), or a pass. */
const EXPECTED: Record<HostileKind, { readonly exit: number; readonly failure?: RegExp; readonly overSize?: RegExp }> =
  {
    'endless-body': { exit: 1, failure: BOUND_BYTES },
    'slow-drip': { exit: 1, failure: BOUND_TIME_AFTER_HEAD },
    'endless-headers': { exit: 1, failure: /the response head \(status line and headers\) exceeded 16 KiB/ },
    'huge-length': {
      exit: 1,
      failure: /the response exceeded 1 MiB \(--max-response-bytes\): it declares Content-Length 10737418240/,
    },
    'xml-bomb': { exit: 1, failure: /the response contains a document type declaration/ },
    dtd: { exit: 1, failure: /the response contains a document type declaration/ },
    'deep-nesting': { exit: 1, failure: /XML_LIMIT.*nested deeper than \d+ levels/ },
    garbage: { exit: 1, failure: /not HTTP: .* answered with something that is not an HTTP response/ },
    // The raw-socket path keeps a body cut by a reset (the kernel's answer to an unread request
    // body can be one) and judges the head: a 200 is not the refusal an over-size request needs.
    'reset-mid-body': {
      exit: 1,
      failure:
        /connection closed by 127\.0\.0\.1:\d+ before a complete response .*: HTTP 200 and \d+ body bytes had arrived/,
      overSize: /the server must refuse it/,
    },
    'never-answers': {
      exit: 1,
      failure: /no complete answer within 2000 ms \(--timeout\): no response head had arrived/,
    },
    'tiny-chunks': { exit: 0 },
    'gzip-bomb': { exit: 1, failure: /XML_ENCODING|XML_MALFORMED/ },
  };

/** Runs beyond the per-case table: the run's own deadline, a hostile probe, a hostile WSDL fetch. */
const RUN_TIMEOUT_MS = 3000;
const SOAP11_CASES = 14;
const WHOLE_RUN = {
  'run-timeout': {
    kind: 'never-answers',
    hostileWsdl: false,
    run: (url: string) =>
      conformance(url, [
        '--operation',
        'SMSSend',
        '--binding',
        'soap11',
        '--concurrency',
        '2',
        '--run-timeout',
        String(RUN_TIMEOUT_MS),
        '--reporter',
        'pretty',
        '--reporter',
        'json',
        '--out',
        join(scratch, 'run-timeout.json'),
      ]),
  },
  'probe-never-answers': { kind: 'never-answers', hostileWsdl: true, run: (url: string) => caseRun(url) },
  'probe-slow-drip': { kind: 'slow-drip', hostileWsdl: true, run: (url: string) => caseRun(url) },
  'wsdl-endless-body': {
    kind: 'endless-body',
    hostileWsdl: true,
    run: (url: string) => conformance(url, ['--reporter', 'json'], `${url}?wsdl`),
  },
  'wsdl-slow-drip': {
    kind: 'slow-drip',
    hostileWsdl: true,
    run: (url: string) => conformance(url, ['--reporter', 'json'], `${url}?wsdl`),
  },
} as const satisfies Record<
  string,
  { kind: HostileKind; hostileWsdl: boolean; run: (url: string) => Promise<ChildRun> }
>;
type WholeRun = keyof typeof WHOLE_RUN;

const servers: HostileServer[] = [];
const runnerRuns = new Map<HostileKind, ChildRun>();
const wholeRuns = new Map<WholeRun, ChildRun>();
let clientRun: ChildRun;
const callRuns = new Map<HostileKind, ChildRun>();
let gzipServer: HostileServer;

async function start(kind: HostileKind, hostileWsdl = false): Promise<HostileServer> {
  const server = await startHostileServer(kind, { hostileWsdl });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  const byKind = new Map<HostileKind, HostileServer>();
  for (const kind of HOSTILE_KINDS) byKind.set(kind, await start(kind));
  gzipServer = byKind.get('gzip-bomb')!;
  const whole = new Map<WholeRun, HostileServer>();
  for (const [name, spec] of Object.entries(WHOLE_RUN))
    whole.set(name as WholeRun, await start(spec.kind, spec.hostileWsdl));
  const clientInput = {
    targets: HOSTILE_KINDS.map((kind) => ({ kind, url: byKind.get(kind)!.url })),
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  };
  const clientChild = fileURLToPath(new URL('./client-child.ts', import.meta.url));
  await limited(3, [
    async () =>
      void (clientRun = await runChild(['--import', 'tsx', clientChild, JSON.stringify(clientInput)], 60_000)),
    ...[...whole].map(
      ([name, server]) =>
        async () =>
          void wholeRuns.set(name, await WHOLE_RUN[name].run(server.url)),
    ),
    ...HOSTILE_KINDS.map((kind) => async () => void runnerRuns.set(kind, await caseRun(byKind.get(kind)!.url))),
    ...HOSTILE_KINDS.map((kind) => async () => void callRuns.set(kind, await callRun(byKind.get(kind)!.url))),
  ]);
}, 150_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(scratch, { recursive: true, force: true });
});

function reportOf(run: ChildRun): JsonReport {
  try {
    return JSON.parse(run.stdout) as JsonReport;
  } catch {
    throw new Error(`no JSON report (exit ${run.exitCode}); stderr: ${run.stderr.slice(0, 500)}`);
  }
}

function expectBoundedChild(run: ChildRun, wallLimitMs: number): void {
  expect(
    run.peakRssKiB,
    `the child did not exit by itself within its kill timer (stderr: ${run.stderr.slice(0, 300)})`,
  ).toBeDefined();
  expect(run.peakRssKiB!).toBeLessThan(RSS_LIMIT_KIB);
  expect(run.wallMs).toBeLessThan(wallLimitMs);
  expect(run.stdout).not.toMatch(STACK_FRAME);
  expect(run.stderr).not.toMatch(STACK_FRAME);
}

describe('the runner against a hostile target (real CLI, three cases, --timeout 2000, --max-response-bytes 1 MiB)', () => {
  it.each(HOSTILE_KINDS)('%s', (kind) => {
    const run = runnerRuns.get(kind)!;
    const expected = EXPECTED[kind];
    expectBoundedChild(run, TIMEOUT_MS * CASES.length + SLACK_MS);
    expect(run.exitCode).toBe(expected.exit);
    expect(run.stderr).toBe('');
    const report = reportOf(run);
    const selected = report.cases.filter((c) => CASES.includes(c.id));
    expect(selected.map((c) => c.id).sort()).toEqual([...CASES].sort());
    for (const c of selected) {
      // Each exchange ends by its own deadline, however the target behaves (the time a case
      // takes is measured in the runner, so process start and scheduling do not count).
      expect(c.durationMs, c.id).toBeLessThan(TIMEOUT_MS * 2);
      if (expected.failure === undefined) {
        expect(c.status, `${c.id}: ${JSON.stringify(c.failures)}`).toBe('passed');
        continue;
      }
      expect(c.status).toBe('failed');
      const pattern =
        c.id.endsWith('/over-size') && expected.overSize !== undefined ? expected.overSize : expected.failure;
      expect(
        c.failures.map((f) => f.message),
        c.id,
      ).toContainEqual(expect.stringMatching(pattern));
    }
  });

  it('never inflates a gzip answer: the runner does not ask for compression and reads the bytes as sent', () => {
    const report = reportOf(runnerRuns.get('gzip-bomb')!);
    for (const c of report.cases.filter((x) => x.status === 'failed')) {
      expect(c.trace?.response?.bodyBytes).toBeLessThan(GZIP_BOMB_INFLATED / 100);
    }
    expect(gzipServer.requests.some((head) => /\r\naccept-encoding:/i.test(head))).toBe(false);
  });

  it('resolves no external entity of a DTD in the answer', () => {
    const run = runnerRuns.get('dtd')!;
    expect(run.stdout).not.toMatch(/root:.*:0:0:/);
  });
});

describe('the run as a whole', () => {
  it('--run-timeout ends a run that cannot finish: what ran is reported, the rest is not run, exit 2', () => {
    const run = wholeRuns.get('run-timeout')!;
    expectBoundedChild(run, RUN_TIMEOUT_MS + SLACK_MS);
    expect(run.exitCode).toBe(2);
    const report = JSON.parse(readFileSync(join(scratch, 'run-timeout.json'), 'utf8')) as JsonReport;
    const selected = report.cases.filter((c) => c.status !== 'skipped');
    expect(selected).toHaveLength(SOAP11_CASES);
    expect(report.summary.timedOut).toBe(true);
    expect(report.summary.notRun).toBeGreaterThan(0);
    expect(report.summary.failed + report.summary.notRun).toBe(SOAP11_CASES);
    for (const c of selected.filter((x) => x.status === 'not-run'))
      expect(c.skipReason).toBe(`not run: the run did not finish within ${RUN_TIMEOUT_MS} ms (--run-timeout)`);
    expect(run.stdout).toMatch(
      new RegExp(
        `^TIMED OUT \\(--run-timeout ${RUN_TIMEOUT_MS} ms\\) \\(--fail-on must\\): 83 cases, 0 passed, ${report.summary.failed} failed, 69 skipped, ${report.summary.notRun} not run;`,
        'm',
      ),
    );
    expect(run.stdout).toContain(
      `Not run: ${report.summary.notRun} (the run did not finish within ${RUN_TIMEOUT_MS} ms (--run-timeout))`,
    );
    expect(run.stderr).toMatch(
      new RegExp(
        `^smskit: the run did not finish within ${RUN_TIMEOUT_MS} ms \\(--run-timeout\\): ${report.summary.notRun} of ${SOAP11_CASES} selected cases not run$`,
        'm',
      ),
    );
  });

  it('a probe that gets no answer within --timeout is an unreachable target: one line, exit 2', () => {
    const run = wholeRuns.get('probe-never-answers')!;
    expectBoundedChild(run, TIMEOUT_MS + SLACK_MS);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^smskit: target http:\/\/127\.0\.0\.1:\d+ unreachable: no complete answer within 2000 ms \(--timeout\): no response head had arrived\n$/,
    );
  });

  it('a probe answered with a head is a reachable target, even when its body then trickles: the cases run', () => {
    const run = wholeRuns.get('probe-slow-drip')!;
    expectBoundedChild(run, TIMEOUT_MS * (CASES.length + 1) + SLACK_MS);
    expect(run.exitCode).toBe(1);
    const selected = reportOf(run).cases.filter((c) => CASES.includes(c.id));
    expect(selected.flatMap((c) => c.failures.map((f) => f.message))).toEqual(
      CASES.map(() => expect.stringMatching(BOUND_TIME_AFTER_HEAD)),
    );
  });

  it.each([
    ['wsdl-endless-body', BOUND_BYTES],
    ['wsdl-slow-drip', BOUND_TIME_AFTER_HEAD],
  ] as const)('--wsdl <url> is fetched under the same bounds (%s): one line, exit 2', (name, _bound) => {
    const run = wholeRuns.get(name)!;
    expectBoundedChild(run, TIMEOUT_MS + SLACK_MS);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(
        `^smskit: http://127\\.0\\.0\\.1:\\d+/serviceapi\\.asmx\\?wsdl: cannot fetch the WSDL: ${name === 'wsdl-endless-body' ? 'The response is over the limit of 1048576 bytes' : 'No complete response within 2000 ms'}\n$`,
      ),
    );
  });
});

describe('the generated client against a hostile target (one child, all calls at once)', () => {
  const expected: Record<HostileKind, string | 'resolved'> = {
    'endless-body': 'TOO_LARGE',
    'slow-drip': 'TIMEOUT',
    'endless-headers': 'TOO_LARGE',
    'huge-length': 'TOO_LARGE',
    'xml-bomb': 'BAD_RESPONSE',
    dtd: 'BAD_RESPONSE',
    'deep-nesting': 'BAD_RESPONSE',
    garbage: 'BAD_RESPONSE',
    'reset-mid-body': 'RESET',
    'never-answers': 'TIMEOUT',
    'tiny-chunks': 'resolved',
    'gzip-bomb': 'BAD_RESPONSE',
  };
  let results: Map<string, ClientResult>;
  beforeAll(() => {
    results = new Map(
      clientRun.stdout
        .trim()
        .split('\n')
        .filter((l) => l !== '')
        .map((line) => JSON.parse(line) as ClientResult)
        .map((r) => [r.kind, r]),
    );
  });

  it('stays under the memory limit, ends by itself and prints no stack trace', () => {
    expectBoundedChild(clientRun, TIMEOUT_MS * 2 + SLACK_MS);
    expect(clientRun.exitCode).toBe(0);
  });

  it.each(HOSTILE_KINDS)('%s', (kind) => {
    const result = results.get(kind);
    expect(result, clientRun.stderr.slice(0, 500)).toBeDefined();
    // The runtime bounds the call as a whole, its body included (not only each pause in it).
    expect(result!.ms).toBeLessThan(TIMEOUT_MS * 2 + 3000);
    if (expected[kind] === 'resolved') {
      expect(result!.outcome, result!.message).toBe('resolved');
      return;
    }
    expect(result!.outcome).toBe('rejected');
    expect({ name: result!.errorName, code: result!.code }, result!.message).toEqual({
      name: 'TransportError',
      code: expected[kind],
    });
  });
});

describe('smskit call against a hostile target (real CLI, --timeout 2000, --max-response-bytes 1 MiB)', () => {
  const expected: Record<HostileKind, RegExp | 'answered'> = {
    'endless-body': /The response is over the limit of 1048576 bytes/,
    'slow-drip': /No complete response within 2000 ms/,
    'endless-headers': /The response head \(status line and headers\) is over the 16 KiB header limit/,
    'huge-length': /The response declares 10737418240 bytes, over the limit of 1048576/,
    'xml-bomb': /not well-formed XML: .*A DOCTYPE declaration is not allowed/,
    dtd: /not well-formed XML: .*A DOCTYPE declaration is not allowed/,
    'deep-nesting': /not well-formed XML: .*nested deeper than 256 levels/,
    garbage: /Response does not match the HTTP\/1\.1 protocol/,
    'reset-mid-body': /Connection closed before a complete response/,
    'never-answers': /No complete response within 2000 ms/,
    'tiny-chunks': 'answered',
    'gzip-bomb': /not well-formed XML: .*not valid UTF-8/,
  };

  it.each(HOSTILE_KINDS)('%s', (kind) => {
    const run = callRuns.get(kind)!;
    expectBoundedChild(run, TIMEOUT_MS * 2 + SLACK_MS);
    if (expected[kind] === 'answered') {
      // The hostile server answers a canned SOAP response: decoded, printed, exit 0.
      expect(run.exitCode, run.stderr).toBe(0);
      return;
    }
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^smskit: /);
    expect(lines[0]).toMatch(expected[kind]);
  });
});
