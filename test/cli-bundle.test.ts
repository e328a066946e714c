/**
 * The prebuilt CLI bundle (scripts/build-cli.mjs → dist/) and the shim's choice between it and
 * tsx (bin/smskit.js). Everything runs in a temporary copy of the sources with node_modules
 * linked, so touching a file to make the bundle stale never disturbs the working tree.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const COPIED = ['bin', 'conformance', 'generated', 'generator', 'runtime', 'service', 'wsdl', 'scripts/build-cli.mjs', 'scripts/undici-entry.cjs', 'package.json', 'tsconfig.json'];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let copy: string;

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const inherited = { ...process.env };
  delete inherited.SMSKIT_NO_BUNDLE;
  const result = spawnSync(process.execPath, [join(copy, file), ...args], {
    cwd: copy,
    input: '',
    env: { ...inherited, SMSKIT_DEBUG_LOADER: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const cli = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Run => run('bin/smskit.js', args, env);
const build = (args: readonly string[] = []): Run => run('scripts/build-cli.mjs', args);

/** The first stderr line is the shim's loader line (SMSKIT_DEBUG_LOADER=1); the rest is the CLI's. */
function split(result: Run): { loader: string; rest: Run } {
  const [loader = '', ...rest] = result.stderr.split('\n');
  return { loader, rest: { ...result, stderr: rest.join('\n') } };
}

function manifestPath(): string {
  return join(copy, 'dist', 'manifest.json');
}

function rebuild(): void {
  const built = build();
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'smskit-cli-bundle-'));
  for (const path of COPIED) cpSync(join(repoRoot, path), join(copy, path), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  rebuild();
});
afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
});

describe('scripts/build-cli.mjs', () => {
  it('records every bundled source and the build inputs with mtime, size and sha256', () => {
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as { entry: string; files: { path: string; mtimeMs: number; size: number; sha256: string }[] };
    expect(manifest.entry).toBe('cli.mjs');
    const paths = manifest.files.map((file) => file.path);
    for (const path of ['bin/cli.ts', 'bin/commands/generate.ts', 'generator/index.ts', 'runtime/index.ts', 'generated/service-api/client.ts', 'package.json', 'tsconfig.json', 'scripts/build-cli.mjs']) {
      expect(paths).toContain(path);
    }
    for (const file of manifest.files) {
      const stat = statSync(join(copy, file.path));
      expect([file.path, file.mtimeMs, file.size]).toEqual([file.path, stat.mtimeMs, stat.size]);
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('keeps native and heavy packages external, bundles smskit/runtime and the small pure-JS dependencies, and leaves the heavy modules out of the entry chunk', () => {
    const dist = join(copy, 'dist');
    const texts = readdirSync(dist)
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(join(dist, name), 'utf8'));
    expect(texts.some((text) => text.includes('from "better-sqlite3"') || text.includes('import("better-sqlite3")'))).toBe(true);
    expect(texts.some((text) => text.includes('from "smskit/runtime"'))).toBe(false);
    for (const bundled of ['undici', 'yargs']) expect(texts.some((text) => text.includes(`from "${bundled}"`))).toBe(false);
    // Bundled dependencies are inputs like our sources: changing them makes the bundle stale.
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as { files: { path: string }[] };
    expect(manifest.files.some((f) => /node_modules\/undici\/lib\/dispatcher\/pool\.js$/.test(f.path))).toBe(true);
    expect(manifest.files.some((f) => f.path === 'scripts/undici-entry.cjs')).toBe(true);
    // Only what we use of undici: its fetch, WebSocket and mocks are not in the bundle.
    for (const text of texts) for (const unused of ['lib/web/fetch/index.js', 'lib/web/websocket/', 'lib/mock/']) expect(text).not.toContain(`node_modules/undici/${unused}`);
    expect(manifest.files.some((f) => /node_modules\/yargs\//.test(f.path))).toBe(true);
    // undici (the biggest bundled package) is loaded only by the commands that send requests.
    const entry = readFileSync(join(dist, 'cli.mjs'), 'utf8');
    const staticChunks = [...entry.matchAll(/^(?:import|} from) .*"\.\/([^"]+)"/gm)].map((match) => readFileSync(join(dist, match[1]!), 'utf8'));
    for (const text of [entry, ...staticChunks]) {
      for (const heavy of ['ts-morph', 'better-sqlite3']) expect(text).not.toMatch(new RegExp(`from "${heavy}"`));
      expect(text).not.toContain('node_modules/undici/lib/dispatcher/pool.js');
    }
  });

  it('takes from undici, through scripts/undici-entry.cjs, every value the sources import from it', async () => {
    const imported = new Set<string>();
    const walk = (dir: string): void => {
      for (const name of readdirSync(join(repoRoot, dir))) {
        const path = join(dir, name);
        if (statSync(join(repoRoot, path)).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) {
          for (const m of readFileSync(join(repoRoot, path), 'utf8').matchAll(/^import \{([^}]*)\} from 'undici';/gm)) {
            for (const part of m[1]!.split(',')) {
              const spec = part.trim();
              if (spec !== '' && !spec.startsWith('type ')) imported.add(spec.split(/\s+as\s+/)[0]!);
            }
          }
        }
      }
    };
    for (const dir of ['bin', 'conformance', 'generator', 'runtime', 'service']) walk(dir);
    expect(imported.has('Pool')).toBe(true); // the scan found the imports
    const { createRequire } = await import('node:module');
    const entry = createRequire(import.meta.url)(join(repoRoot, 'scripts', 'undici-entry.cjs')) as Record<string, unknown>;
    const undici = (await import('undici')) as unknown as Record<string, unknown>;
    for (const name of imported) expect(entry[name], name).toBe(undici[name]);
    // index.js gives every dispatcher request(), stream()...; the entry must do the same.
    expect(typeof (entry['Pool'] as { prototype: { request?: unknown } }).prototype.request).toBe('function');
  });

  it('refuses an out dir that is not a direct child of the repository (relative reads would break)', () => {
    const result = build(['--out-dir', join(copy, 'nested', 'dist')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('direct child');
  });
});

describe('bin/smskit.js with a fresh bundle', () => {
  it.each([
    ['--version', ['--version']],
    ['generate --check', ['generate', '--check']],
    ['a usage error', ['generate', '--no-such-flag']],
  ])('%s: the bundle prints and exits exactly as the tsx path', (_name, args) => {
    const bundled = split(cli(args));
    const fromSource = split(cli(args, { SMSKIT_NO_BUNDLE: '1' }));
    expect(bundled.loader).toBe('loader: bundle');
    expect(fromSource.loader).toBe('loader: tsx (SMSKIT_NO_BUNDLE=1)');
    expect(bundled.rest).toEqual(fromSource.rest);
  });

  it('reads package.json and the built-in WSDL relative to the bundle (same depth as bin/)', () => {
    const version = split(cli(['--version']));
    expect(version.rest.stdout.trim()).toBe((JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string }).version);
  });
});

describe('bin/smskit.js with a stale or broken bundle falls back to tsx', () => {
  it('a source file touched since the build', () => {
    const file = join(copy, 'bin', 'commands', 'generate.ts');
    const before = statSync(file);
    utimesSync(file, before.atime, new Date(before.mtimeMs + 2_000));
    const result = split(cli(['generate', '--check']));
    expect(result.loader).toBe('loader: tsx (bin/commands/generate.ts changed since the build)');
    expect(result.rest.status).toBe(0);
    rebuild();
    expect(split(cli(['--version'])).loader).toBe('loader: bundle');
  });

  it('a source file edited to another size with its old mtime put back', () => {
    const file = join(copy, 'bin', 'tool-version.ts');
    const before = statSync(file);
    writeFileSync(file, `${readFileSync(file, 'utf8')}// edited\n`);
    utimesSync(file, before.atime, before.mtime);
    expect(split(cli(['--version'])).loader).toBe('loader: tsx (bin/tool-version.ts changed since the build)');
    rebuild();
  });

  it('a manifest listing a file that is gone', () => {
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as { files: unknown[] };
    manifest.files.push({ path: 'bin/removed.ts', mtimeMs: 1, size: 1, sha256: '0'.repeat(64) });
    writeFileSync(manifestPath(), JSON.stringify(manifest));
    expect(split(cli(['--version'])).loader).toBe('loader: tsx (bin/removed.ts is gone)');
    rebuild();
  });

  it('an unreadable manifest', () => {
    writeFileSync(manifestPath(), '{"format":');
    const result = split(cli(['--version']));
    expect(result.loader).toBe('loader: tsx (no readable dist/manifest.json)');
    expect(result.rest.status).toBe(0);
    rebuild();
  });
});
