/**
 * The fuzzer against the rich contract's smskit server with one planted defect at a time
 * (planted-rich.ts): each is found within 2,000 cases, shrunk to the smallest input that shows
 * it, and found again the same by the same seed, and replayed alone by the finding's seed and
 * path. The correct server, fuzzed the same way, has no finding (the defects are the server's,
 * not the fuzzer's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../contract/read/index.js';
import type { WsdlModel } from '../../contract/model/index.js';
import { type FuzzFinding, type FuzzOptions, runFuzz } from '../../fuzz/index.js';
import { type PlantedDefect, type PlantedServer, startPlantedRich } from './planted-rich.js';

const WSDL = 'test/fixtures/asmx/rich.wsdl';
const SEED = 20261128;
let model: WsdlModel;
let reference: PlantedServer;

beforeAll(async () => {
  model = (await readContract(WSDL)).model;
  reference = await startPlantedRich(undefined);
});
afterAll(() => reference.close());

async function fuzzPlanted(defect: PlantedDefect, operation: string, extra: Partial<FuzzOptions> = {}) {
  const server = await startPlantedRich(defect);
  try {
    return await runFuzz({
      wsdlModel: model,
      target: server.url,
      operations: [operation],
      runs: 2000,
      seed: SEED,
      concurrency: 2,
      ...extra,
    });
  } finally {
    await server.close();
  }
}

/** The first finding of the operation, which the test expects to exist. */
function findingOf(findings: readonly FuzzFinding[], property: RegExp): FuzzFinding {
  const found = findings.find((f) => property.test(f.property));
  expect(found, `a finding of ${property}; got ${findings.map((f) => f.key).join(', ') || 'none'}`).toBeDefined();
  return found!;
}

async function expectReplays(
  defect: PlantedDefect,
  operation: string,
  finding: FuzzFinding,
  extra: Partial<FuzzOptions> = {},
) {
  const again = await fuzzPlanted(defect, operation, { ...extra, seed: finding.seed, path: finding.path, runs: 1 });
  expect(again.findings).toHaveLength(1);
  expect(again.findings[0]!.value).toEqual(finding.value);
  expect(again.findings[0]!.key).toBe(finding.key);
}

describe('planted defects in the rich smskit server', () => {
  it('a 500 on an empty string the schema allows: found, shrunk to kind "", reproducible', async () => {
    const report = await fuzzPlanted('empty-string', 'MakeShape');
    const finding = findingOf(report.findings, /^MakeShape\/soap1[12]\/valid$/);
    expect(finding.failures.map((f) => f.check)).toContain('fault.code');
    expect(finding.casesToFind).toBeLessThanOrEqual(2000);
    expect(finding.value).toEqual({ kind: '', size: 0 });
    expect(finding.trace?.curl).toMatch(/^curl .*<kind \/>|<kind><\/kind>|<kind\/>/s);
    const same = await fuzzPlanted('empty-string', 'MakeShape');
    expect(same.findings.map((f) => [f.key, f.path, f.value])).toEqual(
      report.findings.map((f) => [f.key, f.path, f.value]),
    );
    await expectReplays('empty-string', 'MakeShape', finding);
  }, 120_000);

  it('a wrong element order for one derived type: found by the field-order check, shrunk to one Square', async () => {
    const report = await fuzzPlanted('derived-order', 'EchoShapes');
    const finding = findingOf(report.findings, /^EchoShapes\/soap1[12]\/valid$/);
    expect(finding.failures.map((f) => f.check)).toContain('response.field-order');
    expect(finding.casesToFind).toBeLessThanOrEqual(2000);
    const shapes = (finding.value as { shapes: { $type: string }[] }).shapes;
    expect(shapes).toHaveLength(1);
    expect(shapes[0]!.$type).toBe('Square');
    await expectReplays('derived-order', 'EchoShapes', finding);
  }, 120_000);

  it("an overflow at xs:int's maxInclusive: found and shrunk to exactly 2147483647", async () => {
    const report = await fuzzPlanted('max-inclusive', 'EchoNullableInt');
    const finding = findingOf(report.findings, /^EchoNullableInt\/soap1[12]\/valid$/);
    expect(finding.failures.map((f) => f.check)).toContain('fault.code');
    expect(finding.casesToFind).toBeLessThanOrEqual(2000);
    expect(finding.value).toEqual({ value: 2147483647 });
    await expectReplays('max-inclusive', 'EchoNullableInt', finding);
  }, 120_000);

  it('a dropped surrogate pair: found against the reference, shrunk to one astral character', async () => {
    const withReference = { reference: reference.url, modes: ['valid' as const] };
    const report = await fuzzPlanted('surrogate-pair', 'EchoStrings', withReference);
    const finding = findingOf(report.findings, /^EchoStrings\/[\w-]+\/valid$/);
    expect(finding.failures).toEqual([]);
    expect(finding.differences.map((d) => d.kind)).toContain('changed');
    expect(finding.casesToFind).toBeLessThanOrEqual(2000);
    const items = (finding.value as { items: string[] }).items;
    expect(items).toHaveLength(1);
    expect([...items[0]!]).toHaveLength(1);
    expect(items[0]!.codePointAt(0)).toBeGreaterThanOrEqual(0x10000);
    await expectReplays('surrogate-pair', 'EchoStrings', finding, withReference);
  }, 120_000);

  it('the same server without a defect: no finding on those operations, against the reference too', async () => {
    const report = await runFuzz({
      wsdlModel: model,
      target: reference.url,
      reference: reference.url,
      operations: ['MakeShape', 'EchoShapes', 'EchoNullableInt', 'EchoStrings'],
      runs: 2000,
      seed: SEED,
    });
    expect(report.findings.map((f) => f.key)).toEqual([]);
    expect(report.summary.cases).toBeGreaterThanOrEqual(2000);
  }, 120_000);
});
