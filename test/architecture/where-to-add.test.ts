/**
 * Every path a document or a code comment names exists, so neither can drift from the tree
 * unnoticed: docs/development.md's "Where do I add…" table and its walks (the files a request, a
 * WSDL, a message and a conformance run pass through), and every backticked path in README.md,
 * docs/*.md and bench/README.md that starts at a top-level folder; in the comments of the
 * product and tools code, those paths and every TypeScript module named (`network.ts`,
 * `plan/schema.ts`). A path ending in / names a folder, one with an extension a file, one
 * without either; `*` and `<name>` stand for any name, `{a,b}` for each of a and b.
 *
 * Short forms are resolved as the texts use them, never by searching the tree: in a document, a
 * path may be relative to a folder a path named earlier in the same section lies in (the walk
 * names `contract/read/index.ts`, then `read/fetch.ts`), and a test may be named
 * without `.test.ts`; in a comment, a path is relative to the module's folder or one above it,
 * or to a folder named earlier in the same comment, and the comments of the generator and of the
 * contract layer it plans with may name the files it writes (`client.ts`: `generated/<service>/client.ts`). CHANGELOG.md is history.
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const TOP_LEVEL =
  /^(bench|bin|conformance|contract|docs|generated|generator|migrate|fuzz|report|runtime|scripts|service|test|tools|wsdl)\//;
/** The folders whose comments are read: the product code and the tools tests and scripts share. */
const COMMENTED = [
  'bin',
  'conformance',
  'contract',
  'generator',
  'migrate',
  'fuzz',
  'report',
  'runtime',
  'service',
  'tools',
];
/** Names that look like paths and are not: each with what it is. */
const NOT_PATHS: ReadonlyMap<string, string> = new Map([['wsdl/structure', 'a conformance case name']]);

/** A path as a text names it, with the folders (root-relative, '' for the root) it may be relative to. */
interface Named {
  readonly where: string;
  readonly path: string;
  readonly bases: readonly string[];
}

/** `a/{b,c}/d` → `a/b/d`, `a/c/d`. */
function expandBraces(path: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(path);
  if (brace === null) return [path];
  const [before, after] = [path.slice(0, brace.index), path.slice(brace.index + brace[0].length)];
  return brace[1]!.split(',').flatMap((choice) => expandBraces(`${before}${choice}${after}`));
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Whether one brace-free pattern under `base` names an existing file (or a folder, ending in /). */
function existsUnder(base: string, pattern: string): boolean {
  const folder = pattern.endsWith('/');
  const segments = (base === '' ? pattern : `${base}/${pattern}`).replace(/\/$/, '').split('/');
  let found = [ROOT];
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    if (segment === '..' || segment === '.') {
      found = found.map((dir) => join(dir, segment));
      continue;
    }
    const wild = /[*<]/.test(segment);
    const exact = new RegExp(
      `^${segment
        .replace(/[.+^$()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/<[^>]*>/g, '[^/]+')}$`,
    );
    found = found.flatMap((dir) =>
      entries(dir)
        .filter((e) => (wild ? exact.test(e.name) : e.name === segment))
        .filter((e) => (!last ? e.isDirectory() : folder ? e.isDirectory() : e.isFile() || !segment.includes('.')))
        .map((e) => join(dir, e.name)),
    );
  }
  return found.length > 0;
}

/** Whether a named path exists from one of its bases; under test/ a test may leave out `.test.ts`. */
function resolves(named: Named): boolean {
  return expandBraces(named.path).every((path) =>
    named.bases.some(
      (base) =>
        existsUnder(base, path) ||
        (`${base}/${path}`.replace(/^\//, '').startsWith('test/') && existsUnder(base, `${path}.test.ts`)),
    ),
  );
}

/** The folder a path names or lies in, and every folder above it up to the root (''). */
function foldersOf(path: string): string[] {
  const parts = (path.endsWith('/') ? path : dirname(path)).split('/').filter((p) => p !== '' && p !== '.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('/')).concat('');
}

/** The folders (and those above them) a path names or lies in, from each base it exists under. */
function resolvedFolders(named: Named): string[] {
  const path = expandBraces(named.path)[0]!;
  return named.bases.filter((base) => existsUnder(base, path)).flatMap((base) => foldersOf(join(base, path)));
}

/** The backticked paths of a Markdown text that start at a top-level folder, section by section. */
function markdownPaths(file: string, markdown: string): Named[] {
  const named: Named[] = [];
  let context = new Set<string>(['']);
  const lines = markdown.split('\n');
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    if (/^#{1,6}\s/.test(line)) context = new Set(['']);
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const path = match[1]!.replace(/[.,;:]+$/, '');
      if (!TOP_LEVEL.test(path) || NOT_PATHS.has(path)) continue;
      const one: Named = { where: `${file}:${i + 1}`, path, bases: [...context] };
      named.push(one);
      for (const folder of resolvedFolders(one)) context.add(folder);
    }
  }
  return named;
}

/** The texts of a module's comments, each once, in order. */
function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node): void => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    add(ts.getLeadingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  add(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  return [...found]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

const PATH_TOKEN =
  /(?<![\w@./<>*{},-])(?:\.\.?\/)*[\w@<>*{},.]+(?:-[\w@<>*{},.]+)*(?:\/[\w@<>*{},.]+(?:-[\w@<>*{},.]+)*)*\/?/g;

/** In one module's comments: the paths starting at a top-level folder and the TypeScript modules named. */
function commentPaths(module: string, text: string): Named[] {
  const own = foldersOf(module);
  const generated = /^(generator|contract)\//.test(module) ? ['generated/<service>'] : [];
  return commentsOf(module, text).flatMap((comment) => {
    const context = new Set([...own, ...generated]);
    const named: Named[] = [];
    for (const match of comment.text.matchAll(PATH_TOKEN)) {
      const path = match[0].replace(/[.,]+$/, '');
      if (NOT_PATHS.has(path)) continue;
      const one: Named = { where: `${module}:${comment.line}`, path, bases: [...context] };
      if ((TOP_LEVEL.test(path) || /\.ts$/.test(path)) && !/^\.+ts$/.test(path)) named.push(one);
      if (path.includes('/')) for (const folder of resolvedFolders(one)) context.add(folder);
    }
    return named;
  });
}

function typescriptFiles(dir: string): string[] {
  return entries(dir).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const DOCUMENTS = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

function sectionPaths(markdown: string, heading: string): Named[] {
  const section = markdown.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  return markdownPaths(`docs/development.md (${heading})`, `## ${heading}\n${section}`);
}

const missing = (named: readonly Named[]): string[] =>
  named.filter((n) => !resolves(n)).map((n) => `${n.where}: ${n.path}`);

describe('docs/development.md, "Where do I add…"', () => {
  const paths = sectionPaths(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'), 'Where do I add…');

  it('lists paths', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths.map((n) => [n.path, n]))('%s exists', (_, named) => {
    expect(resolves(named)).toBe(true);
  });
});

describe('docs/development.md, "The walks"', () => {
  const paths = sectionPaths(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'), 'The walks');

  it('names the files of every walk', () => {
    const unique = new Set(paths.map((n) => n.path));
    expect(unique.size).toBeGreaterThan(40);
    for (const start of ['runtime/server/pipeline.ts', 'runtime/server/serve-soap.ts', 'runtime/server/serve-http.ts'])
      expect(unique).toContain(start);
  });

  it('names only paths that exist', () => {
    expect(missing(paths)).toEqual([]);
  });
});

describe('every path the documents name', () => {
  const named = DOCUMENTS.flatMap((file) => markdownPaths(file, readFileSync(join(ROOT, file), 'utf8')));

  it('reads the README, bench/README.md and docs/', () => {
    expect(named.length).toBeGreaterThan(300);
    expect(new Set(named.map((n) => n.where.split(':')[0]))).toContain('bench/README.md');
  });

  it('exists', () => {
    expect(missing(named)).toEqual([]);
  });
});

describe('every path the comments of the product and tools code name', () => {
  const modules = COMMENTED.flatMap((folder) => typescriptFiles(join(ROOT, folder))).map((file) =>
    relative(ROOT, file).split(sep).join('/'),
  );
  const named = modules.flatMap((module) => commentPaths(module, readFileSync(join(ROOT, module), 'utf8')));

  it('reads the comments', () => {
    expect(named.length).toBeGreaterThan(200);
  });

  it('exists', () => {
    expect(missing(named)).toEqual([]);
  });
});

describe('the check itself', () => {
  it('would notice a path that does not exist, in a document or a comment', () => {
    const doc = markdownPaths('x.md', '## Where do I add…\n| x | `service/nowhere.ts` |\n');
    expect(missing(doc)).toEqual(['x.md:2: service/nowhere.ts']);
    const comment = commentPaths(
      'conformance/run/transport.ts',
      '/** With network options (network.ts). */\nexport {};',
    );
    expect(missing(comment)).toEqual(['conformance/run/transport.ts:1: network.ts']);
  });

  it('tells a file from a folder, and resolves short forms only where the text puts them', () => {
    expect(missing(markdownPaths('x.md', '`runtime/server.ts/` and `runtime/codec/index.ts/`'))).toHaveLength(2);
    expect(missing(markdownPaths('x.md', '`runtime/server` and `runtime/server.ts`'))).toEqual([]);
    const patterns = '`docs/*.md`, `generated/<service>/descriptor.ts`, `docs/*.xyz`, `runtime/{client,nowhere}.ts`';
    expect(missing(markdownPaths('x.md', patterns))).toEqual([
      'x.md:1: docs/*.xyz',
      'x.md:1: runtime/{client,nowhere}.ts',
    ]);
    expect(missing(markdownPaths('x.md', '`runtime/server/` and `runtime/{client,server}.ts`'))).toEqual([]);
    // A short path resolves under a folder named before it in the section, not after, not in another section.
    const walk = '`test/docs/doc-run.test.ts` runs (`docs/doc-run.test.ts`)';
    expect(missing(markdownPaths('x.md', walk))).toEqual([]);
    expect(missing(markdownPaths('x.md', `${walk}\n## Next\n\`docs/doc-run.test.ts\``))).toHaveLength(1);
    expect(missing(markdownPaths('x.md', '`docs/doc-run.test.ts`, `test/docs/doc-run.test.ts`'))).toHaveLength(1);
    expect(missing(markdownPaths('x.md', '`service/app.ts` then `runtime/nowhere.ts`'))).toHaveLength(1);
    expect(missing(markdownPaths('x.md', '## Running the tests\n`test/` mirrors: `runtime/corpus`'))).toEqual([]);
    // In a comment: the module's own folder, folders above it, and the generator's output.
    expect(missing(commentPaths('runtime/codec/decode.ts', '// path.ts, codec/temporal.ts, xml/reader.ts'))).toEqual(
      [],
    );
    expect(missing(commentPaths('runtime/codec/decode.ts', '// layout.ts'))).toHaveLength(1);
    expect(missing(commentPaths('generator/emit/client-file.ts', '// `client.ts`: the client'))).toEqual([]);
  });
});
