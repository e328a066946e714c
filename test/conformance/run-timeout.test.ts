/**
 * The run's own deadline (`--run-timeout`), in process: a run that cannot finish stops sending,
 * reports what ran, marks the rest as not run in every reporter, and exits 2; and the new bound
 * flags are validated with the others.
 */
import yargs from 'yargs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DEFAULTS } from '../../bin/conformance-defaults.js';
import { conformanceBuilder, validateConformanceArgs } from '../../bin/conformance/options.js';
import { executeConformance, type CommandIo } from '../../bin/conformance/execute.js';
import { runConformance, type Report } from '../../conformance/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import { renderJson, renderJunit, renderPretty } from '../../conformance/report/index.js';
import { startHostileServer, type HostileServer } from './hostile-servers.js';

function parse(argv: string[]) {
  return validateConformanceArgs(
    conformanceBuilder(yargs(argv).strict(), CONFORMANCE_DEFAULTS).parseSync() as Record<string, unknown>,
    {},
    CONFORMANCE_DEFAULTS,
  );
}

let silent: HostileServer;
let silentProbe: HostileServer;
beforeAll(async () => {
  silent = await startHostileServer('never-answers');
  silentProbe = await startHostileServer('never-answers', { hostileWsdl: true });
});
afterAll(async () => {
  await silent.close();
  await silentProbe.close();
});

const model = parseWsdl('wsdl/serviceapi.wsdl');
const inputs = {
  values: { keyword: 'KW', email: 'a@example.com', password: 'pw', to: '+15551234567', carrier: 'att' },
  secrets: ['password'],
};

describe('a run that cannot finish', () => {
  let report: Report;
  let elapsed: number;
  beforeAll(async () => {
    const started = performance.now();
    report = await runConformance({
      target: silent.url,
      wsdlModel: model,
      inputs,
      operation: ['SMSSend'],
      binding: ['soap11'],
      concurrency: 2,
      timeoutMs: 20_000,
      retries: 0,
      runTimeoutMs: 400,
    });
    elapsed = performance.now() - started;
  });

  it("ends at its deadline, not at the requests' own", () => {
    expect(elapsed).toBeLessThan(10_000);
    expect(report.summary).toMatchObject({
      total: 83,
      skipped: 69,
      notRun: 14,
      failed: 0,
      passed: 0,
      timedOut: true,
      runTimeoutMs: 400,
      ok: false,
    });
  });

  it('reports every case without a verdict as not run, saying why', () => {
    const notRun = report.cases.filter((c) => c.status === 'not-run');
    expect(notRun).toHaveLength(14);
    for (const c of notRun) expect(c.skipReason).toBe('not run: the run did not finish within 400 ms (--run-timeout)');
  });

  it('says so in every reporter: pretty, JSON, and JUnit (as errors, so the CI view fails too)', () => {
    expect(renderPretty(report)).toMatch(
      /^TIMED OUT \(--run-timeout 400 ms\) \(--fail-on must\): 83 cases, 0 passed, 0 failed, 69 skipped, 14 not run;/m,
    );
    expect(renderPretty(report)).toContain('Not run: 14 (the run did not finish within 400 ms (--run-timeout))');
    expect(JSON.parse(renderJson(report)).summary).toMatchObject({ timedOut: true, notRun: 14, ok: false });
    const junit = renderJunit(report);
    expect(junit).toContain('<testsuites name="smskit conformance" tests="83" failures="0" errors="14" skipped="69"');
    expect(junit).toContain(
      '<error message="not run: the run did not finish within 400 ms (--run-timeout)" type="not-run"/>',
    );
  });

  it('bounds the probe too: a target that never answers it leaves every case not run', async () => {
    const timedOut = await runConformance({
      target: silentProbe.url,
      wsdlModel: model,
      inputs,
      operation: ['SMSSend'],
      binding: ['soap11'],
      timeoutMs: 20_000,
      retries: 0,
      runTimeoutMs: 300,
    });
    expect(timedOut.summary).toMatchObject({ notRun: 14, timedOut: true });
    expect(silentProbe.requests).toHaveLength(1);
  });

  it('ends incomplete (exit 2) after writing the reports, with one line on stderr', async () => {
    const out = { stdout: '', stderr: '' };
    const io: CommandIo = {
      stdout: (t) => void (out.stdout += t),
      stderr: (t) => void (out.stderr += t),
      writeFile: () => {},
    };
    const outcome = await executeConformance(
      parse([
        '--target',
        silent.url,
        '--keyword',
        'KW',
        '--email',
        'a@example.com',
        '--password',
        'pw',
        '--to',
        '+1555',
        '--carrier',
        'att',
        '--run',
        'SMSSend/soap11/ok/*',
        '--run-timeout',
        '300',
        '--reporter',
        'json',
      ]),
      io,
    );
    expect(outcome).toBe('incomplete');
    expect(JSON.parse(out.stdout).summary).toMatchObject({ timedOut: true, notRun: 5 });
    expect(out.stderr).toBe(
      'smskit: the run did not finish within 300 ms (--run-timeout): 5 of 5 selected cases not run\n',
    );
  });
});

describe('bound flags', () => {
  it('have documented defaults', () => {
    expect(parse([])).toMatchObject({ timeoutMs: 10_000, maxResponseBytes: 16 * 1024 * 1024, runTimeoutMs: 600_000 });
    expect(parse(['--timeout', '2000', '--max-response-bytes', '1048576', '--run-timeout', '60000'])).toMatchObject({
      timeoutMs: 2000,
      maxResponseBytes: 1_048_576,
      runTimeoutMs: 60_000,
    });
  });

  it.each([
    [['--max-response-bytes', '100'], /--max-response-bytes must be an integer from 1024 to 1073741824/],
    [['--max-response-bytes', '2048.5'], /--max-response-bytes must be an integer/],
    [['--max-response-bytes', 'lots'], /--max-response-bytes must be an integer/],
    [['--run-timeout', '0'], /--run-timeout must be an integer from 1 to 86400000/],
    [['--timeout', '0'], /--timeout must be an integer from 1 to 600000/],
  ])('refuse %j', (argv, message) => {
    expect(() => parse(argv)).toThrow(message);
  });

  it('are validated for programmatic use too', async () => {
    await expect(runConformance({ target: silent.url, wsdlModel: model, maxResponseBytes: 10 })).rejects.toThrow(
      /maxResponseBytes must be an integer from 1024/,
    );
    await expect(runConformance({ target: silent.url, wsdlModel: model, runTimeoutMs: 0.5 })).rejects.toThrow(
      /runTimeoutMs must be an integer from 1/,
    );
  });
});
