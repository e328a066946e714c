/**
 * docs/development.md's "Where do I add…" table names real files: every backticked path in it
 * (a file or a folder, ending in /) exists, so the table cannot drift from the tree unnoticed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function tablePaths(markdown: string): string[] {
  const section = markdown.split('## Where do I add…')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/`([^`\s]+\/[^`\s]*)`/g)].map((m) => m[1] as string);
}

describe('docs/development.md, "Where do I add…"', () => {
  const paths = tablePaths(readFileSync(join(ROOT, 'docs/development.md'), 'utf8'));

  it('lists paths', () => {
    expect(paths.length).toBeGreaterThan(10);
  });

  it.each(paths)('%s exists', (path) => {
    expect(existsSync(join(ROOT, path))).toBe(true);
  });

  it('would notice a path that does not exist', () => {
    expect(tablePaths('## Where do I add…\n| x | `service/nowhere.ts` |\n')).toEqual(['service/nowhere.ts']);
    expect(existsSync(join(ROOT, 'service/nowhere.ts'))).toBe(false);
  });
});
