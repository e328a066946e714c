/**
 * The prebuilt CLI bundle (scripts/build-cli.mjs → dist/cli/) and the shim's choice between it
 * and tsx (bin/smskit.js): in a clone by the manifest, in an installed package always the bundle. Everything runs in a temporary copy of the sources with node_modules
 * linked, so touching a file to make the bundle stale never disturbs the working tree.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import { repoRoot, runCli } from '../helpers/cli.js';
import checkBundle from '../setup/cli-bundle.js';

const COPIED = [
  'bin',
  'conformance',
  'contract',
  'fuzz',
  'generated',
  'generator',
  'migrate',
  'report',
  'runtime',
  'service',
  'wsdl',
  'scripts/build-cli.mjs',
  'scripts/undici-entry.cjs',
  'package.json',
  'tsconfig.json',
];

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let copy: string;

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const inherited = { ...process.env };
  delete inherited.SMSKIT_NO_BUNDLE;
  delete inherited.SMSKIT_REQUIRE_BUNDLE;
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

/** The chunks `start` loads before any of its code runs: itself and its static imports, transitively. */
function staticClosure(dist: string, start: string): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(join(dist, name), 'utf8');
    for (const match of text.matchAll(/^(?:import|} from)[^"\n]*"\.\/([^"]+\.mjs)"/gm)) visit(match[1]!);
  };
  visit(start);
  return [...seen];
}
const build = (args: readonly string[] = []): Run => run('scripts/build-cli.mjs', args);

/** The first stderr line is the shim's loader line (SMSKIT_DEBUG_LOADER=1); the rest is the CLI's. */
function split(result: Run): { loader: string; rest: Run } {
  const [loader = '', ...rest] = result.stderr.split('\n');
  return { loader, rest: { ...result, stderr: rest.join('\n') } };
}

function manifestPath(): string {
  return join(copy, 'dist', 'cli', 'manifest.json');
}

function rebuild(): void {
  const built = build();
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
}

/**
 * Undoes a test's damage without a rebuild (each costs seconds): the manifest as saved, with the
 * entries of `touched` (files whose text is back as the build read it) updated to their stat
 * now, which is what a rebuild of the same sources records. Asserts that the bundle is used again.
 */
function putBack(savedManifest: string, touched: readonly string[] = []): void {
  const manifest = JSON.parse(savedManifest) as { files: { path: string; mtimeMs: number; size: number }[] };
  for (const entry of manifest.files) {
    if (!touched.includes(entry.path)) continue;
    const stat = statSync(join(copy, entry.path));
    entry.mtimeMs = stat.mtimeMs;
    entry.size = stat.size;
  }
  writeFileSync(manifestPath(), JSON.stringify(manifest));
  expect(split(cli(['--version'])).loader).toBe('loader: bundle');
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
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as {
      entry: string;
      files: { path: string; mtimeMs: number; size: number; sha256: string }[];
    };
    expect(manifest.entry).toBe('cli.mjs');
    const paths = manifest.files.map((file) => file.path);
    for (const path of [
      'bin/cli.ts',
      'bin/commands/generate.ts',
      'generator/index.ts',
      'runtime/index.ts',
      'generated/service-api/client.ts',
      'package.json',
      'tsconfig.json',
      'scripts/build-cli.mjs',
    ]) {
      expect(paths).toContain(path);
    }
    for (const file of manifest.files) {
      const stat = statSync(join(copy, file.path));
      expect([file.path, file.mtimeMs, file.size]).toEqual([file.path, stat.mtimeMs, stat.size]);
      expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('keeps native better-sqlite3 external, bundles smskit/runtime and the pure-JS dependencies, never ts-morph, and leaves the heavy modules out of the entry chunk', () => {
    const dist = join(copy, 'dist', 'cli');
    const texts = readdirSync(dist)
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => readFileSync(join(dist, name), 'utf8'));
    expect(
      texts.some((text) => text.includes('from "better-sqlite3"') || text.includes('import("better-sqlite3")')),
    ).toBe(true);
    expect(texts.some((text) => text.includes('from "smskit/runtime"'))).toBe(false);
    for (const bundled of ['undici', 'yargs', 'saxes', 'diff'])
      expect(texts.some((text) => text.includes(`from "${bundled}"`))).toBe(false);
    // The sources import ts-morph for types only: an installed package does not depend on it.
    for (const text of texts) expect(text).not.toMatch(/from "ts-morph"|node_modules\/ts-morph\//);
    // Bundled dependencies are inputs like our sources: changing them makes the bundle stale.
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8')) as { files: { path: string }[] };
    expect(manifest.files.some((f) => /node_modules\/undici\/lib\/dispatcher\/pool\.js$/.test(f.path))).toBe(true);
    expect(manifest.files.some((f) => f.path === 'scripts/undici-entry.cjs')).toBe(true);
    // Only what we use of undici: its fetch, WebSocket and mocks are not in the bundle.
    for (const text of texts)
      for (const unused of ['lib/web/fetch/index.js', 'lib/web/websocket/', 'lib/mock/'])
        expect(text).not.toContain(`node_modules/undici/${unused}`);
    expect(manifest.files.some((f) => /node_modules\/yargs\//.test(f.path))).toBe(true);
    // undici (the biggest bundled package) is loaded only by the commands that send requests.
    const entry = readFileSync(join(dist, 'cli.mjs'), 'utf8');
    const staticChunks = [...entry.matchAll(/^(?:import|} from) .*"\.\/([^"]+)"/gm)].map((match) =>
      readFileSync(join(dist, match[1]!), 'utf8'),
    );
    for (const text of [entry, ...staticChunks]) {
      for (const heavy of ['ts-morph', 'better-sqlite3']) expect(text).not.toMatch(new RegExp(`from "${heavy}"`));
      expect(text).not.toContain('node_modules/undici/lib/dispatcher/pool.js');
    }
  });

  it('gives the administration commands (account, outbox, callbacks) no SMPP, SMTP, HTTP-client, YAML or Prometheus code', () => {
    const dist = join(copy, 'dist', 'cli');
    const chunks = readdirSync(dist).filter((name) => name.endsWith('.mjs'));
    const admin = chunks.filter((name) => readFileSync(join(dist, name), 'utf8').includes('\n// service/admin.ts\n'));
    expect(admin).toHaveLength(1);
    const loaded = staticClosure(dist, admin[0]!);
    expect(loaded.length).toBeGreaterThan(1); // it imports the store's chunk at least
    for (const name of loaded)
      for (const heavy of ['smpp', 'nodemailer', 'undici', 'prom-client', 'yaml'])
        expect(readFileSync(join(dist, name), 'utf8'), `${name} holds ${heavy}`).not.toContain(
          `// node_modules/${heavy}/`,
        );
  });

  it("makes no Intl object at a start that prints no help (yargs' Intl.Segmenter at its first use)", () => {
    // Each costs ~20 ms of ICU start-up the first time: a module that made one as it loaded
    // (segments.ts's number format once did) charged every process that loads it.
    const hook = join(copy, 'count-intl.cjs');
    writeFileSync(
      hook,
      `const made = {};
       for (const name of ['Segmenter', 'NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'ListFormat']) {
         const Original = Intl[name];
         Intl[name] = class extends Original { constructor(...args) { super(...args); made[name] = (made[name] ?? 0) + 1; } };
       }
       process.on('exit', () => process.stderr.write('intl made: ' + JSON.stringify(made) + '\\n'));`,
    );
    const counted = (args: readonly string[]): Record<string, number> =>
      JSON.parse(/intl made: (\{.*\})/.exec(cli(args, { NODE_OPTIONS: `--require ${hook}` }).stderr)?.[1] ?? 'null');
    expect(counted(['--version'])).toEqual({});
    // The built-in service in this process: the SMS handlers, the segment counter, the store.
    expect(counted(['conformance'])).toEqual({});
    expect(counted(['send', '--help']).Segmenter).toBeGreaterThan(0); // the help layout still measures its text
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
    for (const dir of [
      'bin',
      'conformance',
      'contract',
      'fuzz',
      'generator',
      'migrate',
      'report',
      'runtime',
      'service',
    ])
      walk(dir);
    expect(imported.has('Pool')).toBe(true); // the scan found the imports
    const { createRequire } = await import('node:module');
    const entry = createRequire(import.meta.url)(join(repoRoot, 'scripts', 'undici-entry.cjs')) as Record<
      string,
      unknown
    >;
    const undici = (await import('undici')) as unknown as Record<string, unknown>;
    for (const name of imported) expect(entry[name], name).toBe(undici[name]);
    // index.js gives every dispatcher request(), stream()...; the entry must do the same.
    expect(typeof (entry.Pool as { prototype: { request?: unknown } }).prototype.request).toBe('function');
  });

  it('builds into an out dir at any depth: the bundle finds package.json and the built-in contract from there', () => {
    const nested = join(copy, 'nested', 'deeper', 'out');
    expect(build(['--out-dir', nested])).toMatchObject({ status: 0, stderr: '' });
    const elsewhere = mkdtempSync(join(tmpdir(), 'smskit-cli-cwd-'));
    try {
      const version = spawnSync(process.execPath, [join(nested, 'cli.mjs'), '--version'], {
        cwd: elsewhere,
        encoding: 'utf8',
      });
      expect(version.stdout.trim()).toBe(
        (JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string }).version,
      );
      const list = spawnSync(process.execPath, [join(nested, 'cli.mjs'), 'conformance', '--list'], {
        cwd: elsewhere,
        encoding: 'utf8',
      });
      expect(list.stderr).toBe('');
      expect(list.stdout).toMatch(/cases selected/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
      rmSync(join(copy, 'nested'), { recursive: true, force: true });
    }
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

  it('reads package.json relative to the bundle, not to the working directory', () => {
    const version = split(cli(['--version']));
    expect(version.rest.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });
});

describe("the test run's own commands", () => {
  it('start the bundle the setup checked without checking it again (SMSKIT_BUNDLE_VERIFIED)', () => {
    const manifest = join(repoRoot, 'dist', 'cli', 'manifest.json');
    const { builtAt } = JSON.parse(readFileSync(manifest, 'utf8')) as { builtAt: string };
    expect(process.env.SMSKIT_BUNDLE_VERIFIED).toBe(`${manifest}@${builtAt}`);
    expect(runCli(['--version'], { env: { SMSKIT_DEBUG_LOADER: '1' } }).stderr).toBe(
      'loader: bundle (checked by the parent: SMSKIT_BUNDLE_VERIFIED)\n',
    );
  });

  it('check the bundle themselves in watch mode, where sources change between reruns', () => {
    const setAtStart = process.env.SMSKIT_BUNDLE_VERIFIED;
    const inMode = (watch: boolean): string | undefined => {
      delete process.env.SMSKIT_BUNDLE_VERIFIED;
      checkBundle({ globalConfig: { watch } } as TestProject);
      return process.env.SMSKIT_BUNDLE_VERIFIED;
    };
    try {
      expect(inMode(true)).toBeUndefined();
      expect(inMode(false)).toBe(setAtStart);
    } finally {
      process.env.SMSKIT_BUNDLE_VERIFIED = setAtStart;
    }
  });
});

describe('bin/smskit.js with a stale or broken bundle falls back to tsx', () => {
  it('a source file touched since the build', () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    const file = join(copy, 'bin', 'commands', 'generate.ts');
    const before = statSync(file);
    utimesSync(file, before.atime, new Date(before.mtimeMs + 2_000));
    const result = split(cli(['generate', '--check']));
    expect(result.loader).toBe('loader: tsx (bin/commands/generate.ts changed since the build)');
    expect(result.rest.status).toBe(0);
    putBack(saved, ['bin/commands/generate.ts']);
  });

  it('a source file edited to another size with its old mtime put back', () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    const file = join(copy, 'bin', 'tool-version.ts');
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}// edited\n`);
    utimesSync(file, before.atime, before.mtime);
    expect(split(cli(['--version'])).loader).toBe('loader: tsx (bin/tool-version.ts changed since the build)');
    writeFileSync(file, text);
    putBack(saved, ['bin/tool-version.ts']);
  });

  it('a manifest listing a file that is gone', () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    const manifest = JSON.parse(saved) as { files: unknown[] };
    manifest.files.push({ path: 'bin/removed.ts', mtimeMs: 1, size: 1, sha256: '0'.repeat(64) });
    writeFileSync(manifestPath(), JSON.stringify(manifest));
    expect(split(cli(['--version'])).loader).toBe('loader: tsx (bin/removed.ts is gone)');
    putBack(saved);
  });

  it('refuses the fallback when the test suite requires the shipped bundle (SMSKIT_REQUIRE_BUNDLE=1)', () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    const file = join(copy, 'bin', 'tool-version.ts');
    const before = statSync(file);
    utimesSync(file, before.atime, new Date(before.mtimeMs + 2_000));
    const result = cli(['--version'], { SMSKIT_REQUIRE_BUNDLE: '1', SMSKIT_DEBUG_LOADER: '0' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'smskit: SMSKIT_REQUIRE_BUNDLE=1 and the CLI bundle is stale (bin/tool-version.ts changed since the build): run node scripts/build-cli.mjs\n',
    );
    putBack(saved, ['bin/tool-version.ts']);
  });

  it("unless a parent checked this very build (SMSKIT_BUNDLE_VERIFIED: the manifest's path and build time)", () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    const { builtAt } = JSON.parse(saved) as { builtAt: string };
    const file = join(copy, 'bin', 'tool-version.ts');
    const before = statSync(file);
    utimesSync(file, before.atime, new Date(before.mtimeMs + 2_000));
    const thisBuild = `${manifestPath()}@${builtAt}`;
    expect(split(cli(['--version'], { SMSKIT_BUNDLE_VERIFIED: thisBuild })).loader).toBe(
      'loader: bundle (checked by the parent: SMSKIT_BUNDLE_VERIFIED)',
    );
    for (const other of [
      `${manifestPath()}@2000-01-01T00:00:00.000Z`,
      `${join(repoRoot, 'dist', 'cli', 'manifest.json')}@${builtAt}`,
    ])
      expect(split(cli(['--version'], { SMSKIT_BUNDLE_VERIFIED: other })).loader).toBe(
        'loader: tsx (bin/tool-version.ts changed since the build)',
      );
    putBack(saved, ['bin/tool-version.ts']);
  });

  it('an unreadable manifest', () => {
    const saved = readFileSync(manifestPath(), 'utf8');
    writeFileSync(manifestPath(), '{"format":');
    const result = split(cli(['--version']));
    expect(result.loader).toBe('loader: tsx (no readable dist/cli/manifest.json)');
    expect(result.rest.status).toBe(0);
    putBack(saved);
  });
});

describe('bin/smskit.js in an installed package (no TypeScript sources beside it)', () => {
  let installed: string;
  beforeAll(() => {
    // What package.json "files" ships of the CLI: the shim, the bundle and the contract.
    installed = mkdtempSync(join(tmpdir(), 'smskit-installed-'));
    for (const path of ['bin/smskit.js', 'dist/cli', 'wsdl/serviceapi.wsdl', 'wsdl/statusapi.wsdl', 'package.json'])
      cpSync(join(copy, path), join(installed, path), { recursive: true });
    rmSync(join(installed, 'dist', 'cli', 'manifest.json'));
    symlinkSync(join(repoRoot, 'node_modules'), join(installed, 'node_modules'), 'dir');
  });
  afterAll(() => {
    rmSync(installed, { recursive: true, force: true });
  });
  const installedCli = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Run => {
    const { NODE_OPTIONS: _repoConditions, ...userEnv } = process.env;
    const result = spawnSync(process.execPath, [join(installed, 'bin', 'smskit.js'), ...args], {
      cwd: tmpdir(),
      encoding: 'utf8',
      env: { ...userEnv, SMSKIT_DEBUG_LOADER: '1', ...env },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('always starts the bundle (there is nothing to be stale against, and no tsx)', () => {
    const result = split(installedCli(['conformance', '--list']));
    expect(result.loader).toBe('loader: bundle (installed package)');
    expect(result.rest.stderr).toBe('');
    expect(result.rest.stdout).toMatch(/cases selected/);
  });

  it('says the package is incomplete, exit 2, when the bundle is missing', () => {
    rmSync(join(installed, 'dist'), { recursive: true, force: true });
    const result = installedCli(['--version']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^smskit: the package is incomplete: .*cli\.mjs is missing \(reinstall smskit\)\n$/);
  });
});
