/**
 * The runner's self-tests (a check that cannot fail is a defect): a correct server passes with zero
 * failures over all bindings and levels; each deliberately broken server is caught by the check
 * that names its defect, and by no unrelated MUST check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Listening } from '../../runtime/index.js';
import { ALL_CHECKS } from '../../conformance/index.js';
import { startBrokenServer } from '../fixtures/conformance/broken-server.js';
import { DEFECTS } from '../fixtures/conformance/defects.js';
import { startReferenceServer } from '../fixtures/conformance/reference-server.js';
import { failingChecks, runAgainst, TEST_BODY_LIMIT } from '../fixtures/conformance/run.js';
import { RICH_DEFECTS } from './rich-defects.js';

let reference: Listening;

beforeAll(async () => {
  reference = await startReferenceServer(TEST_BODY_LIMIT);
});
afterAll(async () => {
  await reference.close();
});

describe('a correct server', () => {
  it('passes every case over all bindings and levels', async () => {
    const report = await runAgainst(reference.url);
    const failed = report.cases
      .filter((c) => c.status === 'failed')
      .map((c) => `${c.id}: ${c.failures.map((f) => `${f.check} ${f.message}`).join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.summary.skipped).toBe(0);
    expect(report.summary.passed).toBe(report.summary.total);
    expect(report.summary.ok).toBe(true);
  });
});

describe('broken servers, one defect each', () => {
  it('the proxy without a defect passes (the wrapper itself breaks nothing)', async () => {
    const proxy = await startBrokenServer(reference.url, (_, res) => res);
    try {
      expect(failingChecks(await runAgainst(proxy.url))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  // The matrix as a table: [defect, the check that must catch it].
  const matrix = DEFECTS.map((d) => [d.name, d.expectedCheck] as const);

  it('covers every check (a check that cannot fail is a defect)', () => {
    // response.field-order needs two results: it is covered by the two-results contract below;
    // the checks of rich answers (xsi:type, array items, SOAP headers) by the rich contract's
    // defects (test/conformance/rich-selftest.test.ts); a one-way operation's answer by
    // test/conformance/one-way.test.ts.
    const covered = new Set([
      ...DEFECTS.map((d) => d.expectedCheck),
      ...RICH_DEFECTS.map((d) => d.expectedCheck),
      'response.field-order',
      'soap.one-way-status',
      'soap.one-way-no-envelope',
    ]);
    expect(ALL_CHECKS.map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it.concurrent.each(matrix)('%s is caught by %s', async (name, expectedCheck) => {
    const defect = DEFECTS.find((d) => d.name === name)!;
    const broken = await startBrokenServer(reference.url, defect.alter);
    try {
      const report = await runAgainst(broken.url);
      const failing = failingChecks(report);
      expect(failing.some((f) => f.startsWith(`${expectedCheck}@`))).toBe(true);
      // No unrelated MUST finding: a MUST failure is the defect's own check or nothing.
      expect(failing.filter((f) => f.endsWith('@must') && !f.startsWith(`${expectedCheck}@`))).toEqual([]);
      expect(failing.filter((f) => f.startsWith('transport@'))).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe('another contract (two results, SOAP only)', () => {
  let server: Listening;
  beforeAll(async () => {
    const { createRequestListener, listen } = await import('../../runtime/index.js');
    const { twoResultsDescriptor, twoResultsHandlers } = await import(
      '../fixtures/conformance/two-results-descriptor.js'
    );
    server = await listen(
      createRequestListener(twoResultsDescriptor, twoResultsHandlers, {
        maxBodyBytes: TEST_BODY_LIMIT,
        logger: { error: () => {} },
      }),
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  const run = async (origin: string) => {
    const { twoResultsDescriptor } = await import('../fixtures/conformance/two-results-descriptor.js');
    const { runConformance } = await import('../../conformance/index.js');
    // No WSDL is served for this contract: the wsdl case is skipped on purpose, and counted.
    return runConformance({
      target: `${origin}/lookup.svc`,
      descriptor: twoResultsDescriptor,
      inputs: { values: { secret: 'hidden-value' }, secrets: ['secret'] },
      skip: ['wsdl'],
      maxBodyBytes: TEST_BODY_LIMIT,
      retries: 0,
    });
  };

  it('passes a correct server', async () => {
    const report = await run(server.url);
    expect(report.cases.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
    expect(report.summary.skipped).toBe(1);
  });

  it('catches results out of schema order with response.field-order only', async () => {
    const swap = (_: unknown, r: { status: number; headers: Readonly<Record<string, string>>; body: string }) =>
      r.status === 200 ? { ...r, body: r.body.replace(/(<count>[^<]*<\/count>)(<label>[^<]*<\/label>)/, '$2$1') } : r;
    const broken = await startBrokenServer(server.url, swap);
    try {
      const failing = failingChecks(await run(broken.url));
      expect(failing).toContain('response.field-order@must');
      expect(failing.filter((f) => f.endsWith('@must') && !f.startsWith('response.field-order@'))).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
