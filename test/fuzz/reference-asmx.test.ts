/**
 * `fuzz --reference` with smskit's rich server as the target and genuine ASMX (Mono) as the
 * reference, on every operation and binding, for a fixed seed and number of cases: every
 * difference found is one of the documented ones (test/peers/asmx-known-differences.ts,
 * docs/fuzz.md), each with whose it is and why. A difference of any other kind, a false finding
 * of the comparison or a new defect of smskit's server, fails the test with its input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../contract/read/index.js';
import { runFuzz } from '../../fuzz/index.js';
import { type AsmxPeer, startAsmxPeer } from '../helpers/asmx-peer.js';
import { requirePeer } from '../helpers/peers.js';
import { type SmskitPeer, startSmskitPeer } from '../helpers/smskit-peers.js';
import { type ReferenceFinding, unexplainedDifferences } from '../peers/asmx-known-differences.js';

const R = '{http://smskit.dev/rich/}';

describe('the known ASMX differences recognise only their own kind', () => {
  const leaf = (operation: string, name: string, asmx: string, smskit: string, value: unknown = {}) =>
    unexplainedDifferences({
      operation,
      binding: 'soap11',
      value,
      differences: [
        {
          kind: 'changed',
          path: `/x/${name}`,
          want: `${R}${name} = ${JSON.stringify(asmx)}`,
          got: `${R}${name} = ${JSON.stringify(smskit)}`,
        },
      ],
    } satisfies ReferenceFinding);
  it.each([
    ['a carriage return read back as a line feed', 'Sku', 'a\nb', 'a\rb'],
    ['a double one unit in the last place off', 'Height', '-6.2979424752172344e-204', '-6.297942475217234e-204'],
    ['an area three units off', 'TotalAreaResult', '7.170858085910111e-50', '7.170858085910108e-50'],
    [
      'a date-time clamped to DateTime.MinValue',
      'Created',
      '0001-01-01T00:00:00.0000000Z',
      '0000-12-31T23:59:00.0000000Z',
    ],
    [
      '17 digits of one double, in a described value',
      'DescribeScalarsResult',
      'yes=false|ratio=2.4703282292062327E-323',
      'yes=false|ratio=2.47032822920623E-323',
    ],
  ])('explains %s', (_what, name, asmx, smskit) => {
    expect(leaf('EchoOrder', name, asmx, smskit)).toEqual([]);
  });
  it.each([
    ['another text', 'Sku', 'a', 'b'],
    ['a line feed lost', 'Sku', 'a', 'a\n'],
    ['a number 45 doubles off, from normal inputs', 'Height', '1.00000000000001', '1'],
    ["a date-time within .NET's range", 'Created', '2024-01-01T00:00:00.0000000Z', '2024-01-01T00:00:01.0000000Z'],
    ['one token of a described value', 'DescribeScalarsResult', 'yes=true|ratio=1', 'yes=false|ratio=1'],
  ])('reports %s', (_what, name, asmx, smskit) => {
    expect(leaf('EchoOrder', name, asmx, smskit)).toHaveLength(1);
  });
  it('explains a tab in an attribute read back as a space, and nothing else in attributes', () => {
    const attributes = (asmx: string, smskit: string) =>
      unexplainedDifferences({
        operation: 'EchoOrder',
        binding: 'soap11',
        value: {},
        differences: [
          {
            kind: 'changed',
            path: '/x/EchoOrderResult',
            want: `${R}EchoOrderResult ${asmx}`,
            got: `${R}EchoOrderResult ${smskit}`,
          },
        ],
      });
    expect(attributes('@{}Id=" " @{}Version="0"', '@{}Id="\\t" @{}Version="0"')).toEqual([]);
    expect(attributes('@{}Id="a" @{}Version="0"', '@{}Id="b" @{}Version="0"')).toHaveLength(1);
  });
  it('reports a refusal by ASMX of an input no known difference covers, and smskit refusing what ASMX answers', () => {
    const outcome = (want: string, got: string) =>
      unexplainedDifferences({
        operation: 'EchoStrings',
        binding: 'http-get',
        value: { items: ['plain'] },
        differences: [{ kind: 'changed', path: 'outcome', want, got }],
      });
    expect(outcome('refused (HTTP 500)', 'succeeded (HTTP 200)')).toHaveLength(1);
    expect(outcome('succeeded (HTTP 200)', 'refused (HTTP 500)')).toHaveLength(1);
  });
});

const SKIP = requirePeer('asmx', 'fuzz/reference-asmx').reason;

describe.skipIf(SKIP !== undefined)("smskit's rich server against genuine ASMX as --reference", () => {
  let asmx: AsmxPeer;
  let smskit: SmskitPeer;
  beforeAll(async () => {
    [asmx, smskit] = await Promise.all([startAsmxPeer('rich'), startSmskitPeer('rich')]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([asmx?.stop(), smskit?.close()]);
  });

  it('differs only where the known list says, over 2,000 valid inputs', async () => {
    const { model } = await readContract('test/fixtures/asmx/rich.wsdl');
    const report = await runFuzz({
      wsdlModel: model,
      target: smskit.url,
      reference: asmx.url,
      allowWrites: true,
      modes: ['valid'],
      runs: 2000,
      seed: 42,
      timeoutMs: 20_000,
    });
    expect(report.summary.unreachable).toBeUndefined();
    // A property stops at its first finding, so fewer than the 2,000 inputs are sent.
    expect(report.summary.cases).toBeGreaterThan(1000);
    // smskit's own answers pass every check: what is found is found by the comparison alone.
    expect(report.findings.flatMap((f) => f.failures.map((x) => `${f.key}: ${x.message}`))).toEqual([]);
    expect(report.findings.flatMap(unexplainedDifferences)).toEqual([]);
    // The comparison still sees the documented differences (a run that compared nothing would pass the line above).
    expect(report.findings.length).toBeGreaterThan(0);
    expect(smskit.logged).toEqual([]);
  }, 300_000);
});
