/**
 * What the architecture tests read of the tree: the source files under a folder, and the module
 * specifiers a source imports (static imports, `export … from` and dynamic `import()`, type-only
 * ones included). Written once, so every rule sees the same imports.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every file under `dir` whose name matches `pattern` (TypeScript modules by default), never node_modules. */
export function sourceFiles(dir: string, pattern: RegExp = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers `text` imports, in order. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => (m[1] ?? m[2]) as string);
}
