/**
 * docs/development.md's "Where do I add…" table and its walks (the files a request, a WSDL, a
 * message and a conformance run pass through) name real files: every backticked path in them
 * that starts at a top-level folder (a file or a folder, ending in /) exists, so neither can
 * drift from the tree unnoticed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const TOP_LEVEL = /^(bench|bin|conformance|docs|generated|generator|migrate|runtime|scripts|service|test|tools|wsdl)\//;

function sectionPaths(markdown: string, heading: string): string[] {
  const section = markdown.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/`([^`\s]+\/[^`\s]*)`/g)].map((m) => m[1] as string).filter((p) => TOP_LEVEL.test(p));
}

function tablePaths(markdown: string): string[] {
  return sectionPaths(markdown, 'Where do I add…');
}

describe('docs/development.md, "Where do I add…"', () => {
  const paths = tablePaths(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'));

  it('lists paths', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });
});

describe('docs/development.md, "The walks"', () => {
  const paths = [...new Set(sectionPaths(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'), 'The walks'))];

  it('names the files of every walk', () => {
    expect(paths.length).toBeGreaterThan(40);
    for (const start of ['runtime/server/pipeline.ts', 'runtime/server/serve-soap.ts', 'runtime/server/serve-http.ts'])
      expect(paths).toContain(start);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });

  it('would notice a path that does not exist', () => {
    expect(tablePaths('\n## Where do I add…\n| x | `service/nowhere.ts` |\n')).toEqual(['service/nowhere.ts']);
    expect(existsSync(join(ROOT, 'service/nowhere.ts'))).toBe(false);
  });
});
