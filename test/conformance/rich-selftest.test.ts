/**
 * The runner on a rich contract (test/fixtures/asmx/rich.wsdl: arrays, enums, [Flags], nested
 * and derived types, nullable values, SOAP headers, overloads, void and null answers) against
 * the rich peer served by smskit: every case passes, every level; and each defect in a rich
 * answer (rich-defects.ts) is caught by the check that names it, and by no other MUST check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../contract/parse/index.js';
import { runConformance, type Report } from '../../conformance/index.js';
import { startBrokenServer } from '../fixtures/conformance/broken-server.js';
import { failingChecks } from '../fixtures/conformance/run.js';
import { startSmskitPeer, type SmskitPeer } from '../helpers/smskit-peers.js';
import { RICH_DEFECTS } from './rich-defects.js';

const richModel = parseWsdl('test/fixtures/asmx/rich.wsdl');
let peer: SmskitPeer;

beforeAll(async () => {
  peer = await startSmskitPeer('rich');
});
afterAll(async () => {
  await peer.close();
});

function runRich(origin: string): Promise<Report> {
  return runConformance({
    target: `${origin}/rich.asmx`,
    wsdlModel: richModel,
    retries: 0,
    timeoutMs: 10_000,
    concurrency: 16,
  });
}

describe('the rich peer served by smskit', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runRich(peer.origin);
  }, 60_000);

  it('passes every case over all bindings and levels', () => {
    const failed = report.cases
      .filter((c) => c.status === 'failed')
      .map((c) => `${c.id}: ${c.failures.map((f) => `${f.check} ${f.message}`).join('; ')}`);
    expect(failed).toEqual([]);
    expect(report.summary.ok).toBe(true);
    expect(peer.logged).toEqual([]);
  });

  it('exercises every operation on every binding that carries it: nothing is skipped', () => {
    expect(report.cases.filter((c) => c.status === 'skipped').map((c) => `${c.id}: ${c.skipReason}`)).toEqual([]);
    const operations = new Set(report.cases.filter((c) => c.binding !== 'wsdl').map((c) => c.operation));
    expect(operations.size).toBe(26);
  });

  it('sends the variants the schema makes worth sending', () => {
    const ids = report.cases.map((c) => c.id);
    for (const id of [
      'SumValues/soap11/ok/arrays-empty',
      'SumValues/http-get/ok/arrays-many',
      'EchoShapes/soap12/ok/plain',
      'EchoLines/soap11/ok/derived-Circle',
      'EchoOrder/soap11/ok/nil',
      'WhoAmI/soap12/ok/headers-must-understand',
      'Add/soap11/invalid/not-a-number',
      'EchoColor/http-post/invalid/unknown-enum',
      'Add/soap12/invalid/missing-element',
      'AddDoubles/soap11/ok/plain',
    ])
      expect(ids).toContain(id);
  });
});

describe('defects in rich answers, one each', () => {
  it.each(RICH_DEFECTS.map((d) => [d.name, d.expectedCheck] as const))(
    '%s is caught by %s',
    async (name, expectedCheck) => {
      const defect = RICH_DEFECTS.find((d) => d.name === name)!;
      const broken = await startBrokenServer(peer.origin, defect.alter);
      try {
        const failing = failingChecks(await runRich(broken.url));
        expect(failing).toContain(`${expectedCheck}@${defect.level}`);
        expect(failing.filter((f) => f.endsWith('@must') && !f.startsWith(`${expectedCheck}@`))).toEqual([]);
        expect(failing.filter((f) => f.startsWith('transport@'))).toEqual([]);
      } finally {
        await broken.close();
      }
    },
    60_000,
  );
});
