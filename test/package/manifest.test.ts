/**
 * package.json classifies every dependency by who needs it, and the tarball holds only what
 * users need. Read from the sources, so a new import or an unused dependency fails here:
 *   dependencies          what the compiled library (dist/) imports at run time
 *   optionalDependencies  what only the built-in SMS service needs, per store: native code
 *                         (better-sqlite3), and the PostgreSQL client (pg), loaded only for a
 *                         postgres:// database
 *   devDependencies       tests, the bench, the build, types, and what the CLI bundle inlines
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  files: string[];
}

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
const LIBRARY = [
  'runtime',
  'contract',
  'generator',
  'conformance',
  'migrate',
  'fuzz',
  'report',
  'service',
  'generated',
];
/** Packages used as programs or for their types, never imported by name. */
const TOOLS: Record<string, string> = {
  typescript: "the compiler API: the doc-run projects' compiles, the architecture tests' readings",
  'typescript-7': "TypeScript 7's native tsc: the type check of npm test and the library build",
  vitest: 'the test runner',
  esbuild: 'the CLI bundle (scripts/build-cli.mjs)',
  tsx: 'runs the sources in a clone when the bundle is stale (bin/smskit.js)',
  'wsdl-tsclient': 'the bench peer, run as a program',
  '@biomejs/biome': 'the formatter and linter (npm run lint)',
};

function sourceFiles(dir: string): string[] {
  const root = join(repoRoot, dir);
  if (statSync(root, { throwIfNoEntry: false })?.isFile()) return [root];
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return [];
  const out: string[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (
      entry.isFile() &&
      /\.(ts|mts|cts|mjs|cjs|js)$/.test(entry.name) &&
      !entry.parentPath.includes('node_modules') &&
      !entry.parentPath.includes(`${join('test', 'golden')}`)
    )
      out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

/** Bare package names a file imports, split into imports that load code and type-only ones. */
function importsOf(file: string): { values: Set<string>; types: Set<string> } {
  const text = readFileSync(file, 'utf8');
  const values = new Set<string>();
  const types = new Set<string>();
  const packageOf = (specifier: string): string | undefined => {
    if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('/')) return undefined;
    const parts = specifier.split('/');
    return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  };
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/gms)) {
    const name = packageOf(m[4]!);
    if (name === undefined) continue;
    const typeOnly =
      m[2] !== undefined ||
      (/^\{[^}]*\}$/s.test(m[3]!.trim()) &&
        m[3]!
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
          .every((part) => part.startsWith('type')));
    (typeOnly ? types : values).add(name);
  }
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)|\brequire\(\s*'([^']+)'\s*\)|^\s*import\s+'([^']+)'/gm)) {
    const name = packageOf((m[1] ?? m[2] ?? m[3])!);
    if (name !== undefined) values.add(name);
  }
  return { values, types };
}

function importedBy(dirs: readonly string[]): { values: Set<string>; types: Set<string> } {
  const values = new Set<string>();
  const types = new Set<string>();
  for (const dir of dirs) {
    for (const file of sourceFiles(dir)) {
      const found = importsOf(file);
      for (const name of found.values) values.add(name);
      for (const name of found.types) types.add(name);
    }
  }
  values.delete(pkg.name);
  types.delete(pkg.name);
  return { values, types };
}

const runtimeDeps = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);

describe('package.json dependencies', () => {
  it('the library (dist/) finds every package it loads among dependencies or optionalDependencies', () => {
    const { values } = importedBy(LIBRARY);
    expect([...values].filter((name) => !runtimeDeps.has(name)).sort()).toEqual([]);
  });

  it('every dependency is loaded by the library, and only the service stores are optional', () => {
    const { values } = importedBy(LIBRARY);
    expect(Object.keys(pkg.dependencies ?? {}).filter((name) => !values.has(name))).toEqual([]);
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual(['better-sqlite3', 'pg']);
  });

  it('what the sources import only for types is a development dependency (ts-morph)', () => {
    const { values, types } = importedBy(LIBRARY);
    const typeOnly = [...types].filter((name) => !values.has(name));
    expect(typeOnly).toContain('ts-morph');
    for (const name of typeOnly) expect(pkg.devDependencies?.[name] ?? pkg.dependencies?.[name], name).toBeDefined();
    expect(pkg.dependencies?.['ts-morph']).toBeUndefined();
  });

  it('every declared package is imported somewhere or is a tool, with @types for a declared package', () => {
    const { values, types } = importedBy(['bin', ...LIBRARY, 'scripts', 'test', 'tools', 'bench', 'vitest.config.ts']);
    const declared = [...runtimeDeps, ...Object.keys(pkg.devDependencies ?? {})];
    const unused = declared.filter((name) => {
      if (values.has(name) || types.has(name) || name in TOOLS) return false;
      const typed = /^@types\/(.+)$/.exec(name)?.[1];
      return typed === undefined || !(declared.includes(typed) || typed === 'node');
    });
    expect(unused).toEqual([]);
  });
});

describe('package.json exports and files', () => {
  it('each entry point has the repo source condition, then types and default in dist/', () => {
    for (const entry of ['./runtime', './contract', './generator', './conformance']) {
      const target = pkg.exports[entry] as Record<string, string>;
      expect(Object.keys(target)).toEqual(['smskit-source', 'types', 'default']);
      expect(target.types).toMatch(/^\.\/dist\/.+\/index\.d\.ts$/);
      expect(target.default).toBe(target.types!.replace(/\.d\.ts$/, '.js'));
    }
  });

  it('npm pack takes the shim, dist/, the contract and the docs, nothing of the repo besides', () => {
    const dry = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
    });
    expect(dry.status, dry.stderr).toBe(0);
    const files = (
      JSON.parse(dry.stdout.slice(dry.stdout.indexOf('['))) as { files: { path: string }[] }[]
    )[0]!.files.map((f) => f.path);
    const tops = [...new Set(files.map((f) => (f.includes('/') ? `${f.split('/')[0]}/` : f)))].sort();
    expect(tops).toEqual(
      ['README.md', 'bin/', 'docs/', 'package.json', 'wsdl/']
        .concat(files.some((f) => f.startsWith('dist/')) ? ['dist/'] : [])
        .sort(),
    );
    expect(files.filter((f) => f.startsWith('bin/'))).toEqual(['bin/smskit.js']);
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('manifest.json'))).toEqual([]);
  });
});
