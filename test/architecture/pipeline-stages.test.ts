/**
 * The contract layer and the generator are one pipeline laid out in stages, and every import
 * points back along it. A stage may import only from itself and earlier stages:
 *
 *   contract/
 *     errors.ts, naming.ts   shared leaves: the one error type, TypeScript names from WSDL names
 *     model/                 the resolved WSDL model: plain data, what every later stage reads
 *     parse/                 WSDL/XSD documents -> model (produces model types, so it comes after)
 *     read/                  a file or URL (fetched with the runtime's network options) -> parse -> model
 *     plan/                  model -> planned types, services, operations, messages and names
 *     descriptor/            plan -> the runtime descriptor (and `smskit inspect`'s description)
 *     diff/                  `smskit diff` over model + descriptor
 *     index.ts               the published API: may import any stage
 *   generator/
 *     emit/                  TypeScript files from the plan and the descriptor
 *     generate.ts, index.ts  the pipeline end to end and the published API
 *
 * Leaving contract/, a file may import only the runtime (runtime/**), and the diff's reporters
 * (contract/diff/) the report kit (report/**) besides: the kit writes every tool's report, and
 * the diff is the one tool that lives in the contract layer. Leaving generator/, a file
 * may import the runtime and the contract layer, but not the diff: the diff and the emitters are
 * two consumers of the same contract that never read each other. Neither reaches the CLI, the
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
  /** Path prefixes outside the layer that this stage alone may import. */
  readonly reaches?: readonly string[];
}

interface Layer {
  readonly stages: readonly Stage[];
  /** Path prefixes outside the layer its files may import. */
  readonly outside: readonly string[];
  /** Prefixes inside `outside` that stay out of reach all the same. */
  readonly never: readonly string[];
}

const LAYERS: Readonly<Record<'contract' | 'generator', Layer>> = {
  contract: {
    stages: [
      { name: 'shared leaves', rank: 0, files: ['errors.ts', 'naming.ts'] },
      { name: 'model', rank: 1, folder: 'model' },
      { name: 'parse', rank: 2, folder: 'parse' },
      { name: 'read', rank: 2.5, folder: 'read' },
      { name: 'plan', rank: 3, folder: 'plan' },
      { name: 'descriptor', rank: 4, folder: 'descriptor' },
      { name: 'diff', rank: 5, folder: 'diff', reaches: ['report/'] },
      { name: 'public API', rank: 6, files: ['index.ts'] },
    ],
    outside: ['runtime/'],
    never: [],
  },
  generator: {
    stages: [
      { name: 'emit', rank: 1, folder: 'emit' },
      { name: 'pipeline', rank: 2, files: ['generate.ts', 'index.ts'] },
    ],
    outside: ['runtime/', 'contract/'],
    never: ['contract/diff/'],
  },
};

type LayerName = keyof typeof LAYERS;

function layerOf(file: string): LayerName | undefined {
  const top = file.split('/')[0];
  return top === 'contract' || top === 'generator' ? top : undefined;
}

/** The stage of a repo-relative path under contract/ or generator/, or undefined when it belongs to none. */
function stageOf(file: string): Stage | undefined {
  const layer = layerOf(file);
  if (layer === undefined) return undefined;
  const inside = path.posix.relative(layer, file);
  const [first = '', ...rest] = inside.split('/');
  return LAYERS[layer].stages.find((s) => (rest.length === 0 ? s.files?.includes(first) : s.folder === first));
}

/** Why importing `to` from `from` (both repo-relative) breaks the layering, or undefined when it does not. */
function violation(from: string, to: string): string | undefined {
  const layer = layerOf(from);
  const source = stageOf(from);
  if (layer === undefined || source === undefined) return `${from} belongs to no stage`;
  if (layerOf(to) !== layer) {
    const { never } = LAYERS[layer];
    const outside = [...LAYERS[layer].outside, ...(source.reaches ?? [])];
    return outside.some((prefix) => to.startsWith(prefix)) && !never.some((prefix) => to.startsWith(prefix))
      ? undefined
      : `${from} imports ${to}: outside ${layer}/ only ${outside.join(', ')} may be imported${never.length > 0 ? ` (never ${never.join(', ')})` : ''}`;
  }
  const target = stageOf(to);
  if (target === undefined) return `${from} imports ${to}, which belongs to no stage`;
  if (target === source || target.rank < source.rank) return undefined;
  const direction = target.rank === source.rank ? 'sideways' : 'forwards';
  return `${from} (${source.name}) imports ${to} (${target.name}): ${direction} along the pipeline`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
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

describe('contract and generator stages', () => {
  const files = [...sourceFiles('contract'), ...sourceFiles('generator')];

  it('finds the sources and their imports', () => {
    // Guards the scan itself: an empty walk or a parser that sees no imports would pass vacuously.
    expect(files.length).toBeGreaterThan(50);
    expect(relativeImports('generator/generate.ts')).toContain('contract/plan/index.ts');
  });

  it('puts every file in a stage', () => {
    expect(files.filter((file) => stageOf(file) === undefined)).toEqual([]);
  });

  it('has no import pointing forwards or sideways along the pipeline, nor out of the layer but where allowed', () => {
    const problems = files.flatMap((file) => relativeImports(file).flatMap((target) => violation(file, target) ?? []));
    expect(problems).toEqual([]);
  });
});

describe('the layering rule', () => {
  const cases: [string, { given: [from: string, to: string]; want: 'allowed' | RegExp }][] = [
    ['within a stage', { given: ['contract/plan/schema.ts', 'contract/plan/members.ts'], want: 'allowed' }],
    ['back to the model', { given: ['contract/parse/elements.ts', 'contract/model/index.ts'], want: 'allowed' }],
    ['back to a shared leaf', { given: ['contract/plan/schema.ts', 'contract/naming.ts'], want: 'allowed' }],
    ['emit reads the plan', { given: ['generator/emit/types-file.ts', 'contract/plan/schema.ts'], want: 'allowed' }],
    ['diff reads the parser', { given: ['contract/diff/source.ts', 'contract/parse/index.ts'], want: 'allowed' }],
    ['read uses the parser', { given: ['contract/read/index.ts', 'contract/parse/index.ts'], want: 'allowed' }],
    ['read fetches with the runtime', { given: ['contract/read/fetch.ts', 'runtime/transport.ts'], want: 'allowed' }],
    ['read -> plan', { given: ['contract/read/index.ts', 'contract/plan/schema.ts'], want: /forwards/ }],
    ['parse -> read', { given: ['contract/parse/documents.ts', 'contract/read/index.ts'], want: /forwards/ }],
    ['diff uses the report kit', { given: ['contract/diff/report/junit.ts', 'report/junit.ts'], want: 'allowed' }],
    ['the parser -> the report kit', { given: ['contract/parse/documents.ts', 'report/text.ts'], want: /outside/ }],
    ['read -> conformance', { given: ['contract/read/index.ts', 'conformance/run/transport.ts'], want: /outside/ }],
    ['the pipeline reads emit', { given: ['generator/generate.ts', 'generator/emit/project.ts'], want: 'allowed' }],
    ['the runtime', { given: ['contract/descriptor/index.ts', 'runtime/descriptor.ts'], want: 'allowed' }],
    ['contract -> emit', { given: ['contract/descriptor/index.ts', 'generator/emit/literal.ts'], want: /outside/ }],
    ['plan -> descriptor', { given: ['contract/plan/service.ts', 'contract/descriptor/index.ts'], want: /forwards/ }],
    ['model -> parse', { given: ['contract/model/index.ts', 'contract/parse/index.ts'], want: /forwards/ }],
    ['a leaf -> the model', { given: ['contract/errors.ts', 'contract/model/index.ts'], want: /forwards/ }],
    ['descriptor -> diff', { given: ['contract/descriptor/index.ts', 'contract/diff/types.ts'], want: /forwards/ }],
    ['anything -> generate.ts', { given: ['generator/emit/project.ts', 'generator/generate.ts'], want: /forwards/ }],
    ['diff -> emit', { given: ['contract/diff/committed.ts', 'generator/emit/literal.ts'], want: /outside/ }],
    ['emit -> diff', { given: ['generator/emit/project.ts', 'contract/diff/types.ts'], want: /never contract\/diff/ }],
    ['out to the conformance runner', { given: ['contract/plan/schema.ts', 'conformance/index.ts'], want: /outside/ }],
    ['a file in no stage', { given: ['contract/stray.ts', 'contract/model/index.ts'], want: /no stage/ }],
  ];
  it.each(cases)('%s', (_name, { given: [from, to], want }) => {
    const found = violation(from, to);
    if (want === 'allowed') expect(found).toBeUndefined();
    else expect(found).toMatch(want);
  });
});
