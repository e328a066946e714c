/**
 * Repeating groups (one object per occurrence) in the conformance runner and the fuzzer, which
 * read the same descriptor as the codec: the runner's sample values and the fuzzer's values are
 * occurrence objects the codec writes and reads back unchanged, and the runner's schema walk
 * counts and orders a group's members in the parent element, where they are on the wire.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleValue } from '../../conformance/catalogue/samples.js';
import { findLeaf, findRequired } from '../../conformance/catalogue/value-paths.js';
import { targetsOf } from '../../fuzz/mutate/targets.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { operationContracts } from '../../conformance/catalogue/operation-contract.js';
import { walkElement, walkWrapper } from '../../conformance/validate/schema-walk.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import { ValueArbitraries } from '../../fuzz/generate/values.js';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import { valueFromJson } from '../../runtime/codec/json.js';
import { readXml } from '../../runtime/xml/reader.js';

const model = parseWsdl('test/fixtures/wsdl-partial/repeating-groups.wsdl');
const d = toDescriptor(model);
const facts = schemaFacts(model);
const element = (local: string) => d.elements[`{urn:groups}${local}`]!;

/** `value` written and read back by the codec. */
function roundTrip(local: string, value: unknown): { xml: string; back: unknown } {
  const el = element(local);
  const xml = encodeElement(d, el.name, el.value, value, false, '', local);
  return { xml, back: decodeElement(d, el.value, readXml(xml).root, false, local) };
}

describe('conformance samples of repeating groups', () => {
  const sample = (local: string) =>
    sampleValue(d, facts, { kind: 'typical', text: 'x' }, element(local).value, undefined, local).json;

  it('are occurrence objects, one member each for a choice', () => {
    expect(sample('Tag')).toEqual({
      pairs: {
        keyAndValue: [
          { key: 'x', value: 'x' },
          { key: 'x', value: 'x' },
        ],
      },
    });
    expect(sample('Draw')).toEqual({ circleOrSquare: [{ circle: '42' }, { circle: '42' }] });
    expect(sample('Ledger')).toEqual({
      owner: 'x',
      keyAndValue: [
        { key: 'x', value: '42' },
        { key: 'x', value: '42' },
      ],
      total: '42',
    });
  });

  it.each(['Tag', 'Draw', 'Ledger'])('%s: the sample is written and read back unchanged, and walks clean', (local) => {
    const value = valueFromJson(d, element(local).value, sample(local), false, local);
    const { xml, back } = roundTrip(local, value);
    expect(back).toEqual(value);
    expect(walkElement(d, readXml(xml).root, element(local).value, false)).toEqual([]);
  });
});

describe('the schema walk of a repeating group', () => {
  const walk = (xml: string) =>
    walkElement(d, readXml(xml).root, element('Ledger').value, false).map((f) => [f.rule, f.path, f.message]);

  it('takes interleaved members in document order, and finds a member out of the group and an undeclared child', () => {
    expect(
      walk(
        '<Ledger xmlns="urn:groups"><owner>o</owner><key>a</key><value>1</value><key>b</key><total>1</total></Ledger>',
      ),
    ).toEqual([]);
    expect(walk('<Ledger xmlns="urn:groups"><key>a</key><owner>o</owner><keyAndValue/></Ledger>')).toEqual([
      [
        'occurrence',
        'Ledger/keyAndValue',
        '<Ledger> holds an element its type does not declare: {urn:groups}keyAndValue',
      ],
      ['order', 'Ledger', 'the children of <Ledger> are not in the order the schema declares'],
    ]);
  });
});

function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([, v]) => !(Array.isArray(v) && v.length === 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutEmpty(v)]));
}

describe('a repeating group among the result elements of a response wrapper', () => {
  const contract = operationContracts(d).find((c) => c.operation.name === 'Ledger')!;
  const fields = contract.success.kind === 'soap' ? contract.success.fields : [];
  const walk = (xml: string) => walkWrapper(d, readXml(xml).root, fields).map((f) => [f.rule, f.path, f.message]);

  it('counts and orders its members as result elements', () => {
    expect(
      walk('<Ledger xmlns="urn:groups"><owner>o</owner><key>a</key><value>1</value><key>b</key></Ledger>'),
    ).toEqual([]);
    expect(walk('<Ledger xmlns="urn:groups"><key>a</key><owner>o</owner></Ledger>')).toEqual([
      ['order', 'Ledger', 'the result elements are not in the order the schema declares'],
    ]);
  });
});

describe('fuzzer values of repeating groups', () => {
  const arbitraries = new ValueArbitraries(d, facts);

  it.each(['Tag', 'Draw', 'Ledger'])('%s: every value is written and read back unchanged', (local) => {
    const values = fc.sample(arbitraries.value(element(local).value, 0), { numRuns: 60, seed: 7 });
    // An empty array is no element on the wire, so it reads back as no property (as for any repeated field).
    for (const value of values) expect(roundTrip(local, value).back).toEqual(withoutEmpty(value));
    const occurrences = values.flatMap((v) => (v as Record<string, unknown[] | undefined>).circleOrSquare ?? []);
    if (local === 'Draw') {
      expect(occurrences.length).toBeGreaterThan(0);
      for (const o of occurrences) expect(Object.keys(o as object)).toHaveLength(1);
    }
  });
});

describe('wire paths into a repeating group', () => {
  const ledger = { owner: 'o', keyAndValue: [{ key: 'a', value: 1 }], total: 3 };

  it("the fuzzer's mutation targets name the members where they are, in the parent", () => {
    const targets = targetsOf(d, facts, element('Ledger').value, ledger, 'Ledger');
    expect(targets.leaves.map((l) => l.path.join('/'))).toEqual([
      'Ledger/owner',
      'Ledger/key',
      'Ledger/value',
      'Ledger/total',
    ]);
    expect(targets.required.map((p) => p.join('/'))).toEqual(['Ledger/owner', 'Ledger/key']);
  });

  it("the runner's value lookups do too", () => {
    const json = { owner: 'o', keyAndValue: [{ key: 'a', value: '1' }] };
    expect(findLeaf(d, element('Ledger').value, json, (xsd) => xsd === 'int')?.path).toEqual(['value']);
    const pairs = { kind: 'type', type: '{urn:groups}Pairs' } as const;
    expect(findRequired(d, pairs, { keyAndValue: [{ key: 'a', value: '1' }] })).toEqual(['key']);
  });
});
