/**
 * conformance/ is laid out by stage, and each stage imports only the stages below it:
 *
 *   index.ts, options.ts (the public API) ──▶ catalogue/, run/, report/ ──▶ validate/ ──▶ types.ts, errors.ts
 *
 * The catalogue (which cases exist) names the checks that judge them (validate/); the run sends
 * cases and evaluates each answer (validate/) but never builds cases; reports read outcomes
 * only (types.ts). The base (types, errors) imports no stage. The command line (flags, report
 * files, the built-in target) is bin/'s: conformance/ holds the library only and imports no CLI
 * package. Also kept here: no conformance module over 400 lines, no function over 60
 * (tools/sizes.ts measures them), and every report is written with the report kit (report/):
 * conformance's, replay's and the contract diff's reporters map their outcomes onto it and write
 * no JUnit, HTML, JSON layout or escaping of their own.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from './source-tree.js';
import { FUNCTION_LIMIT, MODULE_LIMIT, measureFile } from '../../tools/sizes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFORMANCE = join(ROOT, 'conformance');

type Stage = 'api' | 'catalogue' | 'run' | 'report' | 'validate' | 'base';

/** Stage → the stages its code may import from (itself always allowed). */
const ALLOWED: Readonly<Record<Stage, readonly Stage[]>> = {
  api: ['catalogue', 'run', 'report', 'validate', 'base'],
  catalogue: ['validate', 'base'],
  run: ['validate', 'base'],
  report: ['base'],
  validate: ['base'],
  base: [],
};
const FOLDERS: readonly Stage[] = ['catalogue', 'run', 'report', 'validate'];
/** The public entry and its options: the one place that puts the stages together. */
const API_FILES = ['index.ts', 'options.ts'];
const BASE_FILES = ['types.ts', 'errors.ts'];

/** The stage of a file under conformance/, or undefined outside it. */
function stageOf(file: string): Stage | undefined {
  const parts = relative(CONFORMANCE, file).split(sep);
  if (parts[0] === '..') return undefined;
  if (parts.length > 1) return FOLDERS.includes(parts[0] as Stage) ? (parts[0] as Stage) : undefined;
  if (API_FILES.includes(parts[0]!)) return 'api';
  return BASE_FILES.includes(parts[0]!) ? 'base' : undefined;
}

function wrongWay(file: string, text: string): string[] {
  const from = stageOf(file)!;
  const allowed = new Set<Stage>([from, ...ALLOWED[from]]);
  return importsOf(text)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ specifier, to: stageOf(resolve(dirname(file), specifier).replace(/\.js$/, '.ts')) }))
    .filter(({ to }) => to !== undefined && !allowed.has(to))
    .map(({ specifier, to }) => `${relative(ROOT, file)} (${from}) imports ${specifier} (${to})`);
}

const all = sourceFiles(CONFORMANCE);

/** Packages that parse a command line: bin/'s alone. */
const CLI_PACKAGES = ['yargs', 'yargs/helpers'];

function cliImports(text: string): string[] {
  return importsOf(text).filter((s) => CLI_PACKAGES.includes(s));
}

/** The reporters that map their outcomes onto the kit (report/): every file under these folders. */
const REPORTER_FOLDERS = [
  join(CONFORMANCE, 'report'),
  join(ROOT, 'migrate', 'report'),
  join(ROOT, 'fuzz', 'report'),
  join(ROOT, 'contract', 'diff', 'report'),
];

/**
 * What only the kit writes: the JUnit document and its escaping, the HTML page and its
 * escaping, the JSON file's layout. A reporter spelling one of them has grown its own format.
 */
const KIT_ONLY: readonly [RegExp, string][] = [
  [/<\?xml version=/, 'an XML declaration (report/junit.ts)'],
  [/<!doctype html/i, 'an HTML document (report/html.ts)'],
  [/\bescape(ReportText|Html)\b/, 'escaping of its own (report/junit.ts, report/html.ts)'],
  [/runtime\/escape\//, "the runtime's escapes, which the kit applies (report/)"],
  [/JSON\.stringify\(.*,\s*null,\s*2\)/, 'a JSON layout of its own (report/json.ts)'],
  [/\bmakeRedactor\b/, 'redaction of its own (report/html.ts redacts page text)'],
];

function ownFormats(file: string, text: string): string[] {
  return KIT_ONLY.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${relative(ROOT, file)} writes ${what}`);
}

describe('conformance stages', () => {
  it('every file belongs to a stage: the root holds only the API and the shared base', () => {
    expect(all.filter((file) => stageOf(file) === undefined).map((file) => relative(ROOT, file))).toEqual([]);
    const root = all.filter((file) => dirname(file) === CONFORMANCE).map((file) => relative(CONFORMANCE, file));
    expect(root.sort()).toEqual([...API_FILES, ...BASE_FILES].sort());
  });

  it.each(Object.keys(ALLOWED))('%s imports only the stages below it', (stage) => {
    const found = all.filter((file) => stageOf(file) === stage);
    expect(found.length).toBeGreaterThan(0);
    expect(found.flatMap((file) => wrongWay(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('would catch a wrong-way import', () => {
    const planted = "import { buildCatalogue } from '../catalogue/build.js';";
    expect(wrongWay(join(CONFORMANCE, 'validate', 'evaluate.ts'), planted)).toEqual([
      'conformance/validate/evaluate.ts (validate) imports ../catalogue/build.js (catalogue)',
    ]);
    const upward = "export { renderReport } from './report/index.js';";
    expect(wrongWay(join(CONFORMANCE, 'types.ts'), upward)).toHaveLength(1);
    expect(wrongWay(join(CONFORMANCE, 'report', 'html.ts'), "import { a } from '../types.js';")).toEqual([]);
  });

  it('holds the library only: no module reads flags (the command line is bin/conformance/)', () => {
    expect(
      all.filter((file) => cliImports(readFileSync(file, 'utf8')).length > 0).map((f) => relative(ROOT, f)),
    ).toEqual([]);
    expect(cliImports("import type { Argv } from 'yargs';")).toEqual(['yargs']);
  });

  it(`keeps every module under ${MODULE_LIMIT} lines and every function under ${FUNCTION_LIMIT}`, () => {
    const measured = all.map((file) => measureFile(ROOT, file));
    const big = measured.filter((m) => m.module.lines > MODULE_LIMIT).map((m) => `${m.module.file}: ${m.module.lines}`);
    const long = measured
      .flatMap((m) => m.functions)
      .filter((f) => f.lines > FUNCTION_LIMIT)
      .map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines}`);
    expect({ big, long }).toEqual({ big: [], long: [] });
  });
});

describe('the report kit', () => {
  const reporters = REPORTER_FOLDERS.flatMap((folder) => sourceFiles(folder));

  it('writes every report: the reporters of conformance, replay and diff only map their outcomes onto it', () => {
    expect(reporters.length).toBeGreaterThan(0);
    for (const folder of REPORTER_FOLDERS)
      expect(
        reporters.some((file) => dirname(file) === folder),
        folder,
      ).toBe(true);
    expect(reporters.flatMap((file) => ownFormats(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('would catch a reporter writing its own JUnit document', () => {
    const planted = 'const head = \'<?xml version="1.0" encoding="UTF-8"?>\'; escapeReportText(name);';
    expect(ownFormats(join(ROOT, 'migrate', 'report', 'junit.ts'), planted)).toEqual([
      'migrate/report/junit.ts writes an XML declaration (report/junit.ts)',
      'migrate/report/junit.ts writes escaping of its own (report/junit.ts, report/html.ts)',
    ]);
  });

  it("would catch the diff's reporters writing their own JSON or escaping", () => {
    // The diff's JUnit once escaped its attributes by hand and its JSON spelled its own layout.
    const planted = [
      "import { escapeReportText } from '../../../runtime/escape/xml.js';",
      'JSON.stringify({ ...report, failOn, fails: gatingChanges(report, failOn).length > 0 }, null, 2);',
    ].join('\n');
    expect(ownFormats(join(ROOT, 'contract', 'diff', 'report', 'junit.ts'), planted)).toEqual([
      'contract/diff/report/junit.ts writes escaping of its own (report/junit.ts, report/html.ts)',
      "contract/diff/report/junit.ts writes the runtime's escapes, which the kit applies (report/)",
      'contract/diff/report/junit.ts writes a JSON layout of its own (report/json.ts)',
    ]);
  });
});
