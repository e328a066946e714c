/**
 * No import circles in the product code, between modules or between folders: a module can be
 * read, tested and moved knowing only what it imports, and a request or a WSDL enters each
 * module once. The graph is every relative import of the TypeScript modules in the product
 * folders (static, `export … from` and dynamic `import()`), `import type` included: a type-only
 * import erases at run time, so it never breaks load order, but the two modules still cannot be
 * understood or changed apart, which is what a circle costs. Circles are the strongly connected
 * components of the graph (Tarjan). Folders are compared as siblings: an import from a/b/… to
 * a/c/… is an arrow b → c under a; a folder importing its own subfolders (or the reverse) is not.
 *
 * The one circle the design has is the XSD recursion in parsing: an element's anonymous complex
 * type holds particles that hold elements again (elements.ts → complex-types.ts → particles.ts →
 * elements.ts), allowed wherever the parse folder lives.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRODUCT_FOLDERS } from '../../tools/sizes.js';
import { importsOf, sourceFiles } from './source-tree.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The product folders the size limits measure, and the generated code and tools beside them. */
const PRODUCT = [...PRODUCT_FOLDERS, 'generated', 'tools'];

/** A circle named by its members, each by the end of its path (so a moved parent folder still matches). */
type Circle = readonly string[];

/** The XSD recursion: the only circle of modules the design has. */
const ALLOWED: readonly Circle[] = [['parse/complex-types.ts', 'parse/elements.ts', 'parse/particles.ts']];

/** Module (root-relative, `/`-separated) → the modules it imports, from the modules' texts. */
function importGraph(modules: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [module, text] of modules) {
    const targets = importsOf(text)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => join(dirname(module), specifier).split(sep).join('/').replace(/\.js$/, '.ts'))
      .filter((target) => modules.has(target));
    graph.set(module, [...new Set(targets)]);
  }
  return graph;
}

/** The folder graph: for each import between modules of sibling folders, an arrow between the siblings. */
function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = from.split('/').slice(0, -1);
      const b = to.split('/').slice(0, -1);
      let common = 0;
      while (common < a.length && common < b.length && a[common] === b[common]) common++;
      if (common === a.length || common === b.length) continue; // one folder holds the other
      const source = `${a.slice(0, common + 1).join('/')}/`;
      const target = `${b.slice(0, common + 1).join('/')}/`;
      folders.set(source, (folders.get(source) ?? new Set()).add(target));
      if (!folders.has(target)) folders.set(target, new Set());
    }
  }
  return new Map([...folders].map(([folder, targets]) => [folder, [...targets]]));
}

/** Tarjan's strongly connected components with more than one member (no module imports itself). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((x, y) => x[0]!.localeCompare(y[0]!));
}

/** Whether `circle` is exactly the one `named` describes: each member ends with one name, at a folder boundary. */
function matches(circle: readonly string[], named: Circle): boolean {
  const endsWith = (path: string, end: string): boolean => path === end || path.endsWith(`/${end}`);
  return circle.length === named.length && named.every((end) => circle.filter((m) => endsWith(m, end)).length === 1);
}

/** The circles neither allowed nor known to be removed elsewhere. */
function unexpected(found: readonly string[][], allowed: readonly Circle[]): string[] {
  return found.filter((circle) => !allowed.some((named) => matches(circle, named))).map((c) => c.join(' ↔ '));
}

function productModules(): Map<string, string> {
  const files = PRODUCT.flatMap((folder) => sourceFiles(join(ROOT, folder)));
  return new Map(files.map((file) => [relative(ROOT, file).split(sep).join('/'), readFileSync(file, 'utf8')]));
}

describe('import circles', () => {
  const graph = importGraph(productModules());
  const found = [...circles(graph), ...circles(folderGraph(graph))];

  it('reads the product modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('runtime/server.ts')).toContain('runtime/server/pipeline.ts');
  });

  it('has no circle between modules or folders but the XSD recursion', () => {
    expect(unexpected(found, ALLOWED)).toEqual([]);
  });

  it('would catch a planted circle, type-only, between modules and between folders', () => {
    const planted = importGraph(
      new Map([
        ['generator/plan/a.ts', "import { b } from './b.js';"],
        ['generator/plan/b.ts', "import type { A } from './a.js';"],
        ['runtime/x/c.ts', "export { d } from '../y/d.js';"],
        ['runtime/y/d.ts', "const e = await import('../x/e.js');"],
        ['runtime/x/e.ts', ''],
      ]),
    );
    const all = [...circles(planted), ...circles(folderGraph(planted))];
    expect(unexpected(all, ALLOWED)).toEqual(['generator/plan/a.ts ↔ generator/plan/b.ts', 'runtime/x/ ↔ runtime/y/']);
  });

  it('allows the XSD recursion in either home of the parse folder, and nothing wider', () => {
    const recursion = (folder: string, extra: [string, string][] = []): string[][] =>
      circles(
        importGraph(
          new Map([
            [`${folder}/elements.ts`, "import { readComplexType } from './complex-types.js';"],
            [`${folder}/complex-types.ts`, "import { readContent } from './particles.js';"],
            [`${folder}/particles.ts`, "import { readLocalElement } from './elements.js';"],
            ...extra,
          ]),
        ),
      );
    expect(unexpected(recursion('generator/parse'), ALLOWED)).toEqual([]);
    expect(unexpected(recursion('contract/parse'), ALLOWED)).toEqual([]);
    const wider = recursion('contract/parse', [['contract/parse/attributes.ts', "import { x } from './elements.js';"]]);
    expect(unexpected(wider, ALLOWED)).toEqual([]); // attributes.ts only imports: outside the circle
    const joined = recursion('contract/parse', [
      ['contract/parse/elements.ts', "import { a } from './attributes.js';\nimport { c } from './complex-types.js';"],
      ['contract/parse/attributes.ts', "import { e } from './elements.js';"],
    ]);
    expect(unexpected(joined, ALLOWED)).toHaveLength(1);
  });
});
