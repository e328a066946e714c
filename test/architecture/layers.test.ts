/**
 * The repository's top-level folders form layers: each may import only from the folders listed
 * for it, so the runtime stays free of the tools built on it, the WSDL-generic conformance runner
 * never depends on the one application in the repository, every report is written with one kit
 * (report/) that knows none of the tools whose outcomes it prints, and the scripts that ship
 * outside CI do not reach into the test suite. The contract layer (reading, parsing, the model,
 * the plan, the descriptor, the diff) sits under every tool that reads a WSDL, so none of them
 * reaches into another's code for it; it stands on the report kit too, because the diff, one of
 * its parts, writes its reports with the kit like every other tool (pipeline-stages.test.ts keeps
 * that to contract/diff/). The stages inside contract/ and generator/ are checked in
 * pipeline-stages.test.ts.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-tree.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Folder → the folders its code may import from (itself always allowed). */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  runtime: [],
  // The report kit (formats, escaping, redaction) every report is written with, the diff's too.
  report: ['runtime'],
  contract: ['report', 'runtime'],
  generator: ['contract', 'runtime'],
  conformance: ['contract', 'report', 'runtime'],
  generated: ['runtime'],
  service: ['generated', 'runtime'],
  // Record and replay: the runtime's wire and network layers, the contract, the report kit.
  migrate: ['contract', 'report', 'runtime'],
  // The fuzzer: its cases are conformance's (requests, checks), its reference comparison replay's.
  fuzz: ['conformance', 'contract', 'migrate', 'report', 'runtime'],
  bin: ['conformance', 'contract', 'fuzz', 'generated', 'generator', 'migrate', 'report', 'runtime', 'service', 'wsdl'],
  scripts: [
    'bin',
    'conformance',
    'contract',
    'fuzz',
    'generated',
    'generator',
    'migrate',
    'report',
    'runtime',
    'service',
    'tools',
    'wsdl',
  ],
};

const SOURCE = /\.(ts|mts|mjs|cjs|js)$/;

/** The top-level folder an import specifier lands in, or undefined for node: and npm packages. */
function targetFolder(fromFile: string, specifier: string): string | undefined {
  if (specifier.startsWith('smskit/')) return specifier.slice('smskit/'.length).split('/')[0];
  if (!specifier.startsWith('.')) return undefined;
  const target = relative(ROOT, resolve(dirname(fromFile), specifier));
  return target.split(sep)[0];
}

/** The repository path (a .ts source) a relative import specifier lands on. */

function wrongImports(folder: string, file: string, text: string): string[] {
  const allowed = new Set([folder, ...(ALLOWED[folder] ?? [])]);
  return importsOf(text)
    .map((specifier) => ({ specifier, target: targetFolder(file, specifier) }))
    .filter(({ target }) => target !== undefined && !allowed.has(target))
    .map(({ specifier, target }) => `${relative(ROOT, file)} imports ${specifier} (${target}/)`);
}

function violations(folder: string): string[] {
  return sourceFiles(join(ROOT, folder), SOURCE).flatMap((file) =>
    wrongImports(folder, file, readFileSync(file, 'utf8')),
  );
}

describe('layers', () => {
  it.each(Object.keys(ALLOWED))('%s/ imports only from the layers below it', (folder) => {
    expect(violations(folder)).toEqual([]);
  });

  it('sees the imports it checks', () => {
    const text =
      "import { a } from '../service/x.js';\nexport * from './y.js';\nconst m = await import('../test/z.js');";
    expect(importsOf(text)).toEqual(['../service/x.js', './y.js', '../test/z.js']);
    expect(targetFolder(join(ROOT, 'conformance', 'embedded.ts'), '../service/server.js')).toBe('service');
    expect(targetFolder(join(ROOT, 'generated', 'x.ts'), 'smskit/runtime')).toBe('runtime');
    expect(targetFolder(join(ROOT, 'runtime', 'x.ts'), 'undici')).toBeUndefined();
  });

  it('would catch the contract layer reading a WSDL through the conformance runner', () => {
    // One contract layer (contract/read) serves every reader; a planted wrong-way import is named.
    const planted = "import { loadContract } from '../../conformance/contract-source.js';";
    const file = join(ROOT, 'contract', 'read', 'index.ts');
    const target = targetFolder(file, importsOf(planted)[0]!);
    expect(target).toBe('conformance');
    expect(ALLOWED.contract).not.toContain(target);
  });

  it("would catch conformance reading the schema's facets from the generator's code", () => {
    // Conformance stands on the contract layer only; an import of the generator is named.
    const planted = "import { planSchema } from '../../generator/plan/schema.js';";
    const file = join(ROOT, 'conformance', 'catalogue', 'schema-facts.ts');
    const target = targetFolder(file, importsOf(planted)[0]!);
    expect(target).toBe('generator');
    expect(ALLOWED.conformance).not.toContain(target);
    expect(ALLOWED.migrate).not.toContain(target);
  });

  it("would catch migrate reaching into conformance's reports or redaction", () => {
    // Replay writes its reports with the kit (report/); conformance's reporters are conformance's own.
    const file = join(ROOT, 'migrate', 'report', 'html.ts');
    const planted = "import { htmlReportText } from '../../conformance/report/html.js';";
    expect(wrongImports('migrate', file, planted)).toEqual([
      'migrate/report/html.ts imports ../../conformance/report/html.js (conformance/)',
    ]);
    const redaction = "import { makeRedactor } from '../conformance/redact.js';";
    expect(wrongImports('migrate', join(ROOT, 'migrate', 'replay.ts'), redaction)).toHaveLength(1);
    // The WSDL reader they share is the contract layer's: a reader inside conformance would be named too.
    const reader = "import { descriptorFromWsdlText } from '../conformance/validate/wsdl-reader.js';";
    expect(wrongImports('migrate', join(ROOT, 'migrate', 'declared-types.ts'), reader)).toHaveLength(1);
  });

  it('would catch conformance or replay reaching up into the fuzzer', () => {
    // The fuzzer stands on conformance's cases and checks and on replay's outline; never the other way.
    const planted = "import { runFuzz } from '../fuzz/index.js';";
    expect(wrongImports('conformance', join(ROOT, 'conformance', 'index.ts'), planted)).toHaveLength(1);
    expect(wrongImports('migrate', join(ROOT, 'migrate', 'replay.ts'), planted)).toHaveLength(1);
    const service = "import { createServer } from '../service/server.js';";
    expect(wrongImports('fuzz', join(ROOT, 'fuzz', 'properties.ts'), service)).toHaveLength(1);
  });

  it('would catch the report kit importing what it serves', () => {
    const planted = "import type { Report } from '../conformance/types.js';";
    expect(wrongImports('report', join(ROOT, 'report', 'junit.ts'), planted)).toHaveLength(1);
    // The diff's reporters stand on the kit, never the other way round (no circle through contract/).
    const diff = "import type { DiffReport } from '../contract/diff/types.js';";
    expect(wrongImports('report', join(ROOT, 'report', 'names.ts'), diff)).toEqual([
      'report/names.ts imports ../contract/diff/types.js (contract/)',
    ]);
  });

  it('leaves every WSDL reader to the contract layer: no other module fetches or parses a WSDL', () => {
    const readers = ['conformance', 'bin', 'generator', 'migrate', 'contract']
      .flatMap((folder) => sourceFiles(join(ROOT, folder), SOURCE))
      .filter((file) => /\bparseWsdl\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file).split(sep).join('/'));
    expect(readers.sort()).toEqual(['contract/parse/index.ts', 'contract/read/index.ts']);
  });
});
