/**
 * Golden reports: the diff of every fixture pair as the terminal prints it
 * (test/fixtures/diff/<pair>/report.txt), and for the realistic pairs as Markdown and JUnit too.
 * Update on purpose only: `UPDATE_GOLDEN=1 npx vitest run test/contract/diff/reports`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseWsdl } from '../../../generator/index.js';
import { diffSides } from '../../../contract/diff/compare.js';
import { renderJson } from '../../../contract/diff/report/json.js';
import { renderJunit } from '../../../contract/diff/report/junit.js';
import { renderMarkdown } from '../../../contract/diff/report/markdown.js';
import { oneLineSummary } from '../../../contract/diff/report/one-line.js';
import { renderPretty } from '../../../contract/diff/report/pretty.js';
import { sideFromModel } from '../../../contract/diff/source.js';
import type { DiffReport } from '../../../contract/diff/types.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const ROOT = 'test/fixtures/diff';
const DIRS = readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function diffOf(dir: string, ignoreDocs = false): DiffReport {
  const side = (which: string) =>
    sideFromModel(`${ROOT}/${dir}/${which}.wsdl`, parseWsdl(`${ROOT}/${dir}/${which}.wsdl`));
  return diffSides(side('old'), side('new'), { ignoreDocs });
}

function golden(path: string, actual: string): void {
  if (UPDATE) writeFileSync(path, actual);
  expect(actual, path).toBe(readFileSync(path, 'utf8'));
}

describe('golden reports', () => {
  it.each(DIRS)('%s', (dir) => {
    golden(`${ROOT}/${dir}/report.txt`, renderPretty(diffOf(dir), 'breaking'));
    if (dir.startsWith('multi--')) {
      golden(`${ROOT}/${dir}/report.md`, renderMarkdown(diffOf(dir), 'breaking'));
      golden(`${ROOT}/${dir}/report.junit.xml`, renderJunit(diffOf(dir), 'breaking'));
    }
  });
});

describe('report formats', () => {
  it('JSON is the report itself, with the gate', () => {
    const report = diffOf('member-added');
    const json = JSON.parse(renderJson(report, 'server')) as DiffReport & { failOn: string; fails: boolean };
    expect(json.failOn).toBe('server');
    expect(json.fails).toBe(true);
    expect(json.changes[0]).toMatchObject({
      rule: 'member-added',
      verdict: 'breaking',
      breaksServers: ['soap11', 'soap12'],
      new: { file: `${ROOT}/member-added/new.wsdl`, line: 6 },
    });
    expect(json.changes[0]!.effects).toContainEqual({
      service: 'Shop',
      protocol: 'http-get',
      operation: 'Echo',
      role: 'input',
      breaksClients: true,
      breaksServers: false,
    });
  });

  it.each([
    ['breaking', 'members-reordered', false],
    ['any', 'members-reordered', true],
    ['client', 'enum-values-added', false],
    ['server', 'enum-values-added', true],
    ['client', 'enum-values-added--output', true],
    ['server', 'enum-values-added--output', false],
    ['breaking', 'documentation-changed', false],
  ] as const)('--fail-on %s on %s fails: %s (JUnit failures agree)', (failOn, dir, fails) => {
    const report = diffOf(dir);
    expect(JSON.parse(renderJson(report, failOn)).fails).toBe(fails);
    expect(renderJunit(report, failOn)).toContain(`failures="${fails ? 1 : 0}"`);
  });

  it('--ignore-docs leaves documentation and formatting changes out', () => {
    expect(diffOf('documentation-changed', true).changes).toEqual([]);
    expect(diffOf('formatting-only', true).changes).toEqual([]);
    expect(diffOf('multi--shop-v2', true).changes.map((c) => c.verdict)).not.toContain('documentation');
  });

  it.each([
    [
      'member-added',
      'BREAKING: 1 change breaks existing clients on soap11, soap12, http-get, http-post and existing servers on soap11, soap12; first: element Echo › times: member added (required, xs:int)',
    ],
    [
      'members-reordered',
      'compatible: 1 change, none breaks deployed clients or servers (first: element Echo: members reordered (count moved earlier))',
    ],
    ['documentation-changed', 'no change on the wire (documentation, formatting or generator output only)'],
  ])('says %s in one line', (dir, line) => {
    expect(oneLineSummary(diffOf(dir))).toBe(line);
  });

  it('escapes Markdown table cells and XML text', () => {
    const report: DiffReport = {
      old: 'a|b.wsdl',
      new: 'c.wsdl',
      summary: { breaksClients: 1, breaksServers: 0, breaking: 1, compatible: 0, documentation: 0 },
      changes: [
        {
          rule: 'member-added',
          verdict: 'breaking',
          subject: 'T › <x|y>',
          what: 'member "added" & more',
          breaksClients: ['soap11'],
          breaksServers: [],
          bindings: ['soap11'],
          why: ['old client -> new server: fails on soap11: <x>'],
          effects: [],
        },
      ],
    };
    expect(renderMarkdown(report, 'breaking')).toContain('| :x: | T › &lt;x\\|y&gt;: member "added" & more |');
    expect(renderJunit(report, 'breaking')).toContain('name="T › &lt;x|y&gt;: member &quot;added&quot; &amp; more"');
  });
});
