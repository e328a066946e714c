/**
 * The generator's folders are its pipeline, and every import points back along it. The stages,
 * in the direction the imports run (a stage may import only from itself and earlier stages):
 *
 *   errors.ts, naming.ts   shared leaves: the one error type, TypeScript names from WSDL names
 *   model/                 the resolved WSDL model: plain data, what every later stage reads
 *   parse/                 WSDL/XSD documents -> model (produces model types, so it comes after)
 *   contract/              a file or URL (fetched with the runtime's network options) -> parse -> model
 *   plan/                  model -> planned types, services, operations, messages and names
 *   descriptor/            plan -> the runtime descriptor (and `smskit inspect`'s description)
 *   emit/  |  diff/        two branches side by side, neither importing the other: TypeScript
 *                          files from plan + descriptor; `smskit diff` over model + descriptor
 *   generate.ts, index.ts  the pipeline end to end and the published API: may import anything
 *
 * Leaving generator/, a file may import only the runtime (runtime/**): never the CLI, the
 * service or the conformance runner.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

interface Stage {
  readonly name: string;
  /** Position along the pipeline; stages of equal rank are branches that may not import each other. */
  readonly rank: number;
  readonly folder?: string;
  readonly files?: readonly string[];
}

const STAGES: readonly Stage[] = [
  { name: 'shared leaves', rank: 0, files: ['errors.ts', 'naming.ts'] },
  { name: 'model', rank: 1, folder: 'model' },
  { name: 'parse', rank: 2, folder: 'parse' },
  { name: 'contract', rank: 2.5, folder: 'contract' },
  { name: 'plan', rank: 3, folder: 'plan' },
  { name: 'descriptor', rank: 4, folder: 'descriptor' },
  { name: 'emit', rank: 5, folder: 'emit' },
  { name: 'diff', rank: 5, folder: 'diff' },
  { name: 'pipeline', rank: 6, files: ['generate.ts', 'index.ts'] },
];

/** Where generator files may import from outside generator/. */
const ALLOWED_OUTSIDE = ['runtime/'];

/** The stage of a repo-relative path under generator/, or undefined when it belongs to none. */
function stageOf(file: string): Stage | undefined {
  const inside = path.posix.relative('generator', file);
  const [first = '', ...rest] = inside.split('/');
  return STAGES.find((s) => (rest.length === 0 ? s.files?.includes(first) : s.folder === first));
}

/** Why importing `to` from `from` (both repo-relative) breaks the layering, or undefined when it does not. */
function violation(from: string, to: string): string | undefined {
  const source = stageOf(from);
  if (source === undefined) return `${from} belongs to no stage`;
  if (!to.startsWith('generator/')) {
    return ALLOWED_OUTSIDE.some((prefix) => to.startsWith(prefix))
      ? undefined
      : `${from} imports ${to}: outside generator/ only ${ALLOWED_OUTSIDE.join(', ')} may be imported`;
  }
  const target = stageOf(to);
  if (target === undefined) return `${from} imports ${to}, which belongs to no stage`;
  if (target === source || target.rank < source.rank) return undefined;
  const direction = target.rank === source.rank ? 'sideways' : 'forwards';
  return `${from} (${source.name}) imports ${to} (${target.name}): ${direction} along the pipeline`;
}

function generatorFiles(dir = 'generator'): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return generatorFiles(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The repo-relative targets of a file's relative imports (static, dynamic, type-only and re-exports). */
function relativeImports(file: string): string[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts'));
}

describe('generator layering', () => {
  const files = generatorFiles();

  it('finds the generator sources and their imports', () => {
    // Guards the scan itself: an empty walk or a parser that sees no imports would pass vacuously.
    expect(files.length).toBeGreaterThan(50);
    expect(relativeImports('generator/generate.ts')).toContain('generator/plan/index.ts');
  });

  it('puts every file in a stage', () => {
    expect(files.filter((file) => stageOf(file) === undefined)).toEqual([]);
  });

  it('has no import pointing forwards or sideways along the pipeline, nor out of generator/ but to the runtime', () => {
    const problems = files.flatMap((file) => relativeImports(file).flatMap((target) => violation(file, target) ?? []));
    expect(problems).toEqual([]);
  });
});

describe('the layering rule', () => {
  const cases: [string, { given: [from: string, to: string]; want: 'allowed' | RegExp }][] = [
    ['within a stage', { given: ['generator/plan/schema.ts', 'generator/plan/members.ts'], want: 'allowed' }],
    ['back to the model', { given: ['generator/parse/elements.ts', 'generator/model/index.ts'], want: 'allowed' }],
    ['back to a shared leaf', { given: ['generator/plan/schema.ts', 'generator/naming.ts'], want: 'allowed' }],
    ['emit reads the plan', { given: ['generator/emit/types-file.ts', 'generator/plan/schema.ts'], want: 'allowed' }],
    ['diff reads the parser', { given: ['generator/diff/source.ts', 'generator/parse/index.ts'], want: 'allowed' }],
    [
      'contract reads the parser',
      { given: ['generator/contract/index.ts', 'generator/parse/index.ts'], want: 'allowed' },
    ],
    [
      'contract fetches with the runtime',
      { given: ['generator/contract/fetch.ts', 'runtime/transport.ts'], want: 'allowed' },
    ],
    ['contract -> plan', { given: ['generator/contract/index.ts', 'generator/plan/schema.ts'], want: /forwards/ }],
    ['parse -> contract', { given: ['generator/parse/documents.ts', 'generator/contract/index.ts'], want: /forwards/ }],
    [
      'contract -> conformance',
      { given: ['generator/contract/index.ts', 'conformance/run/transport.ts'], want: /outside/ },
    ],
    ['the pipeline reads emit', { given: ['generator/generate.ts', 'generator/emit/project.ts'], want: 'allowed' }],
    ['the runtime', { given: ['generator/descriptor/index.ts', 'runtime/descriptor.ts'], want: 'allowed' }],
    ['descriptor -> emit', { given: ['generator/descriptor/index.ts', 'generator/emit/literal.ts'], want: /forwards/ }],
    ['plan -> descriptor', { given: ['generator/plan/service.ts', 'generator/descriptor/index.ts'], want: /forwards/ }],
    ['model -> parse', { given: ['generator/model/index.ts', 'generator/parse/index.ts'], want: /forwards/ }],
    ['a leaf -> the model', { given: ['generator/errors.ts', 'generator/model/index.ts'], want: /forwards/ }],
    ['anything -> generate.ts', { given: ['generator/emit/project.ts', 'generator/generate.ts'], want: /forwards/ }],
    ['diff -> emit', { given: ['generator/diff/committed.ts', 'generator/emit/literal.ts'], want: /sideways/ }],
    ['emit -> diff', { given: ['generator/emit/project.ts', 'generator/diff/types.ts'], want: /sideways/ }],
    ['out to the conformance runner', { given: ['generator/plan/schema.ts', 'conformance/index.ts'], want: /outside/ }],
    ['a file in no stage', { given: ['generator/stray.ts', 'generator/model/index.ts'], want: /no stage/ }],
  ];
  it.each(cases)('%s', (_name, { given: [from, to], want }) => {
    const found = violation(from, to);
    if (want === 'allowed') expect(found).toBeUndefined();
    else expect(found).toMatch(want);
  });
});
