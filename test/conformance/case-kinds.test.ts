/**
 * The catalogue's fixed case kinds are data tables, validated when the catalogue loads: every
 * row has a unique id per binding, known bindings, a known alteration and known checks — and the
 * checks a row names do judge the cases it makes. Each rule is shown failing on a planted row.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, KIND_TABLES } from '../../conformance/catalogue/build.js';
import type { CaseKind } from '../../conformance/catalogue/case-kinds.js';
import { assertCaseKinds, caseKindProblems, type KindTable } from '../../conformance/catalogue/kind-check.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import type { Case, CaseBinding } from '../../conformance/types.js';
import { ALL_CHECKS } from '../../conformance/validate/checks/index.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../generator/index.js';
import { contractDescriptor } from '../fixtures/conformance/contract.js';
import { TEST_INPUTS } from '../fixtures/conformance/run.js';

const CHECK_IDS = new Set(ALL_CHECKS.map((c) => c.id));
const rows = KIND_TABLES.flatMap((table) => table.kinds);

function planted(row: Partial<CaseKind>, base: KindTable = KIND_TABLES[1]!): KindTable[] {
  const good = base.kinds[0]!;
  return [...KIND_TABLES, { ...base, name: 'planted', kinds: [{ ...good, id: 'fault/planted', ...row }] }];
}

describe('case-kind tables', () => {
  it('are sound: unique ids per binding, known bindings, alterations and checks', () => {
    expect(rows.length).toBeGreaterThan(25);
    expect(caseKindProblems(KIND_TABLES, CHECK_IDS)).toEqual([]);
  });

  it.each<[string, Partial<CaseKind>, RegExp]>([
    ['a duplicate id', { id: 'fault/doctype' }, /planted fault\/doctype: the id is used twice on soap11/],
    ['an unknown binding', { bindings: ['soap13' as CaseBinding] }, /unknown binding "soap13"/],
    ['an unknown check', { checks: ['fault.answer', 'fault.colour'] }, /unknown check "fault.colour"/],
    ['an unknown alteration', { sends: 'sideways' }, /"sideways" is no alteration known on soap11/],
    ['a fault over HTTP', { bindings: ['http-get'] }, /a fault is expected on http-get/],
    ['an id outside the groups', { id: 'weird/name' }, /the id is not <group>\/<name>/],
    ['no checks', { checks: [] }, /names no check/],
  ])('refuse a planted row with %s', (_, row, want) => {
    expect(caseKindProblems(KIND_TABLES, CHECK_IDS).join('\n')).not.toMatch(want);
    expect(caseKindProblems(planted(row), CHECK_IDS).join('\n')).toMatch(want);
    expect(() => assertCaseKinds(planted(row), CHECK_IDS)).toThrow(/case kinds: /);
  });

  it('name checks that judge the cases each row makes', () => {
    const rich = parseWsdl('test/fixtures/asmx/rich.wsdl');
    const cases = [
      ...buildCatalogue({ descriptor: contractDescriptor, inputs: TEST_INPUTS }),
      ...buildCatalogue({ descriptor: toDescriptor(rich), inputs: { values: {} }, facts: schemaFacts(rich) }),
    ].filter((c) => c.unusable === undefined && c.binding !== 'wsdl');
    const rowOf = (c: Case): CaseKind | undefined =>
      rows.find((r) => {
        const pattern = new RegExp(`/${c.binding}/${r.id.replace(/\{\w+\}/g, '[^/]+')}$`);
        return r.bindings.includes(c.binding) && pattern.test(c.id);
      });
    const unjudged = cases.flatMap((c) => {
      const row = rowOf(c);
      if (row === undefined) return [`${c.id}: made by no row`];
      return row.checks
        .filter((id) => !ALL_CHECKS.find((check) => check.id === id)!.applies(c))
        .map((id) => `${c.id}: ${id} does not apply`);
    });
    expect(cases.length).toBeGreaterThan(200);
    expect(unjudged).toEqual([]);
  });
});
