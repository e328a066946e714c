/**
 * The rule catalogue is complete and its fixtures are current: every rule has a fixture pair
 * named after it whose diff reports that rule (with the verdict per direction and binding in
 * the table below), every rule is in docs/diff.md, and the fixture files are what
 * test/fixtures/diff/catalogue.ts makes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWsdl } from '../../../generator/index.js';
import { diffSides } from '../../../contract/diff/compare.js';
import { RULE_IDS } from '../../../contract/diff/rules.js';
import { sideFromModel } from '../../../contract/diff/source.js';
import type { DiffReport, Protocol, RuleId } from '../../../contract/diff/types.js';
import { fixturePairs } from '../../fixtures/diff/catalogue.js';

const ROOT = 'test/fixtures/diff';
const ALL: Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const SOAP: Protocol[] = ['soap11', 'soap12'];
const HTTP: Protocol[] = ['http-get', 'http-post'];

function diffOf(dir: string): DiffReport {
  const side = (which: string) =>
    sideFromModel(`${ROOT}/${dir}/${which}.wsdl`, parseWsdl(`${ROOT}/${dir}/${which}.wsdl`));
  return diffSides(side('old'), side('new'));
}

/** [fixture, the one change it must report: rule, bindings it breaks old clients on, new clients on]. */
const VERDICTS: readonly (readonly [string, RuleId, Protocol[], Protocol[]])[] = [
  ['service-added', 'service-added', [], ALL],
  ['service-removed', 'service-removed', ALL, []],
  ['binding-added', 'binding-added', [], ['http-post']],
  ['binding-removed', 'binding-removed', ['http-post'], []],
  ['binding-renamed', 'binding-renamed', [], []],
  ['address-path-changed', 'address-path-changed', ALL, ALL],
  ['address-host-changed', 'address-host-changed', [], []],
  ['operation-added', 'operation-added', [], ALL],
  ['operation-removed', 'operation-removed', ALL, []],
  ['operation-renamed', 'operation-renamed', ALL, ALL],
  ['soap-action-changed', 'soap-action-changed', SOAP, SOAP],
  ['soap-action-changed--to-empty', 'soap-action-changed', SOAP, []],
  ['http-path-changed', 'http-path-changed', HTTP, HTTP],
  ['namespace-changed', 'namespace-changed', ALL, ALL],
  ['element-form-changed', 'element-form-changed', SOAP, SOAP],
  ['message-element-renamed', 'message-element-renamed', SOAP, SOAP],
  ['message-body-changed', 'message-body-changed', SOAP, []],
  ['member-added', 'member-added', ALL, SOAP],
  ['member-added--optional', 'member-added', HTTP, SOAP],
  ['member-added--output', 'member-added', SOAP, []],
  ['member-removed', 'member-removed', SOAP, HTTP],
  ['member-removed--required', 'member-removed', SOAP, ALL],
  ['member-renamed', 'member-renamed', ALL, ALL],
  ['members-reordered', 'members-reordered', [], []],
  ['occurs-changed', 'occurs-changed', [], ALL],
  ['occurs-changed--output', 'occurs-changed', SOAP, []],
  ['nillable-changed', 'nillable-changed', [], SOAP],
  ['type-changed', 'type-changed', [], ALL],
  ['type-changed--output', 'type-changed', [], SOAP],
  ['type-changed--simple-complex', 'type-changed', SOAP, SOAP],
  ['type-renamed', 'type-renamed', [], []],
  ['enum-values-added', 'enum-values-added', [], SOAP],
  ['enum-values-added--output', 'enum-values-added', ALL, []],
  ['enum-values-removed', 'enum-values-removed', SOAP, []],
  ['attribute-added', 'attribute-added', SOAP, []],
  ['attribute-removed', 'attribute-removed', [], SOAP],
  ['attribute-required-changed', 'attribute-required-changed', SOAP, []],
  ['array-item-renamed', 'array-item-renamed', SOAP, SOAP],
  ['derived-type-added', 'derived-type-added', SOAP, []],
  ['derived-type-removed', 'derived-type-removed', [], SOAP],
  ['abstract-changed', 'abstract-changed', SOAP, []],
  ['header-added', 'header-added', [], SOAP],
  ['header-added--output', 'header-added', [], []],
  ['header-removed', 'header-removed', SOAP, []],
  ['fault-added', 'fault-added', [], []],
  ['fault-removed', 'fault-removed', [], []],
  ['facet-changed', 'facet-changed', [], []],
  ['documentation-changed', 'documentation-changed', [], []],
  ['formatting-only', 'formatting-only', [], []],
];

describe('the rule catalogue', () => {
  it.each(VERDICTS)(
    '%s reports exactly %s, breaking clients on %j and servers on %j',
    (dir, rule, clients, servers) => {
      const report = diffOf(dir);
      expect(report.changes.map((c) => c.rule)).toEqual([rule]);
      expect(report.changes[0]!.breaksClients).toEqual(clients);
      expect(report.changes[0]!.breaksServers).toEqual(servers);
    },
  );

  it('has a fixture pair named after every rule, and a verdict row for each', () => {
    for (const rule of RULE_IDS) {
      expect(existsSync(`${ROOT}/${rule}/old.wsdl`), rule).toBe(true);
      expect(
        VERDICTS.some(([dir, r]) => dir === rule && r === rule),
        rule,
      ).toBe(true);
    }
  });

  it('names each fixture folder after a rule (a variant after --) or multi--', () => {
    const dirs = readdirSync(ROOT, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    for (const dir of dirs)
      expect(dir.startsWith('multi--') || (RULE_IDS as readonly string[]).includes(dir.split('--')[0]!), dir).toBe(
        true,
      );
  });

  it('documents every rule in docs/diff.md', () => {
    const docs = readFileSync('docs/diff.md', 'utf8');
    for (const rule of RULE_IDS) expect(docs, rule).toContain(`\`${rule}\``);
  });

  it('has fixture files that are what catalogue.ts makes (regenerate: npx tsx test/fixtures/diff/make-fixtures.ts)', () => {
    for (const pair of fixturePairs()) {
      expect(readFileSync(`${ROOT}/${pair.dir}/old.wsdl`, 'utf8'), `${pair.dir}/old.wsdl`).toBe(pair.old);
      expect(readFileSync(`${ROOT}/${pair.dir}/new.wsdl`, 'utf8'), `${pair.dir}/new.wsdl`).toBe(pair.new);
    }
  });
});
